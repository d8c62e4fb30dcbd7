// blockedPruning[FLAG] (compactCandidates by default) off / on alternated per round in one process of the new build (threads 0): CPU per query and blockedStats.
import { pathToFileURL } from 'node:url';
const [build, index, count, profile, rounds = '2', flag = 'compactCandidates'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const bt = await load('retrieval/sparse/blocked-taat.js');
const r = await openRetriever(index, 'bm25', { threads: 0 });
const qs = syntheticQueries({ count: Number(count), seed: 42, profile, shape: 'agent' });
const tops = {};
for (const on of [false, true]) { bt.blockedPruning[flag] = on; tops[on] = []; for (const q of qs) tops[on].push(JSON.stringify(await r.search(q, { k: 10 }))); }
if (tops[false].join() !== tops[true].join()) throw new Error('top-k differ');
for (let round = 0; round < Number(rounds); round++) for (const on of round % 2 ? [true, false] : [false, true]) {
  bt.blockedPruning[flag] = on;
  const cpu = []; let cands = 0, pruned = 0, fb = 0, un = 0;
  for (const q of qs) { const c = process.cpuUsage(); await r.search(q, { k: 10 }); const d = process.cpuUsage(c); cpu.push((d.user + d.system) / 1000); cands += bt.blockedStats.candidates; pruned += bt.blockedStats.prunedBlocks; fb += bt.blockedStats.fallbackBlocks; un += bt.blockedStats.unselectedBlocks; }
  const s = [...cpu].sort((a, b) => a - b);
  console.log(`round ${round} ${flag} ${on ? 'on ' : 'off'}: cpu p50 ${s[s.length >> 1].toFixed(3)} mean ${(cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(3)} | per query: candidates ${(cands / qs.length).toFixed(0)} scanned ${(pruned / qs.length).toFixed(1)} fallbacks ${(fb / qs.length).toFixed(1)} unselected ${(un / qs.length).toFixed(1)}`);
}
process.exit(0);
