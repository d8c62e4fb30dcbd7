/**
 * What scoring needs from a sparse index, as plain typed arrays (SharedArrayBuffer-backed when
 * loaded by loadSparseIndex, so query workers share them without copying), restricted to the doc
 * range [lo, hi) that one scorer (the main thread, or one query worker) is responsible for.
 */
import type { FileBlocks } from '../block-checksums.js';
import type { BlockBounds } from './block-bounds.js';
export interface ScoringData {
  N: number;
  totalTokens: number;
  avgdl: number;
  df: Uint32Array;
  cf: Float64Array;
  offsets: Float64Array;
  /** The whole postings file, or empty when it is read per list through `postingsFd` (list-bytes.ts). */
  postings: Uint8Array;
  /** Open descriptor of sparse/postings.bin when `postings` is not held in memory. */
  postingsFd?: number;
  postingsFile?: string;
  /** Block checksums of sparse/postings.bin (absent for indexes built without them): list-bytes.ts checks a list's blocks on its first read. */
  postingsBlocks?: FileBlocks;
  doclen: Uint32Array;
  byLen: Uint32Array;
  /** Per term and block the largest tf and smallest doc length (absent for indexes built without them): block-bounds.ts. */
  blockBounds?: BlockBounds;
}

export interface ScoringView extends ScoringData {
  lo: number;
  hi: number;
  /**
   * The docs of [lo, hi) in (length, index) order. Only textbook QLD reads it (its unmatched
   * documents, shortest first), so a range view makes it on first read: a BM25 server's query
   * threads never hold it (4 bytes a doc of their range: 40 MB at 10M passages).
   */
  readonly byLenRange: Uint32Array;
}

/** The docs of [lo, hi) in (length, index) order, from the whole index's order. */
function rangeByLen(byLen: Uint32Array, lo: number, hi: number): Uint32Array {
  const out = new Uint32Array(hi - lo);
  let j = 0;
  for (let i = 0; i < byLen.length; i++) {
    const d = byLen[i];
    if (d >= lo && d < hi) out[j++] = d;
  }
  return out;
}

export function scoringView(data: ScoringData, lo = 0, hi = data.N): ScoringView {
  let byLenRange = lo > 0 || hi < data.N ? undefined : data.byLen;
  const { N, totalTokens, avgdl, df, cf, offsets, postings, postingsFd, postingsFile, postingsBlocks, doclen, byLen, blockBounds } = data;
  return {
    N,
    totalTokens,
    avgdl,
    df,
    cf,
    offsets,
    postings,
    postingsFd,
    postingsFile,
    postingsBlocks,
    doclen,
    byLen,
    blockBounds,
    lo,
    hi,
    get byLenRange() {
      byLenRange ??= rangeByLen(byLen, lo, hi);
      return byLenRange;
    },
  };
}
