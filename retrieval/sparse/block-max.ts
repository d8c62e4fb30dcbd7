/**
 * Exact top-k for small k (agent queries: 8–30 words, k = 5–10) by block-max MaxScore over doc
 * windows (Ding & Suel 2011's block-max bounds, on doc-id-aligned windows as in Mallia et al.'s
 * range-based block-max pruning), for BM25 and textbook QLD.
 *
 * The doc range is cut into windows of 2^WINDOW_BITS docs aligned to multiples of that size (so a
 * window never crosses a 65,536-doc chunk of the compact lists). For each query term and window,
 * a bound of the most the term adds to any doc of the window: BM25 the largest tf/(tf + norm) of
 * the window's postings (per k1, b), QLD the weight of the window's largest tf. A window whose
 * summed bounds (plus, for QLD, the length part of its shortest doc) cannot reach θ — the running
 * k-th best score — is skipped whole. Otherwise the terms of a plan prefix [0, J) are walked over
 * the window (J: the first term whose suffix of bounds leaves an unmatched-so-far doc short of θ),
 * and the terms from J on are added, in plan order, only to the docs whose partial score + the
 * suffix bound still reaches θ (looked up by galloping into the compact lists, by index into the
 * dense tf bytes), dropping docs as the suffix bound shrinks.
 *
 * Exact: every doc that is scored gets exactly the additions, in exactly the order (plan order),
 * that exhaustive scoring gives it — the same IEEE-754 expressions — so scores are bit-identical;
 * a doc left out provably scores below θ ≤ the final k-th best score (bounds are padded against
 * rounding, ties with θ are kept). Textbook QLD ranks unmatched docs too (score base − qlen·ln(dl+μ)):
 * θ starts at the k-th best of those over the k shortest docs (every doc scores at least that), and
 * the unmatched docs that can enter are taken at the end in (length, index) order, as selectAll does.
 *
 * Window bounds are derived from the postings on first use and cached with the list (lists long
 * enough that the table costs at most a byte per posting); shorter lists' bounds are derived per query.
 *
 * Opt-in (strategy 'blockmax'): 'auto' does not use it. In bench/prune-ab.ts it scored fresh agent
 * queries 2–10× slower than blocked TAAT (the first use of a list derives its bounds, a pass as long
 * as the list; the walks here are scalar JavaScript, a division per BM25 posting, where the
 * kernel's are paired WebAssembly): docs/notes/2026-11-26-block-max.md.
 */
import { Mode } from './accumulator.js';
import { modeFacts } from './mode-facts.js';
import { CHUNK_BITS, CHUNK_DOCS, compactPostings, denseTfs, TF8_ESCAPE, type CompactList, type DenseList } from './decoded-postings.js';
import type { MaxScoreInput } from './max-score.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { TopK } from './top-k.js';
import { gallop16 } from './gallop.js';

/** Window size (docs, log2): 2048. Must be ≤ CHUNK_BITS. */
export const WINDOW_BITS = 11;

/** bench/prune-ab.ts times block-max for k up to this (agent queries ask for 5–10). */
export const BLOCK_MAX_MAX_K = 100;

/** What the last blockMaxTopK call on this thread did (tests, profiling). */
export const blockMaxStats = { windows: 0, skippedWindows: 0, essentialPostings: 0, candidates: 0, lookups: 0, tablesBuilt: 0 };

/** tf bytes < TABLE index per-tf weight tables (a compact list's escape byte 255 included). */
const TABLE = 256;

type Table = Float32Array | Uint8Array;
/** Cached window tables, per list object (lists are cached per view) and key (scorer parameters, window size). */
const tableCache = new WeakMap<object, Map<string, Table>>();

/**
 * Per window of the view's range, the largest tf byte of the list there (0: no posting), for QLD
 * (its weight grows with tf alone). Byte 255 stands for any tf ≥ 255 (the caller bounds it by the list's largest).
 */
function windowMaxTf(view: ScoringView, list: CompactList | null, dense: DenseList | null, wb: number, nWin: number): Uint8Array {
  const w0 = view.lo >>> wb;
  const out = new Uint8Array(nWin);
  if (dense) {
    const tfs = dense.tfs;
    for (let d = view.lo; d < view.hi; d++) {
      const tf = tfs[d - view.lo];
      const w = (d >>> wb) - w0;
      if (tf > out[w]) out[w] = tf;
    }
  } else {
    const { low, tfs, chunkEnd, c0 } = list!;
    let p = 0;
    for (let c = 0; c < chunkEnd.length; c++) {
      const base = (c0 + c) * CHUNK_DOCS;
      for (const end = chunkEnd[c]; p < end; p++) {
        const w = ((base + low[p]) >>> wb) - w0;
        if (tfs[p] > out[w]) out[w] = tfs[p];
      }
    }
  }
  return out;
}

