/**
 * Exact term-at-a-time scoring with MaxScore-style pruning (Turtle & Flood 1995), for all three
 * scorers. Terms are processed by decreasing weight-at-tf=1 (a key that does not depend on the doc
 * range, so query workers add the same weights in the same order as the calling thread). Each term
 * has an exact upper bound `ub` (the largest weight any of its postings in the range gets), and
 * R_j = Σ_{i ≥ j} ub_i bounds what the terms not yet processed can still add to any document.
 *
 * Phase 1 (OR): accumulate whole posting lists into the dense accumulator. Before a term, when
 * the postings still to walk clearly outnumber the docs touched so far, compute θ = the current
 * k-th best score (a lower bound of the final k-th best: scores only grow). Once θ > (best score an
 * untouched doc can reach) no new document can enter the top k.
 * Phase 2 (candidates only): keep the touched docs whose score + R can still reach θ, sorted by doc,
 * and add each remaining term's weight to them by galloping through its doc ids instead of walking
 * the list; after each term, R shrinks, θ is recomputed over the candidates and hopeless ones drop.
 *
 * Exact: candidates get exactly the additions, in exactly the order, that exhaustive scoring would
 * give them (bitwise-identical scores), and every doc dropped provably scores below the final k-th
 * best (ties with it are kept). Textbook QLD adds Σ c·ln(μP) − |q|·ln(dl+μ) to the sparse part, so
 * an untouched doc can reach at most base − |q|·ln(minDl+μ) + R.
 */
import { accumulate, accumulatorFor, Mode, type Accumulator } from './accumulator.js';
import { modeFacts } from './mode-facts.js';
import { decodedPostings, TF_ESCAPE, type PostingList } from './decoded-postings.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { TopK } from './top-k.js';
import { luceneBm25Weight, luceneLmdTf, luceneLmdWeight } from './lucene-scorer.js';

export interface TermPlan {
  id: number;
  /** p1, p2 of accumulate(). */
  p1: number;
  p2: number;
  /** Weight at tf = 1 ignoring length: the processing order (descending), range-independent. */
  key: number;
  df: number;
}

/** Work counters of the last scoreTopK call on this thread (for profiling and tests). */
export const scoreStats = { selectMs: 0, touched: 0, postingsWalked: 0, galloped: 0, candidates: 0, switchedAt: -1, terms: 0, thetaChecks: 0 };

/** Largest weight of one posting list in the range (cached per list and parameters). */
function upperBound(list: PostingList, cacheable: boolean, mode: Mode, p1: number, p2: number, arr: Float64Array | undefined, key: string): number {
  // The lucene scorer's weights are not p1 times a tf part (float rounding), so its bound is of the
  // whole weight, cached under p1 too.
  const whole = modeFacts(mode).wholeWeightBound;
  const cacheKey = whole ? `${key}:${p1}` : key;
  const cache = cacheable ? (list.ub ??= new Map()) : undefined;
  const hit = cache?.get(cacheKey);
  if (hit !== undefined) return whole ? hit : p1 * hit;
  const { docs, tfs, length } = list;
  let best = 0;
  for (let i = 0; i < length; i++) {
    let tf = tfs[i];
    if (tf === TF_ESCAPE) tf = list.bigTf!.get(i)!;
    let w: number;
    if (mode === Mode.Bm25) w = tf / (tf + arr![docs[i]]);
    else if (mode === Mode.Qld) w = Math.log1p(tf / p2);
    else if (mode === Mode.LuceneQld) w = Math.max(0, Math.log1p(tf / p2) + arr![docs[i]]);
    else if (mode === Mode.LuceneBm25) w = luceneBm25Weight(p1, tf, arr![docs[i]]);
    else w = luceneLmdWeight(p1, luceneLmdTf(tf, p2), arr![docs[i]]);
    if (w > best) best = w;
  }
  // Guard against rounding: a bound must never be below a weight actually added.
  best = best * (1 + 1e-12);
  cache?.set(cacheKey, best);
  return whole ? best : p1 * best;
}

