// What blocked TAAT did on each of the scale bench's Bar Exam questions (k 1,000, bm25, in-process so that
// blockedStats is this thread's): lists walked densely, kernel lists, pruned / fallback blocks, candidates.
//   node stats.mjs BUILD_WT INDEX [COUNT]  (one JSON line per timed query)
import { pathToFileURL } from 'node:url';
const [build, index, count = '20'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { blockedStats } = await load('retrieval/sparse/blocked-taat.js');
const { scaleQueries } = await load('bench/scale-child.js');
const r = await openRetriever(index, 'bm25', { threads: 0 });
const qs = scaleQueries('bench', 'barexam', Number(count) + 2, 42);
for (const q of qs.slice(2)) {
  await r.search(q, { k: 1000 });
  const { denseLists, kernelLists, residentLists, prunedBlocks, fallbackBlocks, candidates, scanSelects, kernelCandidateRuns } = blockedStats;
  console.log(JSON.stringify({ denseLists, kernelLists, residentLists, prunedBlocks, fallbackBlocks, candidates, scanSelects, kernelCandidateRuns }));
}
process.exit(0);