/**
 * Per window, the largest tf/(tf + norm[d]) of the list's postings there (0: none), rounded up to
 * float32 with a 1e-6 relative pad (never below a factor actually met), for BM25.
 */
function windowMaxBm25(view: ScoringView, list: CompactList | null, dense: DenseList | null, norm: Float64Array, wb: number, nWin: number): Float32Array {
  const w0 = view.lo >>> wb;
  const best = new Float64Array(nWin);
  if (dense) {
    const tfs = dense.tfs;
    for (let d = view.lo; d < view.hi; d++) {
      const tf = tfs[d - view.lo];
      if (tf === 0) continue;
      const f = tf / (tf + norm[d]);
      const w = (d >>> wb) - w0;
      if (f > best[w]) best[w] = f;
    }
  } else {
    const { low, tfs, chunkEnd, c0, bigTf } = list!;
    let p = 0;
    for (let c = 0; c < chunkEnd.length; c++) {
      const base = (c0 + c) * CHUNK_DOCS;
      for (const end = chunkEnd[c]; p < end; p++) {
        const d = base + low[p];
        let tf = tfs[p];
        if (tf === TF8_ESCAPE) tf = bigTf!.get(p)!;
        const f = tf / (tf + norm[d]);
        const w = (d >>> wb) - w0;
        if (f > best[w]) best[w] = f;
      }
    }
  }
  const out = new Float32Array(nWin);
  for (let w = 0; w < nWin; w++) out[w] = best[w] * (1 + 1e-6);
  return out;
}

/** A list's window table: cached with the list when the list is cached and long enough, else derived now. */
function windowTable(view: ScoringView, list: CompactList | null, dense: DenseList | null, key: string, wb: number, nWin: number, make: () => Table): Table {
  const n = dense ? view.hi - view.lo : list!.length;
  const keepIt = (dense !== null || list!.cached) && n >= 4 * nWin;
  if (!keepIt) return make();
  const owner: object = dense ?? list!;
  let m = tableCache.get(owner);
  if (!m) tableCache.set(owner, (m = new Map()));
  let t = m.get(key);
  if (!t) {
    t = make();
    m.set(key, t);
    blockMaxStats.tablesBuilt++;
  }
  return t;
}

const minLnlCache = new WeakMap<Float64Array, Map<string, Float64Array>>();
/** Per window of [lo, hi), the smallest ln(dl + μ) (the window's shortest doc): QLD's best length part there. */
function windowMinLnl(lnl: Float64Array, lo: number, hi: number, wb: number, nWin: number): Float64Array {
  let m = minLnlCache.get(lnl);
  if (!m) minLnlCache.set(lnl, (m = new Map()));
  const key = `${lo}:${hi}:${wb}`;
  let out = m.get(key);
  if (!out) {
    out = new Float64Array(nWin).fill(Infinity);
    const w0 = lo >>> wb;
    for (let d = lo; d < hi; d++) {
      const w = (d >>> wb) - w0;
      if (lnl[d] < out[w]) out[w] = lnl[d];
    }
    m.set(key, out);
  }
  return out;
}

const EMPTY8 = new Uint8Array(0);
const EMPTY16 = new Uint16Array(0);
const EMPTY32 = new Int32Array(0);
const EMPTY64 = new Float64Array(0);
/** Touched-doc count after the last walk below (a second result without allocating). */
let walked = 0;

/**
 * The walks of one window (block-local doc index i = low − xs, postings with low < xe): each adds
 * the weight to acc[i] (the same expression as accumulate()) and records a doc on its first touch.
 * Small functions of typed arrays only, so each stays monomorphic and optimised.
 */
function walkBm25(
  low: Uint16Array,
  tfs: Uint8Array,
  big: Map<number, number> | undefined,
  p: number,
  end: number,
  xs: number,
  xe: number,
  p1: number,
  norm: Float64Array,
  chunkBase: number,
  acc: Float64Array,
  mark: Uint8Array,
  touched: Int32Array,
  nt: number,
): number {
  for (; p < end; p++) {
    const x = low[p];
    if (x >= xe) break;
    const i = x - xs;
    if (mark[i] === 0) {
      mark[i] = 1;
      touched[nt++] = i;
    }
    let tf = tfs[p];
    if (tf === TF8_ESCAPE) tf = big!.get(p)!;
    acc[i] = acc[i] + (p1 * tf) / (tf + norm[chunkBase + x]);
  }
  walked = nt;
  return p;
}

