// Profiles only the timed pass (after an untimed pass that decodes every list), in-process (threads 0).
import { pathToFileURL } from 'node:url';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const [build, index, count, profile, out, shape='agent'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const bt = await load('retrieval/sparse/blocked-taat.js');
const r = await openRetriever(index, 'bm25', { threads: 0 });
const qs = syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape });
for (const q of qs) await r.search(q, { k: 10 });
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 100 }); await s.post('Profiler.start');
const cpu = []; const agg = {};
for (const q of qs.slice(2)) {
  const c = process.cpuUsage();
  await r.search(q, { k: 10 });
  const d = process.cpuUsage(c); cpu.push((d.user + d.system) / 1000);
  for (const [k,v] of Object.entries(bt.blockedStats)) if (typeof v === 'number') agg[k] = (agg[k]??0)+v;
}
const { profile: p } = await s.post('Profiler.stop');
writeFileSync(out, JSON.stringify(p));
cpu.sort((a,b)=>a-b);
console.log(JSON.stringify({queries: cpu.length, cpuSum: cpu.reduce((a,b)=>a+b,0), p50: cpu[cpu.length>>1], p95: cpu[Math.ceil(cpu.length*0.95)-1], agg}));
process.exit(0);
