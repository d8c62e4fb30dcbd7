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
 * Any inconsistency is INDEX_CORRUPT naming the file. The dense LanceDB table is checked by its row
 * count when it is opened, and by `index verify` (its owner, rows, ids and the sha256 of each file of
 * its build: dense/verify-dense.ts), not here.
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

async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    h.update(chunk as Buffer);
    stats.bytes += (chunk as Buffer).length;
  }
  stats.files++;
  return h.digest('hex');
}

/** sha256 of every data file against the manifest; all problems are collected, none thrown. */
export async function verifyChecksums(dir: string, m: Manifest): Promise<VerifyReport> {
  const t0 = performance.now();
  const problems: VerifyProblem[] = [];
  let bytes = 0;
  const files = [...new Set([...expectedFiles(m), ...Object.keys(m.checksums)])];
  for (const rel of files) {
    const file = join(dir, rel);
    const want = m.checksums[rel];
    if (!want) {
      problems.push({ file, message: 'the manifest lists no checksum for this file' });
      continue;
    }
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      problems.push({ file, message: 'index file is missing' });
      continue;
    }
    bytes += size;
    const sizeWant = m.sizes?.[rel];
    if (sizeWant !== undefined && size !== sizeWant) {
      problems.push({ file, message: `expected ${sizeWant} bytes, found ${size}` });
      continue;
    }
    const got = await sha256File(file);
    if (got !== want) problems.push({ file, message: `sha256 ${got.slice(0, 12)}… does not match the manifest's ${want.slice(0, 12)}…` });
  }
  return { dir, files: files.length, bytes, ms: performance.now() - t0, problems };
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
 * verifyChecksums, and when every file is intact and none changed while being hashed, a
 * verification record for these files (so the next process's first open need not hash them again).
 * `before` is the files' fingerprint taken before hashing (taken here when not given); `known`, the
 * dir's realpath and manifestKey(m) when the caller has them already.
 */
export async function verifyAndRecord(dir: string, m: Manifest, before = fingerprint(dir, m), known?: { real: string; key: string }): Promise<VerifyReport> {
  const r = await verifyChecksums(dir, m);
  if (!r.problems.length && before && JSON.stringify(fingerprint(dir, m)) === JSON.stringify(before))
    writeVerifiedRecord(known?.real ?? (await realpath(dir).catch(() => dir)), m, before, known?.key);
  return r;
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
  const mode = verifyMode();
  if (mode === 'off') return;
  const real = await realpath(dir).catch(() => dir);
  const { files, bytes: total } = statFiles(dir, m);
  const mkey = manifestKey(m);
  const key = `${real}\0${mkey}\0${files ? JSON.stringify(files) : 'missing'}`;
  let p = verified.get(key);
  if (!p) {
    p = (async () => {
      const max = verifyOnOpenMaxBytes();
      if (total > max) {
        log.debug(`index ${dir}: checksums not verified on open (${total} bytes > ${max}); run lexcase index verify`);
        return;
      }
      if (mode === 'auto' && files && hasVerifiedRecord(real, m, files, mkey)) {
        stats.recordHits++;
        log.debug(`index ${dir}: files unchanged since verified (verification record); not hashed again`);
        return;
      }
      const r = await verifyAndRecord(dir, m, files, { real, key: mkey });
      log.debug(`index ${dir}: verified ${r.files} files, ${r.bytes} bytes in ${r.ms.toFixed(0)} ms`);
      const e = reportError(r);
      if (e) throw e;
    })();
    verified.set(key, p);
    p.catch(() => verified.delete(key));
  }
  return p;
}
