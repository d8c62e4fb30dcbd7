/**
 * Integrity of an index dir, at two costs:
 *   - checkIndexFiles (every open, microseconds): every data file the layout needs is listed in the
 *     manifest's checksums, exists, and has the size the manifest recorded (`sizes`, from this
 *     release on); the readers add structural checks (headers, offsets that rise and end at the file
 *     size, counts that add up). By default an open does only these.
 *   - verifyChecksums (the end of `lexcase index build`, `lexcase index verify`, `index info`, and —
 *     only with LEXCASE_VERIFY=1 — the first open of an index in a process when its data files total
 *     at most LEXCASE_VERIFY_MAX_MB, default 1024 MiB): the sha256 of every data file against the
 *     manifest. With LEXCASE_VERIFY=1 an open skips the hash when a verification record
 *     (verify-record.ts, kept outside the index dir) shows these very files, unchanged since (same
 *     size, mtime, ctime, inode, device), already verified; LEXCASE_VERIFY=always ignores records.
 * Any inconsistency is INDEX_CORRUPT naming the file. The dense LanceDB table is checked by its owner
 * and row count when it is opened, by `index verify` (its owner, rows, ids and the sha256 of each file
 * of its build: dense/verify-dense.ts), and — with LEXCASE_VERIFY=1 — its recorded files are hashed on
 * a process's first dense open by the same first-open code as the index dir's (verifyFilesOnFirstOpen:
 * its own verification record, keyed by the table dir, and its own LEXCASE_VERIFY_MAX_MB bound).
 */
import { createReadStream, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { errors, type LexcaseError } from '../core/errors.js';
import { envNumber } from '../core/env-number.js';
import { log } from '../core/log.js';
import { DOCSTORE_FILES } from './docstore-writer.js';
import type { Manifest } from './manifest.js';
import { SPARSE_FILES } from './sparse/format.js';
import { BLOCK_BOUNDS_FILE } from './sparse/block-bounds.js';
import { fingerprint, hasVerifiedRecord, manifestKey, statFiles, writeVerifiedRecord } from './verify-record.js';

/** The data files an index dir must hold, from its manifest (relative paths). */
export function expectedFiles(m: Manifest): string[] {
  const d = DOCSTORE_FILES;
  const text = m.docstore && m.docstore.text !== 'plain' ? [`${d.text}.off`, `${d.text}.dfl`, `${d.text}.blk`] : [`${d.text}.off`, `${d.text}.bin`];
  const files = [`${d.ids}.bin`, `${d.ids}.off`, ...text, `${d.title}.bin`, `${d.title}.off`, `${d.docId}.bin`, `${d.docId}.off`, d.source, d.sources];
  if (m.docstore?.meta) files.push(`${d.meta}.bin`, `${d.meta}.off`);
  if (m.sparse) files.push(...Object.values(SPARSE_FILES));
  // Block bounds (sparse/block-bounds.ts), when the build wrote them.
  if ((m.sparse?.blockBounds as { file?: unknown } | undefined)?.file === BLOCK_BOUNDS_FILE) files.push(BLOCK_BOUNDS_FILE);
  if (m.blocks) files.push(m.blocks.file);
  return files;
}

/** Cheap checks for every open: files listed, present, and of the recorded size. */
export function checkIndexFiles(dir: string, m: Manifest): void {
  for (const rel of expectedFiles(m)) {
    const file = join(dir, rel);
    if (!m.checksums[rel]) throw errors.indexCorrupt(file, 'the manifest lists no checksum for this file');
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      throw errors.indexCorrupt(file, 'index file is missing');
    }
    const want = m.sizes?.[rel];
    if (want !== undefined && size !== want) throw errors.indexCorrupt(file, `expected ${want} bytes, found ${size}`);
  }
}

export interface VerifyProblem {
  file: string;
  message: string;
  /** How to repair this part, when it is not "rebuild the index" (a lancedb-fts table rebuilds on its own). */
  hint?: string;
}

export interface VerifyReport {
  dir: string;
  files: number;
  bytes: number;
  ms: number;
  problems: VerifyProblem[];
}

/** What this process has hashed, and how many opens a verification record spared (for tests and --debug). */
export interface HashStats {
  files: number;
  bytes: number;
  /** Opens whose checksum verification a verification record made unnecessary. */
  recordHits: number;
}
const stats: HashStats = { files: 0, bytes: 0, recordHits: 0 };
export const hashStats = (): HashStats => ({ ...stats });

