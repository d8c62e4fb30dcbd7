// (the first run printed only the unselected count; this copy prints the pruned counts too)
import { pathToFileURL } from 'node:url';
const [build, index, count, profile] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const bt = await load('retrieval/sparse/blocked-taat.js');
const r = await openRetriever(index, 'bm25', { threads: 0 });
const qs = syntheticQueries({ count: Number(count), seed: 42, profile, shape: 'agent' });
for (const q of qs) await r.search(q, { k: 10 });
for (let round = 0; round < 4; round++) for (const on of [true, false]) {
  bt.blockedPruning.selectByMax = on;
  let cpu = 0, wall = 0, un = 0, unp = 0, pr = 0;
  for (const q of qs) { const c = process.cpuUsage(); const t = performance.now(); await r.search(q, { k: 10 }); wall += performance.now() - t; const d = process.cpuUsage(c); cpu += (d.user + d.system) / 1000; un += bt.blockedStats.unselectedBlocks; unp += bt.blockedStats.unselectedPruned; pr += bt.blockedStats.prunedBlocks; }
  console.log(round, on ? 'on ' : 'off', 'cpu mean', (cpu / qs.length).toFixed(3), 'wall mean', (wall / qs.length).toFixed(3), 'unselected/query', (un / qs.length).toFixed(1), 'of them pruned', (unp / qs.length).toFixed(1), 'pruned (scanned)', (pr / qs.length).toFixed(1));
}
process.exit(0);
