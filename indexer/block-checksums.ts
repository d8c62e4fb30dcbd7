/**
 * Block checksums: what a query reads is checked before it is used, once per process.
 *
 * A build cuts every data file of the index dir into blocks of `blockBytes` (64 KiB) and records
 * each block's CRC-32 in one file, `blocks.crc32` (Uint32 little-endian, the files' blocks one
 * after another in the order of `manifest.blocks.files`); that file is itself in the manifest's
 * sha256 `checksums`. Readers check every block they read before they use its bytes:
 *   - files read whole when an index opens (ids, offsets, source column and names, terms, df, cf,
 *     doc lengths, bylen, text block offsets): all their blocks, from the bytes just read;
 *   - files read by offset (sparse/postings.bin — in memory or on disk —, the texts, titles and doc
 *     ids): the blocks a read touches, the first time it touches them.
 * A block checked once is not checked again in this process (a bitmap per file, in shared memory
 * so query workers share it); the record of what was checked lives as long as the files keep their
 * size, mtime, ctime, inode and device (a file replaced or rewritten is checked again). A block that
 * does not match is INDEX_CORRUPT naming the file and the block's byte range, at open or at the
 * first query that reads it. The sha256 of whole files stays what `lexcase index verify` checks.
 *
 * `manifest.blocks` is versioned on its own ({version: 1, algorithm: "crc32", blockBytes, file,
 * files}); an index without it (built before this release) is read as before, with the structural
 * checks only. A newer version or another algorithm is INDEX_INCOMPATIBLE.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFile, realpath, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { errors } from '../core/errors.js';
import type { Manifest } from './manifest.js';
import { HashingFile } from './sparse/hashing-file.js';
import { manifestKey, statFiles } from './verify-record.js';

export const BLOCK_BYTES = 1 << 16;
export const BLOCKS_FILE = 'blocks.crc32';
export const BLOCKS_VERSION = 1;

/** The manifest's `blocks` section. */
export interface BlocksSection {
  version: number;
  algorithm: 'crc32';
  blockBytes: number;
  /** The checksum file, relative to the index dir. */
  file: string;
  /** The data files it covers, in the order their blocks are stored. */
  files: string[];
}

// ---- CRC-32 (zlib's, as in gzip and PNG) -----------------------------------------------------

const zcrc = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
let table: Uint32Array | undefined;