/** sha256 of a file, counted in hashStats(). */
export async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    h.update(chunk as Buffer);
    stats.bytes += (chunk as Buffer).length;
  }
  stats.files++;
  return h.digest('hex');
}

/** Recorded digests of a set of files, by path relative to their root: a manifest's, or a dense table's. */
export type FileDigests = Pick<Manifest, 'checksums' | 'sizes'>;

/**
 * Each of `rels` under `root` against `d` (size, then sha256); all problems collected, none thrown.
 * `missing` is what a file that is not there is called.
 */
export async function checkFileDigests(
  root: string,
  rels: readonly string[],
  d: FileDigests,
  missing = 'index file is missing',
): Promise<{ files: number; bytes: number; problems: VerifyProblem[] }> {
  const problems: VerifyProblem[] = [];
  let bytes = 0;
  for (const rel of rels) {
    const file = join(root, rel);
    const want = d.checksums[rel];
    if (!want) {
      problems.push({ file, message: 'the manifest lists no checksum for this file' });
      continue;
    }
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      problems.push({ file, message: missing });
      continue;
    }
    bytes += size;
    const sizeWant = d.sizes?.[rel];
    if (sizeWant !== undefined && size !== sizeWant) {
      problems.push({ file, message: `expected ${sizeWant} bytes, found ${size}` });
      continue;
    }
    const got = await sha256File(file);
    if (got !== want) problems.push({ file, message: `sha256 ${got.slice(0, 12)}… does not match the manifest's ${want.slice(0, 12)}…` });
  }
  return { files: rels.length, bytes, problems };
}

/** sha256 of every data file against the manifest; all problems are collected, none thrown. */
export async function verifyChecksums(dir: string, m: Manifest): Promise<VerifyReport> {
  const t0 = performance.now();
  const r = await checkFileDigests(dir, [...new Set([...expectedFiles(m), ...Object.keys(m.checksums)])], m);
  return { dir, ...r, ms: performance.now() - t0 };
}

/** The first problem of a report as an INDEX_CORRUPT error (more problems counted in the message). */
export function reportError(r: VerifyReport): LexcaseError | undefined {
  if (!r.problems.length) return undefined;
  const [first] = r.problems;
  const more = r.problems.length > 1 ? ` (and ${r.problems.length - 1} more damaged file(s); run lexcase index verify ${r.dir})` : '';
  return errors.indexCorrupt(first.file, first.message + more, ...(first.hint ? [first.hint] : []));
}

/** Bytes up to which an index is checksum-verified on its first open in a process. */
export function verifyOnOpenMaxBytes(): number {
  const mb = envNumber('LEXCASE_VERIFY_MAX_MB', { min: 0, unit: 'MiB' }) ?? 1024;
  return mb * 1024 * 1024;
}

/**
 * LEXCASE_VERIFY: unset, `0` or `off` (default: an open does the structural checks only; checksums
 * are verified at the end of the build and by `lexcase index verify`); `1` or `auto` (also hash the
 * data files on a process's first open, unless a verification record shows them unchanged since
 * verified); `always` (hash on every process's first open, ignoring records).
 */
export function verifyMode(): 'off' | 'auto' | 'always' {
  const v = process.env.LEXCASE_VERIFY;
  if (v === undefined || v === '' || v === '0' || v === 'off') return 'off';
  if (v === '1' || v === 'auto') return 'auto';
  if (v === 'always') return 'always';
  throw errors.invalidInput(
    'LEXCASE_VERIFY',
    `expected 0 (default: structural checks on open), 1 (also verify checksums on a process's first open) or always, got "${v}"`,
  );
}

/**
 * What a first open verifies: the files under `root` whose digests are `digests`, checked by `check`
 * (all problems returned, none thrown); `what` names them in debug lines ("index DIR").
 */
export interface FileSet {
  root: string;
  digests: FileDigests;
  check: () => Promise<VerifyReport>;
  what: string;
  /** Another dir no verification record may be written inside (a dense table's index dir). */
  keepOut?: string;
}

const indexFiles = (dir: string, m: Manifest): FileSet => ({ root: dir, digests: m, check: () => verifyChecksums(dir, m), what: `index ${dir}` });

