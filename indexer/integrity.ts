/**
 * Integrity of an index dir, at two costs:
 *   - checkIndexFiles (every open, microseconds): every data file the layout needs is listed in the
 *     manifest's checksums, exists, and has the size the manifest recorded (`sizes`, from this
 *     release on); the readers add structural checks (offsets that rise and end at the file size,
 *     counts that add up).
 *   - verifyChecksums (`lexcase index verify`, `index info`, and the first open of an index in a
 *     process when its data files total at most LEXCASE_VERIFY_MAX_MB, default 1024 MiB): the sha256
 *     of every data file against the manifest.
 * Any inconsistency is INDEX_CORRUPT naming the file. The dense LanceDB table is checked by its row
 * count when it is opened, not here (LanceDB owns that format).
 */
import { createReadStream, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { errors, type LexcaseError } from '../core/errors.js';
import { log } from '../core/log.js';
import { DOCSTORE_FILES } from './docstore-writer.js';
import type { Manifest } from './manifest.js';
import { SPARSE_FILES } from './sparse/format.js';

/** The data files an index dir must hold, from its manifest (relative paths). */
export function expectedFiles(m: Manifest): string[] {
  const d = DOCSTORE_FILES;
  const text = m.docstore && m.docstore.text !== 'plain' ? [`${d.text}.off`, `${d.text}.dfl`, `${d.text}.blk`] : [`${d.text}.off`, `${d.text}.bin`];
  const files = [`${d.ids}.bin`, `${d.ids}.off`, ...text, `${d.title}.bin`, `${d.title}.off`, `${d.docId}.bin`, `${d.docId}.off`, d.source, d.sources];
  if (m.sparse) files.push(...Object.values(SPARSE_FILES));
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

/** Offsets must start at 0, never fall, and end at `end` (the size of the file they index). */
export function checkOffsets(file: string, offsets: Float64Array, end: number): void {
  let prev = 0;
  if (offsets[0] !== 0) throw errors.indexCorrupt(file, `first offset is ${offsets[0]}, expected 0`);
  for (let i = 1; i < offsets.length; i++) {
    const v = offsets[i];
    if (!(v >= prev) || !Number.isInteger(v)) throw errors.indexCorrupt(file, `offset ${i} (${v}) is not an integer at or after offset ${i - 1} (${prev})`);
    prev = v;
  }
  if (prev !== end) throw errors.indexCorrupt(file, `last offset is ${prev}, but the data it indexes has ${end} bytes`);
}

export interface VerifyProblem {
  file: string;
  message: string;
}

export interface VerifyReport {
  dir: string;
  files: number;
  bytes: number;
  ms: number;
  problems: VerifyProblem[];
}

async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
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
  const e = errors.indexCorrupt(first.file, first.message + more);
  return e;
}

/** Bytes up to which an index is checksum-verified on its first open in a process. */
export function verifyOnOpenMaxBytes(): number {
  const env = process.env.LEXCASE_VERIFY_MAX_MB;
  const mb = env === undefined || env === '' ? 1024 : Number(env);
  if (!Number.isFinite(mb) || mb < 0) throw errors.invalidInput('LEXCASE_VERIFY_MAX_MB', `expected a number of MiB >= 0, got "${env}"`);
  return mb * 1024 * 1024;
}

const verified = new Map<string, Promise<void>>();

/**
 * Verify the checksums the first time this process opens this index (per manifest); later opens
 * cost nothing. Skipped (with a debug line) when the data files exceed verifyOnOpenMaxBytes().
 */
export async function verifyOnFirstOpen(dir: string, m: Manifest): Promise<void> {
  const key = `${await realpath(dir).catch(() => dir)}\0${m.seal ?? m.createdAt}`;
  let p = verified.get(key);
  if (!p) {
    p = (async () => {
      let total = 0;
      for (const rel of Object.keys(m.checksums)) total += statSync(join(dir, rel), { throwIfNoEntry: false })?.size ?? 0;
      const max = verifyOnOpenMaxBytes();
      if (total > max) {
        log.debug(`index ${dir}: checksums not verified on open (${total} bytes > ${max}); run lexcase index verify`);
        return;
      }
      const r = await verifyChecksums(dir, m);
      log.debug(`index ${dir}: verified ${r.files} files, ${r.bytes} bytes in ${r.ms.toFixed(0)} ms`);
      const e = reportError(r);
      if (e) throw e;
    })();
    verified.set(key, p);
    p.catch(() => verified.delete(key));
  }
  return p;
}
