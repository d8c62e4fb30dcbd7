// Counts (not times) for the shared-θ question (docs/notes/2026-12-01-shared-theta.md): scores the
// scale bench's agent queries (syntheticQueries, PROFILE, seed 42, 2 + COUNT, the first 2 dropped as
// ab-child.mjs drops them; bm25 k1 0.9 b 0.4, k 10) on one thread over the whole doc range and over
// THREADS ranges split as query-pool.ts splits them, each range with its own θ (SHARE=0) or with the
// θ shared across ranges run one after another (SHARE=1: the later range starts from the earlier's θ,
// the most a shared θ could give). Records per query blockedStats (pruned/fallback blocks,
// candidates) and each range's final θ. Prints one JSON line per query and a summary.
//   node counts.mjs BUILD INDEX COUNT [THREADS] [PROFILE] [SHARE: 0 | 1]
import { pathToFileURL } from 'node:url';
const [build, index, count, threads = '2', profile = 'zipf', share = '0'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { loadSparseIndex } = await load('indexer/sparse/sparse-index.js');
const { scoringView } = await load('indexer/sparse/scoring-view.js');
const { scoreTopK, termPlan, mergeRanked } = await load('retrieval/sparse/score-core.js');
const { blockedStats } = await load('retrieval/sparse/blocked-taat.js');
const { queryTerms } = await load('retrieval/sparse/query-terms.js');
const { newSharedTheta } = share === '1' ? await load('retrieval/sparse/shared-theta.js') : {};
const { syntheticQueries } = await load('bench/synthetic.js');
const idx = await loadSparseIndex(index);
const T = Number(threads);
const bound = (t) => Math.floor((idx.N * t) / T);
const parts = Array.from({ length: T }, (_, t) => scoringView(idx, bound(t), bound(t + 1)));
const qs = syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: 'agent' }).slice(2);
const stat = () => ({ pruned: blockedStats.prunedBlocks, fallback: blockedStats.fallbackBlocks, cands: blockedStats.candidates, walked: blockedStats.walkedTerms ?? 0, raises: blockedStats.sharedRaises ?? 0 });
const rows = [];
for (const q of qs) {
  const qt = queryTerms(idx, q);
  const req = { method: 'bm25', k1: 0.9, b: 0.4, ids: qt.ids, counts: qt.counts, k: 10 };
  if (!req.ids.length) continue;
  let postings = 0;
  for (const t of termPlan(idx.view, req)) postings += t.df;
  const whole = scoreTopK(idx.view, req);
  const w = { ...stat(), theta: whole.scores[whole.scores.length - 1] };
  const sreq = share === '1' ? { ...req, theta: newSharedTheta() } : req;
  const got = [];
  const halves = parts.map((v) => {
    const r = scoreTopK(v, sreq);
    got.push(r);
    return { ...stat(), theta: r.scores[r.scores.length - 1] };
  });
  const merged = mergeRanked(got, 10);
  if (JSON.stringify(merged) !== JSON.stringify(whole)) throw new Error(`split top-10 differs from whole: ${q}`);
  rows.push({ terms: req.ids.length, density: postings / idx.N, whole: w, halves });
  console.log(JSON.stringify(rows.at(-1)));
}
const sum = (f) => rows.reduce((s, r) => s + f(r), 0);
const blocked = rows.filter((r) => r.density >= 0.01);
const out = {
  queries: rows.length,
  blockedQueries: blocked.length,
  wholeCands: sum((r) => r.whole.cands),
  splitCands: sum((r) => r.halves.reduce((s, h) => s + h.cands, 0)),
  wholePruned: sum((r) => r.whole.pruned),
  splitPruned: sum((r) => r.halves.reduce((s, h) => s + h.pruned, 0)),
  wholeWalked: sum((r) => r.whole.walked),
  splitWalked: sum((r) => r.halves.reduce((s, h) => s + h.walked, 0)),
  splitWalkedByRange: parts.map((_, t) => sum((r) => r.halves[t].walked)),
  splitCandsByRange: parts.map((_, t) => sum((r) => r.halves[t].cands)),
  sharedRaises: sum((r) => r.halves.reduce((s, h) => s + h.raises, 0)),
  wholeFallback: sum((r) => r.whole.fallback),
  splitFallback: sum((r) => r.halves.reduce((s, h) => s + h.fallback, 0)),
  // each range's final θ ÷ the whole's (mean over queries)
  thetaRatio: parts.map((_, t) => sum((r) => r.halves[t].theta / r.whole.theta) / rows.length),
};
console.log(JSON.stringify({ summary: out }));
process.exit(0);
