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
  /** The docs of [lo, hi) in (length, index) order. */
  byLenRange: Uint32Array;
}

export function scoringView(data: ScoringData, lo = 0, hi = data.N): ScoringView {
  let byLenRange = data.byLen;
  if (lo > 0 || hi < data.N) {
    byLenRange = new Uint32Array(hi - lo);
    let j = 0;
    for (let i = 0; i < data.N; i++) {
      const d = data.byLen[i];
      if (d >= lo && d < hi) byLenRange[j++] = d;
    }
  }
  const { N, totalTokens, avgdl, df, cf, offsets, postings, postingsFd, postingsFile, postingsBlocks, doclen, byLen, blockBounds } = data;
  return { N, totalTokens, avgdl, df, cf, offsets, postings, postingsFd, postingsFile, postingsBlocks, doclen, byLen, blockBounds, lo, hi, byLenRange };
}