function walkTable(
  low: Uint16Array,
  tfs: Uint8Array,
  big: Map<number, number> | undefined,
  p: number,
  end: number,
  xs: number,
  xe: number,
  tab: Float64Array,
  p1: number,
  p2: number,
  acc: Float64Array,
  mark: Uint8Array,
  touched: Int32Array,
  nt: number,
): number {
  for (; p < end; p++) {
    const x = low[p];
    if (x >= xe) break;
    const i = x - xs;
    if (mark[i] === 0) {
      mark[i] = 1;
      touched[nt++] = i;
    }
    let tf = tfs[p];
    if (tf === TF8_ESCAPE) tf = big!.get(p)!;
    acc[i] = acc[i] + (tf < TABLE ? tab[tf] : p1 * Math.log1p(tf / p2));
  }
  walked = nt;
  return p;
}

function denseBm25(
  tfs: Uint8Array,
  lo: number,
  ws: number,
  we: number,
  p1: number,
  norm: Float64Array,
  acc: Float64Array,
  mark: Uint8Array,
  touched: Int32Array,
  nt: number,
): number {
  for (let d = ws; d < we; d++) {
    const tf = tfs[d - lo];
    if (tf === 0) continue;
    const i = d - ws;
    if (mark[i] === 0) {
      mark[i] = 1;
      touched[nt++] = i;
    }
    acc[i] = acc[i] + (p1 * tf) / (tf + norm[d]);
  }
  return nt;
}

function denseTable(
  tfs: Uint8Array,
  lo: number,
  ws: number,
  we: number,
  tab: Float64Array,
  acc: Float64Array,
  mark: Uint8Array,
  touched: Int32Array,
  nt: number,
): number {
  for (let d = ws; d < we; d++) {
    const tf = tfs[d - lo];
    if (tf === 0) continue;
    const i = d - ws;
    if (mark[i] === 0) {
      mark[i] = 1;
      touched[nt++] = i;
    }
    acc[i] = acc[i] + tab[tf];
  }
  return nt;
}

