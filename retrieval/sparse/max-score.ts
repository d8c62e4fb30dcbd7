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
import { CHUNK_BITS, CHUNK_DOCS, compactPostings, denseTfs, TF8_ESCAPE, type CompactList, type DenseList } from './decoded-postings.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { TopK } from './top-k.js';

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
export const scoreStats = { boundMs: 0, walkMs: 0, checkMs: 0, phase2Ms: 0, selectMs: 0, touched: 0, postingsWalked: 0, galloped: 0, candidates: 0, switchedAt: -1, terms: 0, thetaChecks: 0 };

/** One query term's postings over the range: one tf byte per doc (lists in most docs) or compact. */
interface TermLists {
  dense: DenseList | null;
  list: CompactList | null;
}

function termLists(view: ScoringView, id: number): TermLists {
  const dense = denseTfs(view, id);
  return { dense, list: dense ? null : compactPostings(view, id) };
}

/** Largest tf of a list (its tf bytes' maximum, or the largest escaped tf). */
function largestTf(t: TermLists): number {
  if (t.dense) return t.dense.maxTf;
  const l = t.list!;
  let m = l.maxTf;
  if (l.bigTf) for (const v of l.bigTf.values()) if (v > m) m = v;
  return m;
}

const extremes = new WeakMap<Float64Array, Map<string, number>>();
/** Smallest (or largest) entry of a per-doc array over [lo, hi), cached per array. */
function extreme(arr: Float64Array, lo: number, hi: number, max: boolean): number {
  let m = extremes.get(arr);
  if (!m) extremes.set(arr, (m = new Map()));
  const key = `${lo}:${hi}:${max}`;
  let v = m.get(key);
  if (v === undefined) {
    v = max ? -Infinity : Infinity;
    for (let d = lo; d < hi; d++) {
      const x = arr[d];
      if (max ? x > v : x < v) v = x;
    }
    m.set(key, v);
  }
  return v;
}

/**
 * Exact per-list bounds learnt from full walks (walkList): the largest weight factor (BM25:
 * tf/(tf + norm), Lucene QLD: max(0, ln(1 + tf/p2) + ratio)) of a term's postings in the view's
 * range, per scorer parameters. A list walked once keeps its exact bound for every later query;
 * until then the O(1) bound below stands in.
 */
const exactBounds = new WeakMap<ScoringView, Map<string, number>>();
function boundsOf(view: ScoringView): Map<string, number> {
  let m = exactBounds.get(view);
  if (!m) exactBounds.set(view, (m = new Map()));
  return m;
}

/**
 * An upper bound of the weight any posting of the term adds in the range, from its largest tf and
 * the range's most favourable doc length (the smallest BM25 norm, the largest Lucene log ratio):
 * every weight grows with tf and falls with length. O(1) per term (no walk over the list).
 */
function upperBound(t: TermLists, mode: Mode, p1: number, p2: number, arr: Float64Array | undefined, lo: number, hi: number, exact: number | undefined): number {
  if (exact !== undefined) return p1 * exact * (1 + 1e-12);
  const tf = largestTf(t);
  let w: number;
  if (mode === Mode.Bm25) w = tf / (tf + extreme(arr!, lo, hi, false));
  else if (mode === Mode.Qld) w = Math.log1p(tf / p2);
  else w = Math.max(0, Math.log1p(tf / p2) + extreme(arr!, lo, hi, true));
  // Guard against rounding: a bound must never be below a weight actually added.
  return p1 * w * (1 + 1e-12);
}

/**
 * The bound of one plan term over the view's range (blocked-taat.ts prunes with it too): the exact
 * bound a full walk learnt, else the O(1) bound from the list's largest tf.
 */
export function termBound(view: ScoringView, dense: DenseList | null, list: CompactList | null, mode: Mode, t: TermPlan, arr: Float64Array | undefined, paramKey: string): number {
  const exact = mode === Mode.Qld ? undefined : boundsOf(view).get(`${paramKey}:${t.id}`);
  return upperBound({ dense, list }, mode, t.p1, t.p2, arr, view.lo, view.hi, exact);
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
  /** Textbook QLD: score = base − qlen·lnl[d] + sparse part; all docs are ranked. */
  qld?: { base: number; qlen: number; lnl: Float64Array };
  /** Disable pruning (the exhaustive reference path; same operations otherwise). */
  exhaustive?: boolean;
}

const fullScore = (acc: Accumulator, d: number, q: MaxScoreInput['qld']) => (q ? q.base - q.qlen * q.lnl[d] + acc.scores[d] : acc.scores[d]);

