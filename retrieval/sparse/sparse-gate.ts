/**
 * sparseGate: a fitted per-query cost model that lets blocked TAAT (blocked-taat.ts) take
 * sparseCandidates (sparse-candidates.ts) for the rest of a query's range when it predicts that
 * cheaper. Opt-in (`blockedPruning.sparseGate`, off); fitted and measured in
 * docs/notes/2026-11-30-kernel-maxscore.md ("The gate"; bench/kernel-maxscore-fit.ts).
 */
import { blockedStats, type Walk } from './blocked-walk.js';

/**
 * `blockedPruning.sparseGate` (off: on held-out agent queries it kept 0.71× 'auto''s CPU p50 on
 * Zipf but cost 1.08–1.10× its p95 on the English-like bench corpus, the note's rule being ≤ 1.05):
 * blocked TAAT takes sparseCandidates for the rest of a query's range when,
 * once the first block has set θ, the cost model below says it is cheaper than the blocked walk
 * (deterministic: from the lists' posting counts, never from timings). Costs in ns, fitted on
 * per-query CPU of both arms on the 856,835-passage Zipf and bench corpora
 * (docs/notes/2026-11-30-kernel-maxscore.md, "The gate"):
 *   sparse ≈ sparsePerDoc·docs + perEssential·E + perLookup·E·L
 *   blocked ≈ autoPerDoc·docs + perWalked·P
 * with docs the range left, E the postings left of the essential lists (terms before J at θ),
 * L the compact lists from J on (each candidate's gallops) and P the postings left of every
 * compact list (what the blocked walk adds).
 */
export const sparseGateModel = { sparsePerDoc: 1.499, perEssential: 0.1061, perLookup: 3.053, autoPerDoc: 1.251, perWalked: 2.864 };

/**
 * sparseGate: whether the docs [b0, hi) left of the range are cheaper by sparseCandidates than by
 * the blocked walk, by sparseGateModel, at θ = thr (J and E only shrink as θ rises, so this is the
 * dearest the sparse side gets). Records its inputs in blockedStats.gate.
 */
export function sparseGate(w: Walk, R: Float64Array, thr: number, b0: number, hi: number): boolean {
  const { T, dense, lists } = w;
  let J = 0;
  while (J < T && R[J] >= thr) J++;
  let firstDense = 0;
  while (firstDense < T && !dense[firstDense]) firstDense++;
  // Postings of a compact list in the range's chunks, prorated to the docs left.
  const frac = (hi - b0) / Math.max(1, hi - w.lo);
  const left = (j: number) => {
    const ce = lists[j]!.chunkEnd;
    return ce.length ? ce[ce.length - 1] * frac : 0;
  };
  let essential = 0;
  let compactPostings = 0;
  let lookupLists = 0;
  for (let j = 0; j < T; j++) {
    if (dense[j]) continue;
    const n = left(j);
    compactPostings += n;
    if (j < J) essential += n;
    else lookupLists++;
  }
  const docs = hi - b0;
  const m = sparseGateModel;
  const taken =
    J <= firstDense &&
    m.sparsePerDoc * docs + m.perEssential * essential + m.perLookup * essential * lookupLists < m.autoPerDoc * docs + m.perWalked * compactPostings;
  const g = blockedStats.gate;
  g.docs = docs;
  g.essential = Math.round(essential);
  g.compactPostings = Math.round(compactPostings);
  g.lookupLists = lookupLists;
  g.J = J;
  g.eligible = J <= firstDense ? 1 : 0;
  g.taken = taken ? 1 : 0;
  return taken;
}
