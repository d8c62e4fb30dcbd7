/**
 * sparseCandidates: MaxScore without the per-document floor, one strategy of blocked TAAT
 * (blocked-taat.ts). Opt-in (`blockedPruning.sparseCandidates`, off; also taken per query by the
 * gate, sparse-gate.ts, when `blockedPruning.sparseGate` is on); measured in
 * docs/notes/2026-11-30-kernel-maxscore.md (0.66× 'auto''s CPU on the Zipf corpus, 1.5–1.6× on
 * the English-like bench corpus, so 'auto' does not take it).
 *
 * How (BM25, k ≤ PRUNE_MAX_K_BM25): per block, once θ is known, J is the first term whose suffix bound
 * R[J] cannot lift an untouched doc to θ (compact lists included); the essential terms [0, J) are
 * walked in the kernel, each posting also marking its doc in a bitmap of the block
 * (walk.wat bm25MarkLists); the candidates are the marked docs whose partial score + R[J]
 * reaches θ (gatherTouched: no scan over every doc of the block); the terms from J on are added to
 * them in plan order — compact lists by galloping in the kernel (bm25Lookup), dense ones by index —
 * dropping a candidate as soon as its partial + R[j + 1] falls short of θ (keepCandidates). Each doc
 * kept gets the same additions in the same order as the exhaustive walk: bit-identical. A block
 * whose essential terms would include a dense list takes the usual path.
 */
import { CHUNK_BITS, CHUNK_DOCS, TF8_ESCAPE } from './decoded-postings.js';
import type { CompactList, DenseList } from './decoded-postings.js';
import type { TermPlan } from './max-score.js';
import { blockedStats, loadChunk, type Walk } from './blocked-walk.js';

/**
 * One block by sparseCandidates (blockedPruning): per chunk piece, the essential terms [0, J)
 * walked in the kernel marking the docs they touch, the marked docs whose partial + R[J] reaches θ
 * taken as candidates, the terms from J on added to them in plan order (dropping those that fall
 * short of θ), and the survivors written for selection. Returns how many were written (at outOff).
 */
export function sparseBlock(w: Walk, b0: number, b1: number, J: number, R: Float64Array, thr: number, nOff: number): number {
  const { T, sc, kern, dTfs, kIdx, plan, arr, lo, bs, kCands } = w;
  let count = 0;
  for (let s0 = b0; s0 < b1; ) {
    const chunk = s0 >>> CHUNK_BITS;
    const base = chunk * CHUNK_DOCS;
    const s1 = Math.min(b1, base + CHUNK_DOCS);
    const lim = s1 - base;
    const ci = chunk - w.c0;
    if (ci !== w.loadedChunk) loadChunk(w, ci);
    const dOff = base - b0;
    // Essential lists are all compact (J ≤ the first dense list) and in the kernel: kIdx[j] = j.
    if (J > 0) kern.bm25MarkLists(sc.descOff, J, lim, dOff, nOff, sc.scoresOff, sc.bitsOff);
    const i0 = s0 - b0;
    const i1 = s1 - b0;
    let m = kern.gatherTouched(sc.bitsOff, i0 >>> 6, (i1 + 63) >>> 6, sc.scoresOff, R[J], thr, sc.candOff);
    blockedStats.candidates += m;
    for (let j = J; j < T; j++) {
      const tfd = dTfs[j];
      if (tfd) {
        const p1 = plan[j].p1;
        const norm = arr!;
        for (let c = 0; c < m; c++) {
          const i = kCands[c];
          const d = b0 + i;
          const tf = tfd[d - lo];
          // (+0 for an absent doc in the fused walk: skipping it leaves the same bits.)
          if (tf !== 0) bs[i] = bs[i] + (p1 * tf) / (tf + norm[d]);
        }
      } else kern.bm25Lookup(sc.descOff + kIdx[j] * 24, lim, dOff, nOff, sc.scoresOff, sc.candOff, m);
      if (m > 0 && j + 1 < T) m = kern.keepCandidates(sc.candOff, m, sc.scoresOff, R[j + 1], thr);
    }
    count = kern.emitCandidates(sc.candOff, m, sc.scoresOff, thr, sc.outOff, count);
    s0 = s1;
  }
  if (J < T) blockedStats.prunedBlocks++;
  return count;
}

const tightBounds = new WeakMap<object, Map<string, number>>();
/**
 * BM25's tightest bound of a list over [lo, hi) (sparseCandidates): p1 times its largest
 * tf / (tf + norm) over its postings, derived in one pass on first use and cached with the list
 * (per k1/b and range); padded against rounding, never below a weight actually added.
 */
export function tightBm25Bound(
  dense: DenseList | null,
  list: CompactList | null,
  t: TermPlan,
  norm: Float64Array,
  lo: number,
  hi: number,
  key: string,
): number {
  const owner: object = dense ?? list!;
  let m = tightBounds.get(owner);
  if (!m) tightBounds.set(owner, (m = new Map()));
  let v = m.get(key);
  if (v === undefined) {
    v = 0;
    if (dense) {
      const tfs = dense.tfs;
      for (let d = lo; d < hi; d++) {
        const tf = tfs[d - lo];
        if (tf === 0) continue;
        const x = tf / (tf + norm[d]);
        if (x > v) v = x;
      }
    } else {
      const { low, tfs, chunkEnd, c0 } = list!;
      let p = 0;
      for (let ci = 0; ci < chunkEnd.length; ci++) {
        const base = (c0 + ci) * CHUNK_DOCS;
        for (const end = chunkEnd[ci]; p < end; p++) {
          let tf = tfs[p];
          if (tf === TF8_ESCAPE) tf = list!.bigTf!.get(p)!;
          const x = tf / (tf + norm[base + low[p]]);
          if (x > v) v = x;
        }
      }
    }
    m.set(key, v);
  }
  return t.p1 * v * (1 + 1e-12);
}
