// How often the BM25 block skip is tried and taken (blockedStats, threads 0), per shape:
//   node skips.mjs BUILD INDEX COUNT PROFILE SHAPE   (shapes as bench/ab/ab-child.mjs)
// Prints the totals over the queries: blocks whose skip was tested (blockedStats.maxTrackedBlocks, a
// counter of max-gate.patch: 0 in a build without it), skipped (unselectedBlocks), pruned.
import { pathToFileURL } from 'node:url';
const [build, index, count, profile = 'zipf', shape = 'agent'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const { blockedStats } = await load('retrieval/sparse/blocked-walk.js');
const k = shape === 'agent' ? 10 : 1000;
const r = await openRetriever(index, 'bm25', { threads: 0 });
const qs =
  shape === 'barexam'
    ? (await load('bench/scale-child.js')).scaleQueries(profile, 'barexam', Number(count) + 2, 42)
    : syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: shape === 'agent' ? 'agent' : 'long' });
const tot = { queries: 0, tracked: 0, skipped: 0, skippedPruned: 0, pruned: 0, queriesWithSkip: 0 };
for (const q of qs.slice(2)) {
  await r.search(q, { k });
  tot.queries++;
  tot.tracked += blockedStats.maxTrackedBlocks ?? 0;
  tot.skipped += blockedStats.unselectedBlocks;
  tot.skippedPruned += blockedStats.unselectedPruned;
  tot.pruned += blockedStats.prunedBlocks;
  if (blockedStats.unselectedBlocks > 0) tot.queriesWithSkip++;
}
console.log(JSON.stringify({ index, shape, profile, k, ...tot }));
await r.close?.();
process.exit(0);