/**
 * `set.check()`, and when every file is intact and none changed while being hashed, a verification
 * record for these files (so the next process's first open need not hash them again). `before` is the
 * files' fingerprint taken before hashing; `known`, the root's realpath and manifestKey of its digests
 * when the caller has them already.
 */
async function checkAndRecord(set: FileSet, before: Record<string, string> | undefined, known?: { real: string; key: string }): Promise<VerifyReport> {
  const r = await set.check();
  if (!r.problems.length && before && JSON.stringify(fingerprint(set.root, set.digests)) === JSON.stringify(before)) {
    const keepOut = set.keepOut === undefined ? [] : [await realpath(set.keepOut).catch(() => set.keepOut as string)];
    writeVerifiedRecord(known?.real ?? (await realpath(set.root).catch(() => set.root)), set.digests, before, known?.key, keepOut);
  }
  return r;
}

/**
 * verifyChecksums, and when every file is intact and none changed while being hashed, a
 * verification record for these files (so the next process's first open need not hash them again).
 * `before` is the files' fingerprint taken before hashing (taken here when not given); `known`, the
 * dir's realpath and manifestKey(m) when the caller has them already.
 */
export async function verifyAndRecord(dir: string, m: Manifest, before = fingerprint(dir, m), known?: { real: string; key: string }): Promise<VerifyReport> {
  return checkAndRecord(indexFiles(dir, m), before, known);
}

/**
 * Record the index in `dir` as verified as its files are now, for a caller that has just computed
 * their checksums itself (the build). Best effort, never throws.
 */
export async function recordVerified(dir: string, m: Manifest): Promise<void> {
  const files = fingerprint(dir, m);
  if (files) writeVerifiedRecord(await realpath(dir).catch(() => dir), m, files);
}

/** Opens verified (or in verification) in this process, by realpath, manifest and file stats. */
const verified = new Map<string, Promise<void>>();

/** Forget this process's verified opens, as a new process would (tests). */
export function forgetVerifiedOpens(): void {
  verified.clear();
}

/**
 * With LEXCASE_VERIFY=1 (or always): verify the checksums the first time this process opens this
 * index (per manifest and file stats; a file changed since is verified again); later opens cost a
 * stat per file. Skipped (with a debug line) when the data files exceed verifyOnOpenMaxBytes(), or
 * when a verification record shows the same files already verified (unless LEXCASE_VERIFY=always);
 * a clean hash writes that record. By default (LEXCASE_VERIFY unset) it does nothing: the open's
 * structural checks stand, and `lexcase index verify` hashes.
 */
export async function verifyOnFirstOpen(dir: string, m: Manifest): Promise<void> {
  return verifyFilesOnFirstOpen(indexFiles(dir, m));
}

/**
 * verifyOnFirstOpen for any set of files with recorded digests (the index dir's data files, a dense
 * table's files: dense/verify-dense.ts): the same mode, bound, records (one per realpath of
 * `set.root`) and INDEX_CORRUPT error (reportError of `set.check()`).
 */
export async function verifyFilesOnFirstOpen(set: FileSet): Promise<void> {
  const mode = verifyMode();
  if (mode === 'off') return;
  const { root, digests, what } = set;
  const real = await realpath(root).catch(() => root);
  const { files, bytes: total } = statFiles(root, digests);
  const mkey = manifestKey(digests);
  const key = `${real}\0${mkey}\0${files ? JSON.stringify(files) : 'missing'}`;
  let p = verified.get(key);
  if (!p) {
    p = (async () => {
      const max = verifyOnOpenMaxBytes();
      if (total > max) {
        log.debug(`${what}: checksums not verified on open (${total} bytes > ${max}); run lexcase index verify`);
        return;
      }
      if (mode === 'auto' && files && hasVerifiedRecord(real, digests, files, mkey)) {
        stats.recordHits++;
        log.debug(`${what}: files unchanged since verified (verification record); not hashed again`);
        return;
      }
      const r = await checkAndRecord(set, files, { real, key: mkey });
      log.debug(`${what}: verified ${r.files} files, ${r.bytes} bytes in ${r.ms.toFixed(0)} ms`);
      const e = reportError(r);
      if (e) throw e;
    })();
    verified.set(key, p);
    p.catch(() => verified.delete(key));
  }
  return p;
}
