/**
 * Block bounds (issue 38, item 1): per term and block of `blockDocs` docs (aligned to doc 0), the
 * largest tf and the smallest doc length among the block's docs holding the term — the inputs of
 * an upper bound of the term's BM25 weight in the block for any k1/b (tf/(tf + norm) grows with tf
 * and falls with length). Written at build time for the terms with at least `minPostings` postings
 * (shorter lists are walked in full anyway; their range-wide bound is their largest weight), read
 * at open, used by blocked TAAT's sparseCandidates walk (retrieval/sparse/block-bounds-split.ts) when
 * `blockedPruning.blockBounds` is on.
 *
 * `sparse/blockmax.bin`, little-endian, M terms with bounds and B = ceil(N / blockDocs) blocks:
 *   Uint32[M]     the terms' ids, ascending
 *   Uint16[M·B]   per term (row) and block, the smallest doc length of a doc holding the term,
 *                 capped at 65,535 (a cap only lowers it: still a bound); 65,535 where absent
 *   Uint8[M·B]    per term and block, the largest tf, 255 meaning ≥ 255 (no tf bound); 0 where absent
 * `manifest.sparse.blockBounds` = {version: 1, file, blockDocs, minPostings, terms: M, blocks: B}.
 * The file is in `checksums`, `sizes` and blocks.crc32 like every data file. An index without the
 * section (built before it existed) or with a newer `version` opens and scores as before, on
 * range-wide bounds: the section only makes pruning tighter, never changes a score.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from '../../core/errors.js';
import { checkWholeFile, type IndexBlocks } from '../block-checksums.js';
import { HashingFile } from './hashing-file.js';
import { decodePostings } from './varint.js';

export const BLOCK_BOUNDS_FILE = 'sparse/blockmax.bin';
export const BLOCK_BOUNDS_VERSION = 1;
/** The blocked walk's block (retrieval/sparse/blocked-taat.ts BLOCK_DOCS). */
export const BLOCK_BOUNDS_DOCS = 16384;
/**
 * Lists shorter than this get no block bounds: at 856,835 passages (53 blocks) a list of 1,024
 * postings has ~19 per block and costs ~1 µs to walk in full; the bounds of the ~5–10 % of terms
 * above it take 3 bytes per block each (a few hundred KiB).
 */
export const BLOCK_BOUNDS_MIN_POSTINGS = 1024;

export interface BlockBoundsSection {
  version: number;
  file: string;
  blockDocs: number;
  minPostings: number;
  terms: number;
  blocks: number;
}

/** The loaded bounds: row[t] is term t's row (or −1); entry row·blocks + block of minDl / maxTf. */
export interface BlockBounds {
  blockDocs: number;
  blocks: number;
  row: Int32Array;
  minDl: Uint16Array;
  maxTf: Uint8Array;
}

export interface BlockBoundsOptions {
  blockDocs?: number;
  minPostings?: number;
}

/** What the merge needs to derive the bounds as it writes the postings (BlockRows). */
export interface BlockBoundsSpec {
  /** Per doc its length (the build's doclen; a SharedArrayBuffer view when sent to workers). */
  doclen: Uint32Array;
  blockDocs: number;
  minPostings: number;
}

/** Rows of bounds for some of the terms, each term by its index (in a range: from the range's start). */
export interface BlockRowsPart {
  ids: Uint32Array;
  minDl: Uint16Array;
  maxTf: Uint8Array;
}

/** The spec for an index of `doclen.length` docs and `opts` (defaults BLOCK_BOUNDS_DOCS, BLOCK_BOUNDS_MIN_POSTINGS). */
export function blockBoundsSpec(doclen: Uint32Array, opts: BlockBoundsOptions = {}): BlockBoundsSpec {
  return { doclen, blockDocs: opts.blockDocs ?? BLOCK_BOUNDS_DOCS, minPostings: opts.minPostings ?? BLOCK_BOUNDS_MIN_POSTINGS };
}

/** Collects the bounds rows of the terms with ≥ minPostings postings, from their decoded postings, in term order. */
export class BlockRows {
  readonly blocks: number;
  private ids = new Uint32Array(64);
  private minDl: Uint16Array;
  private maxTf: Uint8Array;
  private rows = 0;

