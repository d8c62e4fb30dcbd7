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
import { CHUNK_BITS, CHUNK_DOCS, compactPostings, DENSE_ONLY_SHARE, denseTfs, TF8_ESCAPE } from './decoded-postings.js';
import type { MaxScoreInput } from './max-score.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { TopK } from './top-k.js';
import { addDenseBm25, addDenseTables } from './fused-dense.js';

export const BLOCK_DOCS = 16384;
const TABLE = 64;
/**
 * Lists present in at least this share of the range's docs are walked densely (denseTfs), runs of
 * them fused per doc (fused-dense.ts); at this share a list's tf byte per doc is also smaller than
 * its compact postings (3 bytes each), so decoded-postings.ts holds such lists only densely.
 * (0.8 for BM25 before the fused walk; 0.5 and 0.34 measured against it: docs/index-format.md.)
 */
export const DENSE_MIN_SHARE = DENSE_ONLY_SHARE;

/** Lists the last blockedTopK call on this thread walked densely (for tests and profiling). */
export const blockedStats = { denseLists: 0, longestFusedRun: 0 };

export function blockedTopK(view: ScoringView, inp: MaxScoreInput, blockDocs = BLOCK_DOCS): TopK {
  const { mode, plan, k, arr, qld } = inp;
  const acc = accumulatorFor(view);
  const { scores, mark } = acc;
  const T = plan.length;
  // The other lists in compact form (Uint16 doc low bits per 65,536-doc chunk + Uint8 tf,
  // decoded-postings.ts); uncached short lists are fresh objects, so all stay valid together.
  const span = view.hi - view.lo;
  // Lists in most docs: one tf byte per doc, walked densely (decoded-postings.ts denseTfs). For QLD
  // a 256-entry table by tf with table[0] = 0, so absent docs add +0 and scores stay bit-identical
  // to the posting walk. BM25 adds (p1·0)/(0 + norm) = +0 for absent docs, which needs norm > 0
  // for every doc: k1 > 0 and b < 1 (norm ≥ k1·(1 − b)); otherwise it skips absent docs by a test,
  // as Lucene QLD (which marks matched docs) does.
  const branchFree = mode === Mode.Qld || (mode === Mode.Bm25 && inp.bm25Positive === true);
  const dense = plan.map((t) => denseTfs(view, t.id, DENSE_MIN_SHARE));
  const lists = plan.map((t, j) => (dense[j] ? null : compactPostings(view, t.id)));
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
  blockedStats.denseLists = dense.filter(Boolean).length;
  blockedStats.longestFusedRun = 0;
  const denseTables = plan.map((t, j) => {
    if (!dense[j] || mode === Mode.Bm25) return tables[j];
    const a = new Float64Array(256);
    a.set(tables[j]);
    // Exactly the posting walk's expressions for tf ≥ TABLE.
    for (let tf = TABLE; tf < 256; tf++) a[tf] = mode === Mode.Qld ? t.p1 * Math.log1p(tf / t.p2) : Math.log1p(tf / t.p2);
    return a;
  });
  const fusable = branchFree && (mode === Mode.Bm25 || mode === Mode.Qld);
  const p1s = plan.map((t) => t.p1);
  const top = new TopK(k);
  let thr = -Infinity;
  const c0 = view.lo >>> CHUNK_BITS;
  const lo = view.lo;
  for (let b0 = view.lo; b0 < view.hi; b0 += blockDocs) {
    const b1 = Math.min(view.hi, b0 + blockDocs);
    // The block's pieces inside one 65,536-doc chunk each (doc = base + low 16 bits).
    for (let s0 = b0; s0 < b1; ) {
      const chunk = s0 >>> CHUNK_BITS;
      const base = chunk * CHUNK_DOCS;
      const s1 = Math.min(b1, base + CHUNK_DOCS);
      const lim = s1 - base;
      const ci = chunk - c0;
      for (let j = 0; j < T; j++) {
        const tfd = dense[j];
        if (tfd && fusable) {
          // A run of densely walked lists: added per doc in one pass (fused-dense.ts), the same
          // additions in the same order as one pass per list, so bit-identical.
          let e = j + 1;
          while (e < T && dense[e]) e++;
          if (e - j > blockedStats.longestFusedRun) blockedStats.longestFusedRun = e - j;
          if (mode === Mode.Bm25) addDenseBm25(scores, arr!, dense, p1s, j, e, s0, s1, lo);
          else addDenseTables(scores, dense, denseTables, j, e, s0, s1, lo);
          j = e - 1;
          continue;
        }
        if (tfd) {
          const p1 = plan[j].p1;
          if (mode === Mode.Bm25) {
            const norm = arr!;
            if (branchFree)
              for (let d = s0; d < s1; d++) {
                const tf = tfd[d - lo];
                scores[d] = scores[d] + (p1 * tf) / (tf + norm[d]);
              }
            else
              for (let d = s0; d < s1; d++) {
                const tf = tfd[d - lo];
                if (tf !== 0) scores[d] = scores[d] + (p1 * tf) / (tf + norm[d]);
              }
          } else if (mode === Mode.Qld) {
            const w = denseTables[j];
            for (let d = s0; d < s1; d++) scores[d] = scores[d] + w[tfd[d - lo]];
          } else {
            const ratio = arr!;
            const lt = denseTables[j];
            for (let d = s0; d < s1; d++) {
              const tf = tfd[d - lo];
              if (tf === 0) continue;
              mark[d] = 1;
              const s = lt[tf] + ratio[d];
              if (s > 0) scores[d] += p1 * s;
            }
          }
          continue;
        }
        const list = lists[j]!;
        const { low, tfs } = list;
        const end = list.chunkEnd[ci];
        const p1 = plan[j].p1;
        const p2 = plan[j].p2;
        let p = pos[j];
        // Lists without a tf ≥ 255 (nearly all) take loops with no escape test, so tf stays a
        // small integer straight from the Uint8Array (no widening to a Map value in the hot loop).
        const plain = list.bigTf === undefined;
        if (mode === Mode.Bm25) {
          const norm = arr!;
          if (plain)
            for (; p < end; p++) {
              const l = low[p];
              if (l >= lim) break;
              const d = base + l;
              const tf = tfs[p];
              scores[d] = scores[d] + (p1 * tf) / (tf + norm[d]);
            }
          else
            for (; p < end; p++) {
              const l = low[p];
              if (l >= lim) break;
              const d = base + l;
              let tf = tfs[p];
              if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
              scores[d] = scores[d] + (p1 * tf) / (tf + norm[d]);
            }
        } else if (mode === Mode.Qld) {
          // Same values as accumulate() computes (p1·ln(1 + tf/μP)), looked up for small tf.
          const w = tables[j];
          if (plain)
            for (; p < end; p++) {
              const l = low[p];
              if (l >= lim) break;
              const d = base + l;
              const tf = tfs[p];
              scores[d] = scores[d] + (tf < TABLE ? w[tf] : p1 * Math.log1p(tf / p2));
            }
          else
            for (; p < end; p++) {
              const l = low[p];
              if (l >= lim) break;
              const d = base + l;
              let tf = tfs[p];
              if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
              scores[d] = scores[d] + (tf < TABLE ? w[tf] : p1 * Math.log1p(tf / p2));
            }
        } else {
          const ratio = arr!;
          const lt = tables[j];
          for (; p < end; p++) {
            const l = low[p];
            if (l >= lim) break;
            const d = base + l;
            let tf = tfs[p];
            if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
            mark[d] = 1;
            const s = (tf < TABLE ? lt[tf] : Math.log1p(tf / p2)) + ratio[d];
            if (s > 0) scores[d] += p1 * s;
          }
        }
        pos[j] = p;
      }
      s0 = s1;
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
