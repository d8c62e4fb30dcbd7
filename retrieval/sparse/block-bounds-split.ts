/**
 * blockBounds: sparseCandidates' essential split per block from the index's stored block bounds
 * (indexer/sparse/block-bounds.ts, sparse/blockmax.bin) instead of the range-wide bounds, for
 * blocked TAAT (blocked-taat.ts). Opt-in (`blockedPruning.blockBounds`, off; only with
 * sparseCandidates): exact, but those bounds are only ~5 % below the range-wide ones it takes
 * otherwise, and at 856,835 passages it cost the same CPU or 2–6 % more
 * (docs/notes/2026-11-30-build-time-block-bounds.md).
 */
import type { BlockBounds } from '../../indexer/sparse/block-bounds.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import type { MaxScoreInput } from './max-score.js';
import { bm25Norm } from './doc-arrays.js';
import type { Walk } from './blocked-walk.js';
import { tightBm25Bound } from './sparse-candidates.js';

/** Each plan term's tightest range-wide BM25 bound (padded, as pruneBounds takes them). */
export function termBounds(w: Walk, view: ScoringView, inp: MaxScoreInput): Float64Array {
  const key = `${inp.paramKey}:${view.lo}:${view.hi}`;
  return Float64Array.from(w.plan, (t, j) => tightBm25Bound(w.dense[j], w.lists[j], t, inp.arr!, view.lo, view.hi, key));
}

/**
 * The suffix bounds R of the block [b0, b1) into R (returned): per term the smaller of its
 * range-wide bound tb[j] and, where the index stores block bounds for it, p1 × maxTf / (maxTf +
 * norm(minDl)) over the stored blocks [b0, b1) overlaps (0 where the term has no posting there;
 * maxTf 255 = unbounded tf: p1). norm(minDl) is the norm expression of doc-arrays.ts at the
 * smallest length, never above a holder's norm (rounding is monotone), so no weight added in the
 * block exceeds it; padded as pruneBounds pads.
 */
export function blockR(
  w: Walk,
  bb: BlockBounds,
  tb: Float64Array,
  p: { k1: number; b: number },
  avgdl: number,
  b0: number,
  b1: number,
  R: Float64Array,
): Float64Array {
  const { T, plan } = w;
  const B = bb.blocks;
  const s = Math.floor(b0 / bb.blockDocs);
  const e = Math.floor((b1 - 1) / bb.blockDocs);
  R[T] = 0;
  for (let j = T - 1; j >= 0; j--) {
    let v = tb[j];
    const r = bb.row[plan[j].id];
    if (r >= 0) {
      let tf = 0;
      let dl = 0xffff;
      for (let q = r * B + s, qe = r * B + e; q <= qe; q++) {
        if (bb.maxTf[q] > tf) tf = bb.maxTf[q];
        if (bb.minDl[q] < dl) dl = bb.minDl[q];
      }
      const x = tf === 0 ? 0 : tf === 255 ? 1 : tf / (tf + bm25Norm(p.k1, p.b, dl, avgdl));
      const u = plan[j].p1 * x * (1 + 1e-12);
      if (u < v) v = u;
    }
    R[j] = R[j + 1] + v;
  }
  const eps = 1e-9 * (R[0] + 1);
  for (let j = 0; j <= T; j++) R[j] += eps;
  return R;
}