  constructor(readonly spec: BlockBoundsSpec) {
    this.blocks = Math.ceil(spec.doclen.length / spec.blockDocs);
    this.minDl = new Uint16Array(64 * this.blocks);
    this.maxTf = new Uint8Array(64 * this.blocks);
  }

  /** Term `id`'s row from its `n` postings (docs ascending); terms with fewer than minPostings get none. */
  add(id: number, docs: Uint32Array, tfs: Uint32Array, n: number): void {
    const { doclen, blockDocs, minPostings } = this.spec;
    if (n < minPostings) return;
    const B = this.blocks;
    if (this.rows === this.ids.length) {
      const ids = new Uint32Array(this.ids.length * 2);
      ids.set(this.ids);
      this.ids = ids;
      const minDl = new Uint16Array(ids.length * B);
      minDl.set(this.minDl);
      this.minDl = minDl;
      const maxTf = new Uint8Array(ids.length * B);
      maxTf.set(this.maxTf);
      this.maxTf = maxTf;
    }
    const at = this.rows * B;
    const minDl = this.minDl;
    const maxTf = this.maxTf;
    minDl.fill(0xffff, at, at + B);
    maxTf.fill(0, at, at + B);
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      const e = at + Math.floor(d / blockDocs);
      const tf = Math.min(255, tfs[i]);
      if (tf > maxTf[e]) maxTf[e] = tf;
      const l = Math.min(0xffff, doclen[d]);
      if (l < minDl[e]) minDl[e] = l;
    }
    this.ids[this.rows++] = id;
  }

  /** The rows collected (views of the storage, not copies: at 10M passages ~90 MB a range; transferable). */
  part(): BlockRowsPart {
    const B = this.blocks;
    return { ids: this.ids.subarray(0, this.rows), minDl: this.minDl.subarray(0, this.rows * B), maxTf: this.maxTf.subarray(0, this.rows * B) };
  }
}

/**
 * Write `sparse/blockmax.bin` from the rows of consecutive term ranges (`parts[i]`'s ids counted from
 * `firsts[i]`), returning the manifest section and the file's sha256.
 */
export function writeBlockRows(dir: string, spec: BlockBoundsSpec, parts: BlockRowsPart[], firsts: number[]): { section: BlockBoundsSection; sha256: string } {
  const B = Math.ceil(spec.doclen.length / spec.blockDocs);
  const M = parts.reduce((a, p) => a + p.ids.length, 0);
  const ids = new Uint32Array(M);
  let r = 0;
  parts.forEach((p, i) => {
    for (let k = 0; k < p.ids.length; k++) ids[r++] = firsts[i] + p.ids[k];
  });
  const f = new HashingFile(join(dir, BLOCK_BOUNDS_FILE), 1 << 22);
  f.writeTyped(ids);
  for (const p of parts) f.writeTyped(p.minDl);
  for (const p of parts) f.writeTyped(p.maxTf);
  const sha256 = f.close();
  return {
    section: { version: BLOCK_BOUNDS_VERSION, file: BLOCK_BOUNDS_FILE, blockDocs: spec.blockDocs, minPostings: spec.minPostings, terms: M, blocks: B },
    sha256,
  };
}

/**
 * Derive and write the bounds from an index's postings on disk, returning the manifest section and
 * the file's sha256. Reads each long list once, by offset. (A build derives them in the merge,
 * from the postings it has decoded anyway: merge-segments.ts; this is the same rows from the file.)
 */
export function writeBlockBounds(
  dir: string,
  postingsRel: string,
  df: Uint32Array,
  offsets: Float64Array,
  doclen: Uint32Array,
  opts: BlockBoundsOptions = {},
): { section: BlockBoundsSection; sha256: string } {
  const spec = blockBoundsSpec(doclen, opts);
  const rows = new BlockRows(spec);
  let docs = new Uint32Array(0);
  let tfs = new Uint32Array(0);
  let buf = new Uint8Array(0);
  const fd = openSync(join(dir, postingsRel), 'r');
  try {
    for (let t = 0; t < df.length; t++) {
      const n = df[t];
      if (n < spec.minPostings) continue;
      const bytes = offsets[t + 1] - offsets[t];
      if (buf.length < bytes) buf = new Uint8Array(Math.max(bytes, buf.length * 2));
      for (let got = 0; got < bytes; ) {
        const k = readSync(fd, buf, got, bytes - got, offsets[t] + got);
        if (k === 0) throw errors.indexCorrupt(join(dir, postingsRel), `file ends inside term ${t}'s postings`);
        got += k;
      }
      if (docs.length < n) {
        docs = new Uint32Array(Math.max(n, docs.length * 2));
        tfs = new Uint32Array(docs.length);
      }
      decodePostings(buf, 0, n, docs, tfs);
      rows.add(t, docs, tfs, n);
    }
  } finally {
    closeSync(fd);
  }
  return writeBlockRows(dir, spec, [rows.part()], [0]);
}