export function blockMaxTopK(view: ScoringView, inp: MaxScoreInput, windowBits = WINDOW_BITS): TopK {
  const { mode, plan, k, arr, qld } = inp;
  if (!modeFacts(mode).kernel) throw new Error('block-max scoring takes BM25 and textbook QLD only');
  const T = plan.length;
  const wb = windowBits;
  const W = 1 << wb;
  const { lo, hi } = view;
  const w0 = lo >>> wb;
  const nWin = hi > lo ? ((hi - 1) >>> wb) + 1 - w0 : 0;
  const dense = plan.map((t) => denseTfs(view, t.id));
  const lists = plan.map((t, j) => (dense[j] ? null : compactPostings(view, t.id)));
  blockMaxStats.windows = nWin;
  blockMaxStats.skippedWindows = 0;
  blockMaxStats.essentialPostings = 0;
  blockMaxStats.candidates = 0;
  blockMaxStats.lookups = 0;

  // Weights by tf byte (QLD: the expression accumulate() and blocked TAAT evaluate), and bounds by
  // window: BM25 p1 × the window's largest factor; QLD the padded weight of the window's largest tf.
  const tables: Float64Array[] = [];
  const ubTf: Float64Array[] = [];
  const winTf: Uint8Array[] = [];
  const winF: Float32Array[] = [];
  const p1s = new Float64Array(T);
  let globalUb = 0;
  for (let j = 0; j < T; j++) {
    const t = plan[j];
    p1s[j] = t.p1;
    const l = lists[j];
    if (mode === Mode.Qld) {
      const w = new Float64Array(TABLE);
      const top = dense[j] ? dense[j]!.maxTf : Math.min(l!.maxTf, TABLE - 1);
      for (let tf = 1; tf <= top; tf++) w[tf] = t.p1 * Math.log1p(tf / t.p2);
      tables.push(w);
      const u = new Float64Array(TABLE);
      for (let tf = 1; tf <= top; tf++) u[tf] = w[tf] * (1 + 1e-12);
      if (l && l.bigTf) {
        let big = 0;
        for (const v of l.bigTf.values()) if (v > big) big = v;
        u[TF8_ESCAPE] = t.p1 * Math.log1p(big / t.p2) * (1 + 1e-12);
      }
      ubTf.push(u);
      globalUb += u[top];
      winTf.push(windowTable(view, l, dense[j], `qld:${wb}`, wb, nWin, () => windowMaxTf(view, l, dense[j], wb, nWin)) as Uint8Array);
    } else {
      const f = windowTable(view, l, dense[j], `${inp.paramKey}:${wb}`, wb, nWin, () => windowMaxBm25(view, l, dense[j], arr!, wb, nWin)) as Float32Array;
      winF.push(f);
      let m = 0;
      for (let w = 0; w < nWin; w++) if (f[w] > m) m = f[w];
      globalUb += t.p1 * m;
    }
  }
  const minLnl = qld ? windowMinLnl(qld.lnl, lo, hi, wb, nWin) : undefined;
  let mag = 0;
  if (qld) {
    let maxLnl = 0;
    for (let w = 0; w < nWin; w++) if (Math.abs(minLnl![w]) > maxLnl) maxLnl = Math.abs(minLnl![w]);
    const longest = view.byLenRange.length ? Math.abs(qld.lnl[view.byLenRange[view.byLenRange.length - 1]]) : 0;
    mag = Math.abs(qld.base) + qld.qlen * Math.max(maxLnl, longest);
  }
  // Slack for rounding: a bound is only ever used to drop a doc when it is below θ by more than this.
  const eps = 1e-9 * (mag + globalUb + 1);

  const top = new TopK(k);
  // QLD: every doc scores at least base − qlen·lnl[d], so the k-th best of that over the k
  // shortest docs is a lower bound of the final k-th best score.
  const theta0 = qld && view.byLenRange.length >= k ? qld.base - qld.qlen * qld.lnl[view.byLenRange[k - 1]] : -Infinity;

  const acc = new Float64Array(W);
  const mark = new Uint8Array(W);
  const touched = new Int32Array(W);
  const cands = new Int32Array(W);
  const pos = new Int32Array(T);
  const R = new Float64Array(T + 1);
  // Per term, plain typed arrays (taken once: the lists' classes differ, their arrays do not):
  // dense tf bytes, or the compact list's low bits, tf bytes, chunk ends and escape map.
  const dT: Uint8Array[] = [];
  const isDense = new Uint8Array(T);
  const lowA: Uint16Array[] = [];
  const tfA: Uint8Array[] = [];
  const endA: Int32Array[] = [];
  const bigA: (Map<number, number> | undefined)[] = [];
  const p2s = new Float64Array(T);
  for (let j = 0; j < T; j++) {
    const d = dense[j];
    const l = lists[j];
    isDense[j] = d ? 1 : 0;
    dT.push(d ? d.tfs : EMPTY8);
    lowA.push(l ? l.low : EMPTY16);
    tfA.push(l ? l.tfs : EMPTY8);
    endA.push(l ? l.chunkEnd : EMPTY32);
    bigA.push(l ? l.bigTf : undefined);
    p2s[j] = plan[j].p2;
    if (mode === Mode.Bm25) tables.push(EMPTY64);
  }
  const c0 = lo >>> CHUNK_BITS;
  const bm25 = mode === Mode.Bm25 ? 1 : 0;
  const norm = bm25 ? arr! : EMPTY64;
  const lnl = qld ? qld.lnl : EMPTY64;
  const qBase = qld ? qld.base : 0;
  const qLen = qld ? qld.qlen : 0;
  let chunkOf = -1;
  const cStart = new Int32Array(T);
  const cEnd = new Int32Array(T);
  for (let w = 0; w < nWin; w++) {
    const ws = Math.max(lo, (w0 + w) << wb);
    const we = Math.min(hi, (w0 + w + 1) << wb);
    R[T] = 0;
    if (bm25) for (let j = T - 1; j >= 0; j--) R[j] = R[j + 1] + p1s[j] * winF[j][w];
    else for (let j = T - 1; j >= 0; j--) R[j] = R[j + 1] + ubTf[j][winTf[j][w]];
    const off = qld ? qBase - qLen * minLnl![w] : 0;
    let th = top.threshold > theta0 ? top.threshold : theta0;
    // Only matched docs are scored here (QLD's unmatched ones at the end), so a window no term
    // touches has R[0] = 0 and its docs are left to that pass.
    if (R[0] === 0 || off + R[0] + eps < th) {
      blockMaxStats.skippedWindows++;
      continue;
    }
    let J = 1;
    while (J < T && !(off + R[J] + eps < th)) J++;
    const chunk = ws >>> CHUNK_BITS;
    if (chunk !== chunkOf) {
      chunkOf = chunk;
      const ci = chunk - c0;
      for (let j = 0; j < T; j++) {
        if (isDense[j]) continue;
        const e = endA[j];
        cStart[j] = ci > 0 ? e[ci - 1] : 0;
        cEnd[j] = e[ci];
        if (pos[j] < cStart[j]) pos[j] = cStart[j];
      }
    }
    const chunkBase = chunk * CHUNK_DOCS;
    const xs = ws - chunkBase;
    const xe = we - chunkBase;
    // Essential terms [0, J): walked over the window.
    let nt = 0;
    for (let j = 0; j < J; j++) {
      if (isDense[j]) {
        nt = bm25 ? denseBm25(dT[j], lo, ws, we, p1s[j], norm, acc, mark, touched, nt) : denseTable(dT[j], lo, ws, we, tables[j], acc, mark, touched, nt);
        blockMaxStats.essentialPostings += we - ws;
        continue;
      }
      const low = lowA[j];
      const end = cEnd[j];
      const p0 = gallop16(low, pos[j], end, xs);
      const p = bm25
        ? walkBm25(low, tfA[j], bigA[j], p0, end, xs, xe, p1s[j], norm, chunkBase, acc, mark, touched, nt)
        : walkTable(low, tfA[j], bigA[j], p0, end, xs, xe, tables[j], p1s[j], p2s[j], acc, mark, touched, nt);
      nt = walked;
      blockMaxStats.essentialPostings += p - p0;
      pos[j] = p;
    }
    // Candidates: touched docs whose partial score + the bound of the rest reaches θ, in doc order.
    // (Sorted by a scan of the window's marks when there are many: cheaper than a sort.)
    let nc = 0;
    const rest = R[J];
    if (J < T && nt > W >>> 4) {
      for (let i = 0; i < we - ws; i++) {
        if (mark[i] === 0) continue;
        const base = qld ? qBase - qLen * lnl[ws + i] : 0;
        if (!(base + acc[i] + rest + eps < th)) cands[nc++] = i;
      }
    } else {
      for (let t = 0; t < nt; t++) {
        const i = touched[t];
        const base = qld ? qBase - qLen * lnl[ws + i] : 0;
        if (!(base + acc[i] + rest + eps < th)) cands[nc++] = i;
      }
      if (nc > 1 && J < T) cands.subarray(0, nc).sort();
    }
    blockMaxStats.candidates += nc;
    // Each candidate in turn gets the other terms, in plan order (looked up in the dense tf bytes,
    // or by galloping into the compact lists, whose cursors only move forward), until its partial
    // score + the bound of the terms left cannot reach θ; a doc that gets them all is pushed at once
    // (θ rises as the window goes).
    let looked = 0;
    for (let c = 0; c < nc; c++) {
      const i = cands[c];
      const d = ws + i;
      const base = qld ? qBase - qLen * lnl[d] : 0;
      let sc = acc[i];
      let j = J;
      for (; j < T; j++) {
        if (base + sc + R[j] + eps < th) break;
        looked++;
        let tf: number;
        if (isDense[j]) {
          tf = dT[j][d - lo];
          if (tf === 0) continue;
        } else {
          const low = lowA[j];
          const end = cEnd[j];
          const x = xs + i;
          const p = gallop16(low, pos[j], end, x);
          pos[j] = p;
          if (p >= end || low[p] !== x) continue;
          tf = tfA[j][p];
          if (tf === TF8_ESCAPE) tf = bigA[j]!.get(p)!;
        }
        sc = sc + (bm25 ? (p1s[j] * tf) / (tf + norm[d]) : tf < TABLE ? tables[j][tf] : p1s[j] * Math.log1p(tf / p2s[j]));
      }
      if (j < T) continue;
      // The score expression of exhaustive selection.
      const full = qld ? qBase - qLen * lnl[d] + sc : sc;
      if (full >= th) {
        top.push(full, d);
        if (top.threshold > th) th = top.threshold;
      }
    }
    blockMaxStats.lookups += looked;
    for (let t = 0; t < nt; t++) {
      const i = touched[t];
      acc[i] = 0;
      mark[i] = 0;
    }
  }
  if (qld) {
    // Unmatched docs, best (shortest) first. A doc not in the top k whose length part alone reaches
    // the threshold is unmatched: a matched one scores above its length part, so it was scored
    // (never dropped) and pushed, and is still there unless k better docs pushed the threshold above it.
    const order = view.byLenRange;
    const { base, qlen, lnl } = qld;
    for (let j = 0; j < order.length; j++) {
      const d = order[j];
      const s = base - qlen * lnl[d];
      if (s < theta0 || s < top.threshold) break;
      let inTop = false;
      for (let q = 0; q < top.size; q++)
        if (top.docs[q] === d) {
          inTop = true;
          break;
        }
      if (!inTop) top.push(s, d);
    }
  }
  return top;
}