/** Exhaustive top-k over every touched doc (plus, for textbook QLD, the best unmatched ones). */
function selectAll(view: ScoringView, acc: Accumulator, k: number, q: MaxScoreInput['qld']): TopK {
  const top = new TopK(k);
  const { scores, touched } = acc;
  if (!q) {
    for (let i = 0; i < acc.count; i++) {
      const d = touched[i];
      const s = scores[d];
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

/** First index p in [from, end) with low[p] ≥ x (end when none); low is ascending there. */
export function gallop16(low: Uint16Array, from: number, end: number, x: number): number {
  if (from >= end || low[from] >= x) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < end && low[hi] < x) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  // low[lo] < x, and hi === end or low[hi] ≥ x
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (low[mid] < x) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Add one posting's weight to `d`, exactly the expression accumulate() evaluates. */
function addWeight(acc: Accumulator, d: number, tf: number, mode: Mode, p1: number, p2: number, w1: number, l1: number, arr: Float64Array | undefined): void {
  const { scores } = acc;
  if (mode === Mode.Bm25) scores[d] = scores[d] + (p1 * tf) / (tf + arr![d]);
  else if (mode === Mode.Qld) scores[d] = scores[d] + (tf === 1 ? w1 : p1 * Math.log1p(tf / p2));
  else {
    const s = (tf === 1 ? l1 : Math.log1p(tf / p2)) + arr![d];
    if (s > 0) scores[d] += p1 * s;
  }
}

/**
 * Walk a whole list of the range into the accumulator, as accumulate() does (same additions in the
 * same order per doc), from the compact or dense form instead of the wide form decoded per query.
 */
function walkList(view: ScoringView, t: TermLists, acc: Accumulator, mode: Mode, p1: number, p2: number, arr: Float64Array | undefined): number {
  const { scores, mark, touched } = acc;
  const w1 = p1 * Math.log1p(1 / p2);
  const l1 = Math.log1p(1 / p2);
  let count = acc.count;
  // Doc and tf of each posting, in doc order, from either form (one tight loop per scorer below).
  let docs: Uint32Array;
  let tfv: Uint16Array | Uint8Array;
  let n = 0;
  if (t.dense) {
    const tfs = t.dense.tfs;
    const span = view.hi - view.lo;
    for (let i = 0; i < span; i++) if (tfs[i] !== 0) n++;
    docs = scratchDocs(n);
    tfv = new Uint8Array(n);
    n = 0;
    for (let i = 0; i < span; i++)
      if (tfs[i] !== 0) {
        docs[n] = view.lo + i;
        tfv[n++] = tfs[i];
      }
  } else {
    const l = t.list!;
    const { low, chunkEnd } = l;
    n = l.length;
    docs = scratchDocs(n);
    let p = 0;
    for (let c = 0; c < chunkEnd.length; c++) {
      const base = (l.c0 + c) * CHUNK_DOCS;
      for (const end = chunkEnd[c]; p < end; p++) docs[p] = base + low[p];
    }
    tfv = l.tfs;
  }
  const big = t.list?.bigTf;
  // The largest weight factor met (BM25 and Lucene QLD; their exact bound for later queries).
  let top = 0;
  if (mode === Mode.Bm25) {
    const norm = arr!;
    let mx = 0;
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      let tf = tfv[i];
      if (tf === TF8_ESCAPE && big) tf = big.get(i)!;
      const s = scores[d];
      if (s === 0) touched[count++] = d;
      const w = (p1 * tf) / (tf + norm[d]);
      scores[d] = s + w;
      if (w > mx) mx = w;
    }
    top = mx / p1;
  } else if (mode === Mode.Qld) {
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      let tf = tfv[i];
      if (tf === TF8_ESCAPE && big) tf = big.get(i)!;
      const s = scores[d];
      if (s === 0) touched[count++] = d;
      scores[d] = s + (tf === 1 ? w1 : p1 * Math.log1p(tf / p2));
    }
  } else {
    const ratio = arr!;
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      let tf = tfv[i];
      if (tf === TF8_ESCAPE && big) tf = big.get(i)!;
      if (mark[d] === 0) {
        mark[d] = 1;
        touched[count++] = d;
      }
      const s = (tf === 1 ? l1 : Math.log1p(tf / p2)) + ratio[d];
      if (s > 0) {
        scores[d] += p1 * s;
        if (s > top) top = s;
      }
    }
  }
  acc.count = count;
  return top;
}

/** This thread's buffer of absolute doc ids for walkList (grown to the longest list walked). */
let docBuf = new Uint32Array(0);
function scratchDocs(n: number): Uint32Array {
  if (docBuf.length < n) docBuf = new Uint32Array(Math.max(n, Math.ceil(docBuf.length * 1.5)));
  return docBuf;
}

