import { pathToFileURL } from 'node:url';
const [build, index, count, profile, threads='0'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const bt = await load('retrieval/sparse/blocked-taat.js');
let t0 = performance.now();
const r = await openRetriever(index, 'bm25', { threads: Number(threads) });
const qs = syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: 'agent' });
for (const q of qs) await r.search(q, { k: 10 });
console.error('open+warm ms', (performance.now()-t0).toFixed(0));
const cpu = [];
const agg = {};
for (let pass=0; pass<2; pass++) for (const q of qs.slice(2)) {
  const c = process.cpuUsage();
  await r.search(q, { k: 10 });
  const d = process.cpuUsage(c); cpu.push((d.user + d.system) / 1000);
  for (const [k,v] of Object.entries(bt.blockedStats)) if (typeof v === 'number') agg[k] = (agg[k]??0)+v;
}
cpu.sort((a,b)=>a-b);
console.log(JSON.stringify({p50: cpu[cpu.length>>1], p95: cpu[Math.ceil(cpu.length*0.95)-1], agg}));
process.exit(0);
