// One arm of ab.mjs: opens INDEX with the BUILD's retriever (bm25, k1 0.9 b 0.4, THREADS query threads or
// the default), takes the scale bench's queries of SHAPE (syntheticQueries, PROFILE, seed 42,
// 2 + COUNT; 'worst' = the 'long' shape at k 1000 as bench/scale-child.ts runs it, 'agent' at k 10,
// 'barexam' = the scale bench's Bar Exam questions (bench/scale-child.ts scaleQueries, profile bench) at k 1000),
// scores them all once untimed (every list decoded), then times each of the COUNT queries: CPU
// (process.cpuUsage, every thread of the process) and wall. ns/posting = Σ CPU ÷ Σ df of each
// query's distinct terms (bench/scale-child.ts cpuNsPerPosting). Prints one JSON line.
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

const [build, index, count, threads, profile = 'zipf', shape = 'agent', passes = '1'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever, openSparseIndex } = await load('retrieval/open.js');
const { queryTerms } = await load('retrieval/sparse/query-terms.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const opts = threads === 'default' ? {} : { threads: Number(threads) };
const k = shape === 'agent' ? 10 : 1000;
if (shape === 'barexam' && profile !== 'bench') throw new Error(`shape barexam is the bench profile's (got ${profile})`);
const r = await openRetriever(index, 'bm25', opts);
const qs =
  shape === 'barexam'
    ? (await load('bench/scale-child.js')).scaleQueries(profile, 'barexam', Number(count) + 2, 42)
    : syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: shape === 'agent' ? 'agent' : 'long' });
for (const q of qs) await r.search(q, { k });
const cpu = [];
const wall = [];
const h = createHash('sha256');
for (let pass = 0; pass < Number(passes); pass++)
  for (const q of qs.slice(2)) {
    const c = process.cpuUsage();
    const t = performance.now();
    const hits = await r.search(q, { k });
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
    if (pass === 0) for (const x of hits) h.update(`${x.id}:${x.score}\n`);
  }
const index_ = await openSparseIndex(index);
let postings = 0;
for (const q of qs.slice(2)) for (const id of queryTerms(index_, q).ids) postings += index_.df[id];
postings *= Number(passes);
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
    nsPerPosting: (sum(cpu) * 1e6) / postings,
    meanPostings: postings / cpu.length,
    topSha256: h.digest('hex'),
    load1: loadavg()[0],
    rssMiB: process.memoryUsage().rss / 2 ** 20,
  }),
);
await r.close?.();
process.exit(0);