/** CRC-32 of `b`: zlib.crc32 where Node has it (20.15+), else a table-driven one (same values). */
export function crc32(b: Uint8Array): number {
  if (zcrc) return zcrc(b) >>> 0;
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = table[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ---- writing ---------------------------------------------------------------------------------

/**
 * Read back the data files `files` (relative to `dir`) and write their block checksums into
 * `dir/blocks.crc32`; returns the manifest section and that file's sha256. A build calls it after
 * every data file is written, before the manifest (~1 GB/s: 0.1 s for 100 MB).
 */
export function writeBlockChecksums(dir: string, files: readonly string[], blockBytes = BLOCK_BYTES): { section: BlocksSection; sha256: string } {
  const sorted = [...files].sort();
  const out = new HashingFile(join(dir, BLOCKS_FILE));
  const chunk = new Uint8Array(blockBytes * 16);
  const one = new Uint32Array(1);
  for (const rel of sorted) {
    const fd = openSync(join(dir, rel), 'r');
    try {
      for (;;) {
        let n = 0;
        while (n < chunk.length) {
          const got = readSync(fd, chunk, n, chunk.length - n, null);
          if (got === 0) break;
          n += got;
        }
        for (let off = 0; off < n; off += blockBytes) {
          one[0] = crc32(chunk.subarray(off, Math.min(n, off + blockBytes)));
          out.writeTyped(one);
        }
        if (n < chunk.length) break;
      }
    } finally {
      closeSync(fd);
    }
  }
  const sha256 = out.close();
  return { section: { version: BLOCKS_VERSION, algorithm: 'crc32', blockBytes, file: BLOCKS_FILE, files: sorted }, sha256 };
}

// ---- reading ---------------------------------------------------------------------------------

/** One data file's block checksums and which blocks this process has checked (shared memory). */
export interface FileBlocks {
  /** The file's path (for messages). */
  file: string;
  size: number;
  blockBytes: number;
  crcs: Uint32Array;
  /** 1 = block checked in this process. */
  checked: Uint8Array;
  /** The index's counters, shared with query workers: blocks checked, bytes checked, microseconds spent computing CRC-32s. */
  counters: BigInt64Array;
}

export interface IndexBlocks {
  /** The blocks of a data file (relative path), or undefined when the file is not covered. */
  of(rel: string): FileBlocks | undefined;
}

/** What this process (query workers included) has checked, over every index it opened (the bench, tests). */
export interface BlockCheckStats {
  blocks: number;
  bytes: number;
  /** Time spent computing and comparing CRC-32s (the reads are the ones the query does anyway). */
  ms: number;
}
const allCounters = new Set<BigInt64Array>();
export function blockCheckStats(): BlockCheckStats {
  const s: BlockCheckStats = { blocks: 0, bytes: 0, ms: 0 };
  for (const c of allCounters) {
    s.blocks += Number(Atomics.load(c, 0));
    s.bytes += Number(Atomics.load(c, 1));
    s.ms += Number(Atomics.load(c, 2)) / 1000;
  }
  return s;
}

const opened = new Map<string, Promise<IndexBlocks | undefined>>();

/** Forget what this process has checked, as a new process would (tests, the bench). */
export function forgetCheckedBlocks(): void {
  opened.clear();
}

function sectionOf(dir: string, m: Manifest): BlocksSection | undefined {
  const b = (m as { blocks?: unknown }).blocks as Partial<BlocksSection> | undefined;
  if (b === undefined) return undefined;
  if (!b || typeof b !== 'object' || !Number.isInteger(b.version))
    throw errors.indexIncompatible(dir, 'manifest field "blocks" is not a block checksum section');
  if (b.version! > BLOCKS_VERSION)
    throw errors.indexIncompatible(dir, `block checksum version ${b.version} is newer than this lexcase supports (${BLOCKS_VERSION})`);
  if (b.algorithm !== 'crc32')
    throw errors.indexIncompatible(dir, `block checksum algorithm "${String(b.algorithm)}" is not supported by this lexcase (crc32)`);
  if (!Number.isInteger(b.blockBytes) || b.blockBytes! < 1 || typeof b.file !== 'string' || !Array.isArray(b.files))
    throw errors.indexIncompatible(dir, 'manifest field "blocks": blockBytes, file or files is missing');
  return b as BlocksSection;
}

/**
 * The block checksums of the index in `dir` (undefined for an index built without them), loaded
 * once per process for these files: the checksum file is checked against the manifest's sha256.
 */
export function openIndexBlocks(dir: string, m: Manifest): Promise<IndexBlocks | undefined> {
  const section = sectionOf(dir, m);
  if (!section) return Promise.resolve(undefined);
  const { files } = statFiles(dir, m);
  const key = `${dir}\0${manifestKey(m)}\0${files ? JSON.stringify(files) : 'missing'}`;
  let p = opened.get(key);
  if (!p) {
    p = (async () => {
      const real = await realpath(dir).catch(() => dir);
      // the same files opened through another path (a symlink) share what was checked
      const realKey = `${real}\0${key.slice(dir.length + 1)}`;
      if (realKey !== key) {
        const q = opened.get(realKey);
        if (q) return q;
      }
      const loaded = loadBlocks(dir, m, section);
      if (realKey !== key) opened.set(realKey, loaded);
      return loaded;
    })();
    opened.set(key, p);
    p.catch(() => opened.delete(key));
  }
  return p;
}

async function loadBlocks(dir: string, m: Manifest, section: BlocksSection): Promise<IndexBlocks> {
  const file = join(dir, section.file);
  const raw = await readFile(file).catch(() => {
    throw errors.indexCorrupt(file, 'index file is missing');
  });
  const want = m.checksums[section.file];
  if (!want) throw errors.indexCorrupt(file, 'the manifest lists no checksum for this file');
  const got = createHash('sha256').update(raw).digest('hex');
  if (got !== want) throw errors.indexCorrupt(file, `sha256 ${got.slice(0, 12)}… does not match the manifest's ${want.slice(0, 12)}…`);
  const counts = section.files.map((rel) => {
    const size = m.sizes?.[rel] ?? statSync(join(dir, rel), { throwIfNoEntry: false })?.size;
    if (size === undefined) throw errors.indexCorrupt(join(dir, rel), 'index file is missing');
    return { rel, size, blocks: Math.ceil(size / section.blockBytes) };
  });
  const total = counts.reduce((a, c) => a + c.blocks, 0);
  if (raw.byteLength !== total * 4)
    throw errors.indexCorrupt(file, `expected ${total} block checksums for ${counts.length} files, found ${raw.byteLength / 4}`);
  const crcs = new Uint32Array(new SharedArrayBuffer(total * 4));
  new Uint8Array(crcs.buffer).set(raw);
  const checked = new Uint8Array(new SharedArrayBuffer(total));
  const counters = new BigInt64Array(new SharedArrayBuffer(3 * 8));
  allCounters.add(counters);
  const byFile = new Map<string, FileBlocks>();
  let at = 0;
  for (const c of counts) {
    byFile.set(c.rel, {
      file: join(dir, c.rel),
      size: c.size,
      blockBytes: section.blockBytes,
      crcs: crcs.subarray(at, at + c.blocks),
      checked: checked.subarray(at, at + c.blocks),
      counters,
    });
    at += c.blocks;
  }
  return { of: (rel) => byFile.get(rel) };
}

function mismatch(fb: FileBlocks, i: number, got: number): never {
  const a = i * fb.blockBytes;
  const b = Math.min(fb.size, a + fb.blockBytes);
  const hex = (x: number) => x.toString(16).padStart(8, '0');
  throw errors.indexCorrupt(
    fb.file,
    `block ${i} (bytes ${a}–${b}) does not match its checksum (crc32 ${hex(got)}, recorded ${hex(fb.crcs[i])}): the file changed after it was built`,
  );
}

/** Check blocks first…last of `fb` against `bytes`, which hold the file from byte `at` on. */
function checkBlocks(fb: FileBlocks, first: number, last: number, bytes: Uint8Array, at: number): void {
  const t0 = performance.now();
  let blocks = 0;
  let checkedBytes = 0;
  try {
    for (let i = first; i <= last; i++) {
      if (fb.checked[i]) continue;
      const a = i * fb.blockBytes - at;
      const b = Math.min(fb.size, (i + 1) * fb.blockBytes) - at;
      const got = crc32(bytes.subarray(a, b));
      if (got !== fb.crcs[i]) mismatch(fb, i, got);
      fb.checked[i] = 1;
      blocks++;
      checkedBytes += b - a;
    }
  } finally {
    Atomics.add(fb.counters, 0, BigInt(blocks));
    Atomics.add(fb.counters, 1, BigInt(checkedBytes));
    Atomics.add(fb.counters, 2, BigInt(Math.round((performance.now() - t0) * 1000)));
  }
}

/** The unchecked blocks [first, last] that bytes [a, b) of the file overlap, or undefined when all are checked. */
function unchecked(fb: FileBlocks, a: number, b: number): [number, number] | undefined {
  if (b <= a) return undefined;
  let first = Math.floor(a / fb.blockBytes);
  let last = Math.floor((Math.min(b, fb.size) - 1) / fb.blockBytes);
  while (first <= last && fb.checked[first]) first++;
  while (last >= first && fb.checked[last]) last--;
  return first <= last ? [first, last] : undefined;
}

/** Check a whole file's blocks against its bytes as just read (all of them, unless checked before). */
export function checkWholeFile(fb: FileBlocks | undefined, bytes: Uint8Array): void {
  if (!fb) return;
  if (bytes.byteLength !== fb.size) throw errors.indexCorrupt(fb.file, `expected ${fb.size} bytes, found ${bytes.byteLength}`);
  const r = unchecked(fb, 0, fb.size);
  if (r) checkBlocks(fb, r[0], r[1], bytes, 0);
}

/** Check the blocks bytes [a, b) touch, the file being in memory (`bytes` = the whole file). */
export function checkInMemory(fb: FileBlocks | undefined, bytes: Uint8Array, a: number, b: number): void {
  if (!fb) return;
  const r = unchecked(fb, a, b);
  if (r) checkBlocks(fb, r[0], r[1], bytes, 0);
}

let scratch = new Uint8Array(0);

/**
 * Bytes [a, b) of the file through descriptor `fd` (synchronous: scoring), the blocks they touch
 * checked first. When one of them is unchecked, the whole blocks are read once, checked, and the
 * range is served from them (no second read). `buf[pos…pos + b − a]`; `buf` is a scratch buffer
 * valid until the next call.
 */
export function readCheckedSync(fb: FileBlocks | undefined, fd: number, a: number, b: number): { buf: Uint8Array; pos: number } {
  const r = fb && unchecked(fb, a, b);
  const bb = fb?.blockBytes ?? 1;
  const start = r ? Math.floor(a / bb) * bb : a;
  const end = r ? Math.min(fb!.size, Math.ceil(b / bb) * bb) : b;
  const len = end - start;
  if (scratch.length < len) scratch = new Uint8Array(Math.max(len, scratch.length * 2));
  let off = 0;
  while (off < len) {
    const n = readSync(fd, scratch, off, len - off, start + off);
    if (n === 0) throw errors.indexCorrupt(fb?.file ?? 'index file', `file ended at byte ${start + off}, ${end} expected`);
    off += n;
  }
  if (r) checkBlocks(fb!, r[0], r[1], scratch.subarray(0, len), start);
  return { buf: scratch, pos: a - start };
}

/**
 * Bytes [a, b) of the file through `fh` (the doc store's columns), the blocks they touch checked
 * first; read once, as readCheckedSync. The result may be a view into a larger buffer.
 */
export async function readChecked(fb: FileBlocks | undefined, fh: FileHandle, file: string, a: number, b: number): Promise<Buffer> {
  if (b <= a) return Buffer.alloc(0);
  const r = fb && unchecked(fb, a, b);
  const bb = fb?.blockBytes ?? 1;
  const start = r ? Math.floor(a / bb) * bb : a;
  const end = r ? Math.min(fb!.size, Math.ceil(b / bb) * bb) : b;
  const buf = Buffer.allocUnsafe(end - start);
  let off = 0;
  while (off < buf.length) {
    const { bytesRead } = await fh.read(buf, off, buf.length - off, start + off);
    if (bytesRead === 0) throw errors.indexCorrupt(file, `file ended at byte ${start + off}, ${end} expected`);
    off += bytesRead;
  }
  if (r) checkBlocks(fb!, r[0], r[1], buf, start);
  return start === a && end === b ? buf : buf.subarray(a - start, b - start);
}
