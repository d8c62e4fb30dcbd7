// The block skip's whole cost and gain in one process of one build (threads 0, lists warm):
// each query run with blockedPruning.selectByMax on and off, the order alternating query by query,
// CPU per run (process.cpuUsage); top-k checked equal. With a build that has the untracked walk
// (bm25Lists) beside the tracked one (bm25MaxLists), "off" is 849388db's walk exactly.
//   [PERQUERY=1] [PRIME=1] node toggle.mjs BUILD INDEX COUNT PROFILE SHAPE ROUNDS   (PERQUERY: each query's two runs printed)
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
const [build, index, count, profile = 'zipf', shape = 'agent', rounds = '3'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const { blockedPruning } = await load('retrieval/sparse/blocked-taat.js');
const k = shape === 'agent' ? 10 : 1000;
const r = await openRetriever(index, 'bm25', { threads: 0 });
const qs =
  shape === 'barexam'
    ? (await load('bench/scale-child.js')).scaleQueries(profile, 'barexam', Number(count) + 2, 42)
    : syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: shape === 'agent' ? 'agent' : 'long' });
for (const q of qs) await r.search(q, { k });
const run = async (q, on) => {
  blockedPruning.selectByMax = on;
  const c = process.cpuUsage();
  const hits = await r.search(q, { k });
  const d = process.cpuUsage(c);
  return { ms: (d.user + d.system) / 1000, key: hits.map((h) => `${h.id}:${h.score}`).join() };
};
const load0 = loadavg()[0];
for (let round = 0; round < Number(rounds); round++) {
  let on = 0;
  let off = 0;
  const ratios = [];
  for (const [i, q] of qs.slice(2).entries()) {
    const first = (i + round) % 2 === 0;
    // PRIME: the query run once untimed just before its pair (at 10M the decoded-list cache is bounded:
    // a query's first run re-decodes lists the second finds, whichever arm runs first)
    if (process.env.PRIME) await r.search(q, { k });
    const a = await run(q, first);
    const b = await run(q, !first);
    if (a.key !== b.key) throw new Error(`top-k differ on query ${i}`);
    const [x, y] = first ? [a.ms, b.ms] : [b.ms, a.ms];
    on += x;
    off += y;
    ratios.push(x / y);
    if (process.env.PERQUERY) console.log(JSON.stringify({ round, query: i, first: first ? 'on' : 'off', onMs: x, offMs: y }));
  }
  ratios.sort((p, q) => p - q);
  console.log(JSON.stringify({ shape, profile, round, queries: ratios.length, cpuOnMs: on, cpuOffMs: off, onOverOffSum: on / off, onOverOffMedian: ratios[ratios.length >> 1], load1: loadavg()[0] }));
}
console.log(JSON.stringify({ load1Start: load0, load1End: loadavg()[0] }));
await r.close?.();
process.exit(0);
