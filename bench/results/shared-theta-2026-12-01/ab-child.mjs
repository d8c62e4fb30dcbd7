// One arm of ab.mjs (copied from prune-scan-ab-2026-12-01, RSS added): opens INDEX with the BUILD's retriever (bm25, k1 0.9 b 0.4, THREADS query
// threads or the default), scores the scale bench's agent queries (syntheticQueries, PROFILE, seed 42,
// 2 + COUNT) once untimed (every list decoded), then times each of the COUNT queries: CPU
// (process.cpuUsage, every thread of the process) and wall. Prints one JSON line.
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

const [build, index, count, threads, profile = 'zipf'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const opts = threads === 'default' ? {} : { threads: Number(threads) };
const r = await openRetriever(index, 'bm25', opts);
const qs = syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: 'agent' });
for (const q of qs) await r.search(q, { k: 10 });
const cpu = [];
const wall = [];
const h = createHash('sha256');
for (const q of qs.slice(2)) {
  const c = process.cpuUsage();
  const t = performance.now();
  const hits = await r.search(q, { k: 10 });
  wall.push(performance.now() - t);
  const d = process.cpuUsage(c);
  cpu.push((d.user + d.system) / 1000);
  for (const x of hits) h.update(`${x.id}:${x.score}\n`);
}
const pct = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
};
const sum = (a) => a.reduce((x, y) => x + y, 0);
console.log(
  JSON.stringify({
    cpuP50: pct(cpu, 0.5),
    cpuP95: pct(cpu, 0.95),
    cpuMean: sum(cpu) / cpu.length,
    wallP50: pct(wall, 0.5),
    wallP95: pct(wall, 0.95),
    wallMean: sum(wall) / wall.length,
    top10Sha256: h.digest('hex'),
    load1: loadavg()[0],
    rssMiB: process.memoryUsage().rss / 2 ** 20,
  }),
);
await r.close?.();
process.exit(0);
