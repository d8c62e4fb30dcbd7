/**
 * Cache-blocked term-at-a-time scoring for "dense" queries (long queries whose postings touch most
 * documents: a 170-word bar-exam query touches ~97 % of a Zipf corpus). The doc range is cut into
 * blocks of BLOCK_DOCS documents; for each block, every query term's postings inside the block are
 * added (same term order as plain TAAT, so each document gets exactly the same additions in the
 * same order: bitwise-identical scores), then the block's documents are scanned densely for top-k
 * selection and their accumulators cleared. The score, norm and length arrays of one block
 * (16K docs × 8 bytes each) stay in L2 cache, instead of every posting missing the cache on
 * scores[d] and norm[d] of a multi-megabyte array; no touched list is kept (the dense scan over
 * the block replaces it), and textbook QLD's unmatched documents fall out of the same scan.
 */
import { accumulatorFor, Mode } from './accumulator.js';
import { decodedPostings, TF_ESCAPE, type PostingList } from './decoded-postings.js';
import type { MaxScoreInput } from './max-score.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { TopK } from './top-k.js';

export const BLOCK_DOCS = 16384;
const TABLE = 64;

/** A list that stays valid while the others are decoded (short lists share a scratch buffer). */
function stableList(view: ScoringView, id: number): PostingList {
  const l = decodedPostings(view, id);
  if (l.cached) return l;
  return { docs: l.docs.slice(0, l.length), tfs: l.tfs.slice(0, l.length), length: l.length, bigTf: l.bigTf && new Map(l.bigTf), cached: false };
}

export function blockedTopK(view: ScoringView, inp: MaxScoreInput, blockDocs = BLOCK_DOCS): TopK {
  const { mode, plan, k, arr, qld } = inp;
  const acc = accumulatorFor(view);
  const { scores, mark } = acc;
  const T = plan.length;
  const lists = plan.map((t) => stableList(view, t.id));
  const pos = new Int32Array(T);
  // QLD weights by tf (tf < TABLE): exactly the expressions accumulate() evaluates, computed once.
  const tables = plan.map((t) => {
    const a = new Float64Array(TABLE);
    if (mode === Mode.Qld) {
      a[1] = t.p1 * Math.log1p(1 / t.p2);
      for (let tf = 2; tf < TABLE; tf++) a[tf] = t.p1 * Math.log1p(tf / t.p2);
    } else if (mode === Mode.LuceneQld) for (let tf = 1; tf < TABLE; tf++) a[tf] = Math.log1p(tf / t.p2);
    return a;
  });
  const top = new TopK(k);
  let thr = -Infinity;
  for (let b0 = view.lo; b0 < view.hi; b0 += blockDocs) {
    const b1 = Math.min(view.hi, b0 + blockDocs);
    for (let j = 0; j < T; j++) {
      const list = lists[j];
      const { docs, tfs, length } = list;
      const p1 = plan[j].p1;
      const p2 = plan[j].p2;
      let p = pos[j];
      if (mode === Mode.Bm25) {
        const norm = arr!;
        for (; p < length; p++) {
          const d = docs[p];
          if (d >= b1) break;
          let tf = tfs[p];
          if (tf === TF_ESCAPE) tf = list.bigTf!.get(p)!;
          scores[d] = scores[d] + (p1 * tf) / (tf + norm[d]);
        }
      } else if (mode === Mode.Qld) {
        // Same values as accumulate() computes (p1·ln(1 + tf/μP)), looked up for small tf.
        const w = tables[j];
        for (; p < length; p++) {
          const d = docs[p];
          if (d >= b1) break;
          let tf = tfs[p];
          if (tf === TF_ESCAPE) tf = list.bigTf!.get(p)!;
          scores[d] = scores[d] + (tf < TABLE ? w[tf] : p1 * Math.log1p(tf / p2));
        }
      } else {
        const ratio = arr!;
        const l = tables[j];
        for (; p < length; p++) {
          const d = docs[p];
          if (d >= b1) break;
          let tf = tfs[p];
          if (tf === TF_ESCAPE) tf = list.bigTf!.get(p)!;
          mark[d] = 1;
          const s = (tf < TABLE ? l[tf] : Math.log1p(tf / p2)) + ratio[d];
          if (s > 0) scores[d] += p1 * s;
        }
      }
      pos[j] = p;
    }
    // Dense selection over the block, clearing as we go.
    if (qld) {
      const { base, qlen, lnl } = qld;
      for (let d = b0; d < b1; d++) {
        const s = base - qlen * lnl[d] + scores[d];
        scores[d] = 0;
        if (s >= thr) {
          top.push(s, d);
          thr = top.threshold;
        }
      }
    } else if (mode === Mode.LuceneQld) {
      for (let d = b0; d < b1; d++) {
        if (mark[d] === 0) continue;
        const s = scores[d];
        scores[d] = 0;
        mark[d] = 0;
        if (s >= thr) {
          top.push(s, d);
          thr = top.threshold;
        }
      }
    } else {
      for (let d = b0; d < b1; d++) {
        const s = scores[d];
        if (s === 0) continue;
        scores[d] = 0;
        if (s >= thr) {
          top.push(s, d);
          thr = top.threshold;
        }
      }
    }
  }
  return top;
}