export interface MaxScoreInput {
  mode: Mode;
  plan: TermPlan[];
  k: number;
  /** Per-doc array of accumulate() (BM25 norms, Lucene log ratios), if any. */
  arr: Float64Array | undefined;
  /** Cache key of the parameters that determine the bounds. */
  paramKey: string;
  /** BM25 with k1 > 0 and b < 1: every doc's norm is > 0 (blocked-taat.ts may add +0 for absent docs). */
  bm25Positive?: boolean;
  /** BM25's k1 and b (blocked-taat.ts: a block's bound from its stored largest tf and smallest length). */
  bm25?: { k1: number; b: number };
  /** Textbook QLD: score = base − qlen·lnl[d] + sparse part; all docs are ranked. */
  qld?: { base: number; qlen: number; lnl: Float64Array };
  /** Disable pruning (the exhaustive reference path; same operations otherwise). */
  exhaustive?: boolean;
}

/** A document's score before any float32 rounding (what pruning bounds are compared with). */
const fullScore = (acc: Accumulator, d: number, q: MaxScoreInput['qld']) => (q ? q.base - q.qlen * q.lnl[d] + acc.scores[d] : acc.scores[d]);

/** Exhaustive top-k over every touched doc (plus, for textbook QLD, the best unmatched ones). */
export function selectAll(view: ScoringView, acc: Accumulator, k: number, q: MaxScoreInput['qld'], f32 = false): TopK {
  const top = new TopK(k);
  const { scores, touched } = acc;
  if (!q) {
    for (let i = 0; i < acc.count; i++) {
      const d = touched[i];
      const s = f32 ? Math.fround(scores[d]) : scores[d];
      if (s >= top.threshold) top.push(s, d);
    }
    return top;
  }
  const { base, qlen, lnl } = q;
  for (let i = 0; i < acc.count; i++) {
    const d = touched[i];
    const s = base - qlen * lnl[d] + scores[d];
    if (s >= top.threshold) top.push(s, d);
  }
  // Unmatched documents: the best are the shortest, in (length, index) order.
  const order = view.byLenRange;
  let taken = 0;
  for (let j = 0; j < order.length && taken < k; j++) {
    const d = order[j];
    if (acc.mark[d] !== 0 || scores[d] !== 0) continue;
    taken++;
    const s = base - qlen * lnl[d];
    if (s < top.threshold) break;
    top.push(s, d);
  }
  return top;
}

/** First index ≥ from with docs[i] ≥ d (length when none). */
function gallop(docs: Uint32Array, length: number, from: number, d: number): number {
  if (from >= length || docs[from] >= d) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < length && docs[hi] < d) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > length) hi = length;
  // docs[lo] < d, and hi === length or docs[hi] ≥ d
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < d) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Add one term's weights to the candidates (sorted by doc), exactly as accumulate() would. */
function addToCandidates(
  list: PostingList,
  cands: Uint32Array,
  nc: number,
  acc: Accumulator,
  mode: Mode,
  p1: number,
  p2: number,
  arr: Float64Array | undefined,
): void {
  const { docs, tfs, length } = list;
  const { scores } = acc;
  const w1 = mode === Mode.Qld ? p1 * Math.log1p(1 / p2) : 0;
  const l1 = mode === Mode.LuceneLmd ? luceneLmdTf(1, p2) : Math.log1p(1 / p2);
  let p = 0;
  for (let c = 0; c < nc && p < length; c++) {
    const d = cands[c];
    p = gallop(docs, length, p, d);
    if (p >= length) break;
    if (docs[p] !== d) continue;
    let tf = tfs[p];
    if (tf === TF_ESCAPE) tf = list.bigTf!.get(p)!;
    if (mode === Mode.Bm25) scores[d] = scores[d] + (p1 * tf) / (tf + arr![d]);
    else if (mode === Mode.Qld) scores[d] = scores[d] + (tf === 1 ? w1 : p1 * Math.log1p(tf / p2));
    else if (mode === Mode.LuceneQld) {
      const s = (tf === 1 ? l1 : Math.log1p(tf / p2)) + arr![d];
      if (s > 0) scores[d] += p1 * s;
    } else if (mode === Mode.LuceneBm25) scores[d] += luceneBm25Weight(p1, tf, arr![d]);
    else scores[d] += luceneLmdWeight(p1, tf === 1 ? l1 : luceneLmdTf(tf, p2), arr![d]);
    p++;
  }
  scoreStats.galloped += nc;
}

