// The scale bench's warm-up against ab-child.mjs's: opens INDEX with BUILD's bm25 retriever (default
// threads), then WARM = 'scale' (2 warm-up questions, then the COUNT timed ones, as bench/scale-child.ts
// runs a shape) or 'all' (every question once untimed first, as ab-child.mjs does); prints CPU and wall
// p50 of the COUNT Bar Exam questions (k 1,000).  node warmup.mjs BUILD_WT INDEX COUNT scale|all
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
const [build, index, count, warm] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { scaleQueries } = await load('bench/scale-child.js');
const t0 = performance.now();
const r = await openRetriever(index, 'bm25');
const openS = (performance.now() - t0) / 1000;
const qs = scaleQueries('bench', 'barexam', Number(count) + 2, 42);
for (const q of warm === 'all' ? qs : qs.slice(0, 2)) await r.search(q, { k: 1000 });
const cpu = [];
const wall = [];
for (const q of qs.slice(2)) {
  const c = process.cpuUsage();
  const t = performance.now();
  await r.search(q, { k: 1000 });
  wall.push(performance.now() - t);
  const d = process.cpuUsage(c);
  cpu.push((d.user + d.system) / 1000);
}
const p50 = (a) => [...a].sort((x, y) => x - y)[Math.ceil(a.length / 2) - 1];
console.log(JSON.stringify({ warm, openS, cpuP50: p50(cpu), wallP50: p50(wall), cpuFirst10Mean: cpu.slice(0, 10).reduce((a, b) => a + b) / 10, cpuLast10Mean: cpu.slice(-10).reduce((a, b) => a + b) / 10, load1: loadavg()[0] }));
await r.close?.();
process.exit(0);
