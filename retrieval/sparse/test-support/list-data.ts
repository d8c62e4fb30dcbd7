import type { ScoringData, ScoringView } from '../../../indexer/sparse/scoring-view.js';
import { ByteSink, writePosting } from '../../../indexer/sparse/varint.js';

/** A posting list as the decoder tests write it: doc ids ascending, and their tfs. */
export interface List {
  docs: number[];
  tfs: number[];
}

/** The bytes ByteSink + writePosting write for one list (the postings file's format). */
export function sinkBytes(l: List): Uint8Array {
  const sink = new ByteSink(8);
  let prev = -1;
  l.docs.forEach((d, i) => {
    writePosting(sink, d - prev, l.tfs[i]);
    prev = d;
  });
  return sink.view().slice();
}

/** Scoring data over `n` docs whose postings file is the lists' bytes end to end (only what the decoders read is filled in). */
export function listData(n: number, lists: List[], bytes: Uint8Array[]): ScoringData {
  const offsets = new Float64Array(lists.length + 1);
  bytes.forEach((b, t) => (offsets[t + 1] = offsets[t] + b.length));
  const postings = new Uint8Array(offsets[lists.length]);
  bytes.forEach((b, t) => postings.set(b, offsets[t]));
  return {
    N: n,
    totalTokens: 0,
    avgdl: 1,
    df: Uint32Array.from(lists, (l) => l.docs.length),
    cf: new Float64Array(lists.length),
    offsets,
    postings,
    doclen: new Uint32Array(0),
    byLen: new Uint32Array(0),
  };
}

/** A view of [lo, hi) over synthetic data (scoringView would walk byLen over all N docs; the decoders never read it). */
export const rangeView = (data: ScoringData, lo: number, hi: number): ScoringView => ({ ...data, lo, hi, byLenRange: new Uint32Array(0) });