export function maxScoreTopK(view: ScoringView, inp: MaxScoreInput): TopK {
  const { mode, plan, k, arr, qld } = inp;
  // A document's score is the float32 of its sum (the lucene scorer); ranks and ties are on that.
  const { f32 } = modeFacts(mode);
  const acc = accumulatorFor(view);
  const T = plan.length;
  scoreStats.postingsWalked = 0;
  scoreStats.galloped = 0;
  scoreStats.candidates = 0;
  scoreStats.switchedAt = -1;
  scoreStats.terms = T;
  scoreStats.thetaChecks = 0;

  // Exact bounds and suffix sums R[j] = Σ_{i ≥ j} ub_i.
  const R = new Float64Array(T + 1);
  const restPostings = new Float64Array(T + 1);
  if (!inp.exhaustive) {
    const ub = new Float64Array(T);
    for (let j = 0; j < T; j++) {
      const t = plan[j];
      const list = decodedPostings(view, t.id);
      ub[j] = upperBound(list, list.cached, mode, t.p1, t.p2, arr, `${inp.paramKey}`);
    }
    for (let j = T - 1; j >= 0; j--) {
      R[j] = R[j + 1] + ub[j];
      restPostings[j] = restPostings[j + 1] + plan[j].df;
    }
  }
  // Best score a doc untouched before term j can reach: offset + R[j].
  let offset = 0;
  if (qld) {
    const order = view.byLenRange;
    offset = order.length ? qld.base - qld.qlen * qld.lnl[order[0]] : 0;
  }
  // Slack for floating-point rounding of sums (scores are exact to ~1e-13 relative): bounds only
  // ever err on the side of keeping a doc.
  // With float32 scores (the lucene scorer) a sum may round up by half a float ulp (≤ 2^-24 relative).
  const eps = (f32 ? 1e-6 : 1e-9) * (Math.abs(offset) + R[0] + 1);
  for (let i = 0; i <= T; i++) R[i] += eps;

  let j = 0;
  let theta = -Infinity;
  let lastTriedBound = Infinity;
  for (; j < T; j++) {
    if (!inp.exhaustive && j > 0) {
      const bound = offset + R[j];
      // Worth a θ check (O(touched)) only when it could save walking many more postings.
      if (restPostings[j] > 4 * (acc.count + k) && bound < lastTriedBound * 0.85 && (qld ? view.hi - view.lo : acc.count) > k) {
        lastTriedBound = bound;
        scoreStats.thetaChecks++;
        theta = selectAll(view, acc, k, qld, f32).threshold;
        if (theta > bound) break;
      }
    }
    const t = plan[j];
    accumulate(view, acc, t.id, mode, t.p1, t.p2, arr);
    scoreStats.postingsWalked += t.df;
  }
  if (j >= T) {
    const t0 = performance.now();
    const r = selectAll(view, acc, k, qld, f32);
    scoreStats.selectMs += performance.now() - t0;
    scoreStats.touched += acc.count;
    return r;
  }

  // Phase 2: candidates only.
  scoreStats.switchedAt = j;
  const { touched } = acc;
  let cands = new Uint32Array(acc.count);
  let nc = 0;
  for (let i = 0; i < acc.count; i++) {
    const d = touched[i];
    if (fullScore(acc, d, qld) + R[j] >= theta) cands[nc++] = d;
  }
  cands = cands.subarray(0, nc).sort();
  scoreStats.candidates = nc;
  for (; j < T; j++) {
    const t = plan[j];
    addToCandidates(decodedPostings(view, t.id), cands, nc, acc, mode, t.p1, t.p2, arr);
    // Raise θ over the candidates (they hold every doc that can still make the top k), then drop
    // those that can no longer reach it.
    if (nc > k) {
      const top = new TopK(k);
      for (let c = 0; c < nc; c++) {
        const d = cands[c];
        const s = f32 ? Math.fround(fullScore(acc, d, qld)) : fullScore(acc, d, qld);
        if (s >= top.threshold) top.push(s, d);
      }
      if (top.threshold > theta) theta = top.threshold;
      const rest = R[j + 1];
      let m = 0;
      for (let c = 0; c < nc; c++) {
        const d = cands[c];
        if (fullScore(acc, d, qld) + rest >= theta) cands[m++] = d;
      }
      nc = m;
    }
  }
  const top = new TopK(k);
  for (let c = 0; c < nc; c++) {
    const d = cands[c];
    const s = f32 ? Math.fround(fullScore(acc, d, qld)) : fullScore(acc, d, qld);
    if (s >= top.threshold) top.push(s, d);
  }
  return top;
}