/** Add one term's weights to the candidates (sorted by doc), exactly as accumulate() would. */
function addToCandidates(view: ScoringView, t: TermLists, cands: Uint32Array, nc: number, acc: Accumulator, mode: Mode, p1: number, p2: number, arr: Float64Array | undefined): void {
  const w1 = p1 * Math.log1p(1 / p2);
  const l1 = Math.log1p(1 / p2);
  if (t.dense) {
    const tfs = t.dense.tfs;
    const { lo } = view;
    for (let c = 0; c < nc; c++) {
      const d = cands[c];
      const tf = tfs[d - lo];
      if (tf !== 0) addWeight(acc, d, tf, mode, p1, p2, w1, l1, arr);
    }
  } else {
    const l = t.list!;
    const { low, tfs, chunkEnd } = l;
    let p = 0;
    for (let c = 0; c < nc; c++) {
      const d = cands[c];
      const ci = (d >>> CHUNK_BITS) - l.c0;
      const start = ci > 0 ? chunkEnd[ci - 1] : 0;
      const end = chunkEnd[ci];
      if (p < start) p = start;
      if (p >= end) continue;
      const x = d & (CHUNK_DOCS - 1);
      p = gallop16(low, p, end, x);
      if (p >= end || low[p] !== x) continue;
      const tf = tfs[p];
      addWeight(acc, d, tf === TF8_ESCAPE ? l.bigTf!.get(p)! : tf, mode, p1, p2, w1, l1, arr);
      p++;
    }
  }
  scoreStats.galloped += nc;
}

export function maxScoreTopK(view: ScoringView, inp: MaxScoreInput): TopK {
  const { mode, plan, k, arr, qld } = inp;
  const acc = accumulatorFor(view);
  const T = plan.length;
  scoreStats.postingsWalked = 0;
  scoreStats.galloped = 0;
  scoreStats.candidates = 0;
  scoreStats.switchedAt = -1;
  scoreStats.terms = T;
  scoreStats.thetaChecks = 0;

  // Bounds and suffix sums R[j] = Σ_{i ≥ j} ub_i (the pruned path only: the exhaustive reference
  // walks the wide form through accumulate(), as it always did).
  let tp = performance.now();
  const R = new Float64Array(T + 1);
  const restPostings = new Float64Array(T + 1);
  const lists: TermLists[] = inp.exhaustive ? [] : plan.map((t) => termLists(view, t.id));
  const learnt = boundsOf(view);
  const keys = plan.map((t) => `${inp.paramKey}:${t.id}`);
  if (!inp.exhaustive) {
    for (let j = T - 1; j >= 0; j--) {
      const t = plan[j];
      R[j] = R[j + 1] + upperBound(lists[j], mode, t.p1, t.p2, arr, view.lo, view.hi, mode === Mode.Qld ? undefined : learnt.get(keys[j]));
      restPostings[j] = restPostings[j + 1] + t.df;
    }
  }
  scoreStats.boundMs += performance.now() - tp;
  // Best score a doc untouched before term j can reach: offset + R[j].
  let offset = 0;
  if (qld) {
    const order = view.byLenRange;
    offset = order.length ? qld.base - qld.qlen * qld.lnl[order[0]] : 0;
  }
  // Slack for floating-point rounding of sums (scores are exact to ~1e-13 relative): bounds only
  // ever err on the side of keeping a doc.
  const eps = 1e-9 * (Math.abs(offset) + R[0] + 1);
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
        tp = performance.now();
        theta = selectAll(view, acc, k, qld).threshold;
        scoreStats.checkMs += performance.now() - tp;
        if (theta > bound) break;
      }
    }
    const t = plan[j];
    tp = performance.now();
    if (inp.exhaustive) accumulate(view, acc, t.id, mode, t.p1, t.p2, arr);
    else {
      const top = walkList(view, lists[j], acc, mode, t.p1, t.p2, arr);
      if (mode !== Mode.Qld && t.p1 > 0) learnt.set(keys[j], top);
    }
    scoreStats.walkMs += performance.now() - tp;
    scoreStats.postingsWalked += t.df;
  }
  if (j >= T) {
    const t0 = performance.now();
    const r = selectAll(view, acc, k, qld);
    scoreStats.selectMs += performance.now() - t0;
    scoreStats.touched += acc.count;
    return r;
  }

  // Phase 2: candidates only.
  tp = performance.now();
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
    addToCandidates(view, lists[j], cands, nc, acc, mode, t.p1, t.p2, arr);
    // Raise θ over the candidates (they hold every doc that can still make the top k), then drop
    // those that can no longer reach it.
    if (nc > k) {
      const top = new TopK(k);
      for (let c = 0; c < nc; c++) {
        const d = cands[c];
        const s = fullScore(acc, d, qld);
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
    const s = fullScore(acc, d, qld);
    if (s >= top.threshold) top.push(s, d);
  }
  scoreStats.phase2Ms += performance.now() - tp;
  return top;
}
