// Decode counters per timed Bar Exam question (issue 38; the 2026-12-01 barexam-warm note). Opens INDEX
// with BUILD's bm25 retriever (default threads: the calling thread scores the last doc range, whose
// decode counters `decodeStats` (retrieval/sparse/decoded-postings.ts) this prints; the worker's range
// is its mirror), cache budget CACHE_MIB (0 = the default), then WARM = 'scale' (2 warm-up questions,
// then the COUNT timed ones, as bench/scale-child.ts) or 'all' (every question once untimed first).
// Prints one JSON line: process CPU p50 / first-10 / last-10 means of the timed questions, and per timed
// question the calling thread's cache hits, decodes (misses + uncached), postings and compressed MiB
// decoded, evictions and refusals, also for the first and last 10; RSS; 1-minute load.
//   node counters.mjs BUILD_WT INDEX COUNT scale|all CACHE_MIB
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
const [build, index, count, warm, mib] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { scaleQueries } = await load('bench/scale-child.js');
const { decodeStats } = await load('retrieval/sparse/decoded-postings.js');
const load0 = loadavg()[0];
const t0 = performance.now();
const c0 = process.cpuUsage();
const r = await openRetriever(index, 'bm25', Number(mib) > 0 ? { cacheMib: Number(mib) } : {});
const openS = (performance.now() - t0) / 1000;
const qs = scaleQueries('bench', 'barexam', Number(count) + 2, 42);
const snap = () => ({ ...decodeStats });
const diff = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));
const w0 = snap();
for (const q of warm === 'all' ? qs : qs.slice(0, 2)) await r.search(q, { k: 1000 });
const warmStats = diff(w0, snap());
const dw = process.cpuUsage(c0);
const warmCpuS = (dw.user + dw.system) / 1e6;
const cpu = [];
const per = [];
for (const q of qs.slice(2)) {
  const s = snap();
  const c = process.cpuUsage();
  await r.search(q, { k: 1000 });
  const d = process.cpuUsage(c);
  cpu.push((d.user + d.system) / 1000);
  per.push(diff(s, snap()));
}
const p50 = (a) => [...a].sort((x, y) => x - y)[Math.ceil(a.length / 2) - 1];
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const avg = (rows) => {
  const o = {};
  for (const k of Object.keys(rows[0])) o[k] = mean(rows.map((x) => x[k]));
  o.decodedPostingsM = o.decodedPostings / 1e6;
  o.decodedMiB = o.decodedBytes / 2 ** 20;
  delete o.decodedPostings;
  delete o.decodedBytes;
  for (const k of Object.keys(o)) o[k] = Math.round(o[k] * 100) / 100;
  return o;
};
const n = cpu.length;
console.log(
  JSON.stringify({
    warm,
    cacheMib: Number(mib) || 1024,
    openS: +openS.toFixed(2),
    warmCpuS: +warmCpuS.toFixed(2),
    warmDecodes: warmStats.decodes,
    warmDecodedPostingsM: +(warmStats.decodedPostings / 1e6).toFixed(1),
    warmEvictions: warmStats.evictions,
    cpuP50: +p50(cpu).toFixed(2),
    cpuFirst10: +mean(cpu.slice(0, 10)).toFixed(2),
    cpuLast10: +mean(cpu.slice(-10)).toFixed(2),
    perQuestion: avg(per),
    first10: avg(per.slice(0, 10)),
    last10: avg(per.slice(-10)),
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    timed: n,
    load1: [load0, loadavg()[0]],
  }),
);
await r.close?.();
process.exit(0);
