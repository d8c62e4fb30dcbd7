/**
 * Term-at-a-time accumulation into one dense Float64 score array per index, reused across queries;
 * a touched list resets only what a query wrote. BM25 and textbook QLD weights are always > 0, so
 * a zero score means "untouched"; Lucene QLD weights can be 0, so it keeps a separate mark array. Float64 (not Float32) keeps sums of ~100 term
 * weights within 1e-4 of the exact score.
 */
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { decodedPostings, TF_ESCAPE, type PostingList } from './decoded-postings.js';
import { luceneBm25Weight, luceneLmdTf, luceneLmdWeight } from './lucene-scorer.js';

export class Accumulator {
  readonly scores: Float64Array;
  readonly mark: Uint8Array;
  readonly touched: Uint32Array;
  count = 0;

  constructor(n: number) {
    this.scores = new Float64Array(n);
    this.mark = new Uint8Array(n);
    this.touched = new Uint32Array(n);
  }

  reset(): void {
    const { scores, mark, touched } = this;
    for (let i = 0; i < this.count; i++) {
      const d = touched[i];
      scores[d] = 0;
      mark[d] = 0;
    }
    this.count = 0;
  }
}

const accs = new WeakMap<ScoringView, Accumulator>();
/** The accumulator of an index (scoring is synchronous, so one per index is never shared mid-query). */
export function accumulatorFor(index: ScoringView): Accumulator {
  let a = accs.get(index);
  if (!a) accs.set(index, (a = new Accumulator(index.N)));
  a.reset();
  return a;
}

/**
 * Scorer modes of accumulate():
 * Bm25: += p1·tf / (tf + arr[doc]) with p1 = c·idf·(k1+1), arr = k1·(1 − b + b·dl/avgdl).
 * Qld: += p1·ln(1 + tf/p2), textbook QLD's matched part, with p1 = c, p2 = μ·P(t|C).
 * LuceneQld: += p1·max(0, ln(1 + tf/p2) + arr[doc]), Lucene LMDirichlet, with arr = ln(μ/(dl+μ)).
 * LuceneBm25, LuceneLmd: the `lucene` scorer (lucene-scorer.ts): Lucene's float32 weights from the
 *   1-byte norms, with p1 = boost·idf and arr = BM25's norm cache (LuceneBm25), or p1 = c, p2 = μP and
 *   arr = ln(μ/(length + μ)) (LuceneLmd). Modes ≥ LuceneQld mark the docs they touch (a weight can be 0).
 */
export const Mode = { Bm25: 0, Qld: 1, LuceneQld: 2, LuceneBm25: 3, LuceneLmd: 4 } as const;
export type Mode = (typeof Mode)[keyof typeof Mode];

/**
 * Add each posting's weight of `termId` to its document's accumulator. Postings come decoded
 * (decoded-postings.ts), so the loops are plain typed-array walks, one specialised loop per scorer.
 */
export function accumulate(index: ScoringView, acc: Accumulator, termId: number, mode: Mode, p1: number, p2: number, arr: Float64Array | undefined): void {
  accumulateList(decodedPostings(index, termId), acc, mode, p1, p2, arr);
}

/** accumulate() over a list given (explanations add a document's one posting: sparse/doc-score.ts). */
export function accumulateList(list: PostingList, acc: Accumulator, mode: Mode, p1: number, p2: number, arr: Float64Array | undefined): void {
  if (mode === Mode.Bm25) accumulateBm25(list, acc, p1, arr!);
  else if (mode === Mode.Qld) accumulateQld(list, acc, p1, p2);
  else if (mode === Mode.LuceneQld) accumulateLuceneQld(list, acc, p1, p2, arr!);
  else if (mode === Mode.LuceneBm25) accumulateLuceneBm25(list, acc, p1, arr!);
  else accumulateLuceneLmd(list, acc, p1, p2, arr!);
}

/** += Lucene's BM25 float weight (lucene-scorer.ts luceneBm25Weight). */
function accumulateLuceneBm25(list: PostingList, acc: Accumulator, w: number, normInverse: Float64Array): void {
  const { docs, tfs, length } = list;
  const { scores, mark, touched } = acc;
  let count = acc.count;
  for (let i = 0; i < length; i++) {
    const d = docs[i];
    let tf = tfs[i];
    if (tf === TF_ESCAPE) tf = list.bigTf!.get(i)!;
    if (mark[d] === 0) {
      mark[d] = 1;
      touched[count++] = d;
    }
    scores[d] += luceneBm25Weight(w, tf, normInverse[d]);
  }
  acc.count = count;
}

/** += Lucene's LMDirichlet float weight, floored at 0 (lucene-scorer.ts luceneLmdWeight). */
function accumulateLuceneLmd(list: PostingList, acc: Accumulator, c: number, muP: number, ratio: Float64Array): void {
  const { docs, tfs, length } = list;
  const { scores, mark, touched } = acc;
  let count = acc.count;
  const l1 = luceneLmdTf(1, muP);
  for (let i = 0; i < length; i++) {
    const d = docs[i];
    let tf = tfs[i];
    if (tf === TF_ESCAPE) tf = list.bigTf!.get(i)!;
    if (mark[d] === 0) {
      mark[d] = 1;
      touched[count++] = d;
    }
    scores[d] += luceneLmdWeight(c, tf === 1 ? l1 : luceneLmdTf(tf, muP), ratio[d]);
  }
  acc.count = count;
}

/** += p1·tf / (tf + norm[doc]). Weights are > 0, so a zero score marks an untouched doc. */
function accumulateBm25(list: PostingList, acc: Accumulator, p1: number, norm: Float64Array): void {
  const { docs, tfs, length } = list;
  const { scores, touched } = acc;
  let count = acc.count;
  for (let i = 0; i < length; i++) {
    const d = docs[i];
    let tf = tfs[i];
    if (tf === TF_ESCAPE) tf = list.bigTf!.get(i)!;
    const s = scores[d];
    if (s === 0) touched[count++] = d;
    scores[d] = s + (p1 * tf) / (tf + norm[d]);
  }
  acc.count = count;
}

/** += p1·ln(1 + tf/muP). Weights are > 0, so a zero score marks an untouched doc. */
function accumulateQld(list: PostingList, acc: Accumulator, p1: number, muP: number): void {
  const { docs, tfs, length } = list;
  const { scores, touched } = acc;
  let count = acc.count;
  const w1 = p1 * Math.log1p(1 / muP);
  for (let i = 0; i < length; i++) {
    const d = docs[i];
    let tf = tfs[i];
    if (tf === TF_ESCAPE) tf = list.bigTf!.get(i)!;
    const s = scores[d];
    if (s === 0) touched[count++] = d;
    scores[d] = s + (tf === 1 ? w1 : p1 * Math.log1p(tf / muP));
  }
  acc.count = count;
}

/** += p1·max(0, ln(1 + tf/muP) + ratio[doc]). */
function accumulateLuceneQld(list: PostingList, acc: Accumulator, p1: number, muP: number, ratio: Float64Array): void {
  const { docs, tfs, length } = list;
  const { scores, mark, touched } = acc;
  let count = acc.count;
  const l1 = Math.log1p(1 / muP);
  for (let i = 0; i < length; i++) {
    const d = docs[i];
    let tf = tfs[i];
    if (tf === TF_ESCAPE) tf = list.bigTf!.get(i)!;
    if (mark[d] === 0) {
      mark[d] = 1;
      touched[count++] = d;
    }
    const s = (tf === 1 ? l1 : Math.log1p(tf / muP)) + ratio[d];
    if (s > 0) scores[d] += p1 * s;
  }
  acc.count = count;
}
