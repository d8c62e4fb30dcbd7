// Profile driver (docs/notes/2026-12-01-worst-case.md): the calling thread's CPU profile of the timed
// passes only (node:inspector, sampling every 100 µs) written to OUT.cpuprofile.
// Opens INDEX with BUILD's bm25 retriever (THREADS or default), scores COUNT + 2 queries of SHAPE
// twice untimed (lists warm), then PASSES timed passes; prints CPU per query.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';
const [build, index, count, threads, profile = 'zipf', shape = 'worst', passes = '3', out = 'prof.cpuprofile'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const r = await openRetriever(index, 'bm25', threads === 'default' ? {} : { threads: Number(threads) });
const k = shape === 'agent' ? 10 : 1000;
const qs = syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: shape === 'agent' ? 'agent' : 'long' });
for (let i = 0; i < 2; i++) for (const q of qs) await r.search(q, { k });
const s = new Session();
s.connect();
await s.post('Profiler.enable');
await s.post('Profiler.setSamplingInterval', { interval: 100 });
await s.post('Profiler.start');
const c = process.cpuUsage();
const t = performance.now();
for (let i = 0; i < Number(passes); i++) for (const q of qs.slice(2)) await r.search(q, { k });
const d = process.cpuUsage(c);
const { profile: prof } = await s.post('Profiler.stop');
writeFileSync(out, JSON.stringify(prof));
const n = Number(passes) * Number(count);
console.log(JSON.stringify({ cpuMsPerQuery: (d.user + d.system) / 1000 / n, wallMsPerQuery: (performance.now() - t) / n }));
await r.close?.();
process.exit(0);