/** The file's expected size for a section. */
const fileBytes = (s: BlockBoundsSection) => s.terms * 4 + s.terms * s.blocks * 3;

/**
 * The bounds of an opened index, or undefined when its manifest has none (older builds) or a newer
 * version (read as before, on range-wide bounds). A malformed section or file is INDEX_CORRUPT.
 */
export function loadBlockBounds(dir: string, raw: unknown, V: number, N: number, blocks: IndexBlocks | undefined): BlockBounds | undefined {
  if (raw === undefined) return undefined;
  const where = join(dir, 'manifest.json');
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw errors.indexCorrupt(where, 'field "sparse.blockBounds": expected an object');
  const s = raw as BlockBoundsSection;
  if (!Number.isInteger(s.version))
    throw errors.indexCorrupt(where, `field "sparse.blockBounds.version": expected an integer, got ${JSON.stringify(s.version)}`);
  if (s.version > BLOCK_BOUNDS_VERSION) return undefined;
  for (const k of ['blockDocs', 'minPostings', 'terms', 'blocks'] as const)
    if (!Number.isInteger(s[k]) || s[k] < (k === 'blockDocs' ? 1 : 0))
      throw errors.indexCorrupt(where, `field "sparse.blockBounds.${k}": expected an integer ≥ ${k === 'blockDocs' ? 1 : 0}, got ${JSON.stringify(s[k])}`);
  if (s.file !== BLOCK_BOUNDS_FILE)
    throw errors.indexCorrupt(where, `field "sparse.blockBounds.file": expected "${BLOCK_BOUNDS_FILE}", got ${JSON.stringify(s.file)}`);
  if (s.blocks !== Math.ceil(N / s.blockDocs))
    throw errors.indexCorrupt(
      where,
      `field "sparse.blockBounds.blocks": ${s.blocks}, but ${N} documents make ${Math.ceil(N / s.blockDocs)} blocks of ${s.blockDocs}`,
    );
  const file = join(dir, s.file);
  const want = fileBytes(s);
  let bytes: Uint8Array;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    throw errors.indexCorrupt(file, 'sparse index file is missing');
  }
  try {
    const sab = new SharedArrayBuffer(want + 1);
    bytes = new Uint8Array(sab, 0, want + 1);
    let got = 0;
    for (let k; got < want + 1 && (k = readSync(fd, bytes, got, want + 1 - got, got)) > 0; ) got += k;
    if (got !== want) throw errors.indexCorrupt(file, `expected ${want} bytes, found ${got > want ? 'more' : got}`);
    bytes = new Uint8Array(sab, 0, want);
  } finally {
    closeSync(fd);
  }
  checkWholeFile(blocks?.of(s.file), bytes);
  const M = s.terms;
  const ids = new Uint32Array(bytes.buffer, 0, M);
  const row = new Int32Array(new SharedArrayBuffer(V * 4)).fill(-1);
  for (let r = 0; r < M; r++) {
    const t = ids[r];
    if (t >= V || (r > 0 && t <= ids[r - 1])) throw errors.indexCorrupt(file, `term id ${t} at entry ${r} is not ascending below ${V}`);
    row[t] = r;
  }
  return {
    blockDocs: s.blockDocs,
    blocks: s.blocks,
    row,
    minDl: new Uint16Array(bytes.buffer, M * 4, M * s.blocks),
    maxTf: new Uint8Array(bytes.buffer, M * 4 + M * s.blocks * 2, M * s.blocks),
  };
}
