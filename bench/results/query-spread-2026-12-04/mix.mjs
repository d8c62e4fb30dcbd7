// docs/notes/2026-12-04-query-process-spread.md: agent passes after the worst shape (the scale bench's order), with this
// thread's decodes / evictions / hits per pass. node bench/results/query-spread-2026-12-04/mix.mjs INDEX PROFILE worstFirst(0|1) threads(0|default)
import { loadavg } from 'node:os';
const [index, profile, worstFirst, threads] = process.argv.slice(2);
const load = (p) => import(new URL(`../../../dist/${p}`, import.meta.url).href);
const { openRetriever } = await load('retrieval/open.js');
const { scaleQueries } = await load('bench/scale-child.js');
const { decodeStats } = await load('retrieval/sparse/decoded-postings.js');
const opts = threads === 'default' ? {} : { threads: Number(threads) };
const r = await openRetriever(index, 'bm25', opts);
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
async function pass(qs, k) {
  const ms = [], cpu = [];
  const d0 = { ...decodeStats };
  for (const q of qs) { const c = process.cpuUsage(); const t = performance.now(); await r.search(q, { k }); ms.push(performance.now() - t); const d = process.cpuUsage(c); cpu.push((d.user + d.system) / 1000); }
  return { p50: +pct(ms, .5).toFixed(2), p95: +pct(ms, .95).toFixed(2), cpu50: +pct(cpu, .5).toFixed(2), decodes: decodeStats.decodes - d0.decodes, evictions: decodeStats.evictions - d0.evictions, refused: decodeStats.refused - d0.refused, hits: decodeStats.hits - d0.hits };
}
const out = { worstFirst, threads, load0: loadavg()[0] };
if (worstFirst === '1') {
  const w = scaleQueries(profile, 'worst', 102, 42);
  for (const q of w.slice(0, 2)) await r.search(q, { k: 1000 });
  out.worst = await pass(w.slice(2), 1000);
  
}
const a = scaleQueries(profile, 'agent', 102, 42);
for (const q of a.slice(0, 2)) await r.search(q, { k: 10 });
out.agentCold = await pass(a.slice(2), 10);
out.agentWarm = await pass(a.slice(2), 10);
out.agentWarm2 = await pass(a.slice(2), 10);
out.agentWarm3 = await pass(a.slice(2), 10);
out.agentWarm4 = await pass(a.slice(2), 10);
out.load1 = loadavg()[0]; out.rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
console.log(JSON.stringify(out));
process.exit(0);
