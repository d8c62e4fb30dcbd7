// Data for the whole-or-split cost model (retrieval/sparse/whole-or-split.ts): opens INDEX with the
// BUILD's bm25 retriever (k1 0.9 b 0.4) at THREADS query threads (0: the whole range on the calling
// thread; 2: the pool's two halves), scores the scale bench's agent queries (syntheticQueries,
// PROFILE, seed 42, 2 + COUNT) once untimed, then times each of the COUNT queries: CPU
// (process.cpuUsage, every thread of the process) and wall, with its posting count P (Σ df of the
// query's distinct terms over the whole index). Prints one JSON line: the rows and `uptime` before/after.
//   node fit-rows.mjs BUILD INDEX COUNT THREADS PROFILE
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const [build, index, count, threads, profile = 'zipf'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { openSparseIndex } = await load('retrieval/open-sparse.js');
const { queryTerms } = await load('retrieval/sparse/query-terms.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const before = execFileSync('uptime', { encoding: 'utf8' }).trim();
const idx = await openSparseIndex(index);
const r = await openRetriever(index, 'bm25', { threads: Number(threads), k1: 0.9, b: 0.4 });
const qs = syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: 'agent' });
for (const q of qs) await r.search(q, { k: 10 });
const rows = [];
for (const q of qs.slice(2)) {
  const t = queryTerms(idx, q);
  let P = 0;
  for (const id of t.ids) P += idx.df[id];
  const c = process.cpuUsage();
  const w = performance.now();
  await r.search(q, { k: 10 });
  const wall = performance.now() - w;
  const d = process.cpuUsage(c);
  rows.push({ P, terms: t.ids.length, cpu: (d.user + d.system) / 1000, wall });
}
const after = execFileSync('uptime', { encoding: 'utf8' }).trim();
console.log(JSON.stringify({ build, index, N: idx.N, threads: Number(threads), profile, uptimeBefore: before, uptimeAfter: after, rows }));
await r.close?.();
process.exit(0);
