// Hand-off microbenchmark (docs/notes/2026-12-01-handoff.md): the round trip of a trivial request
// (one term of the smallest df, k 10, bm25 k1 0.9 b 0.4) through BUILD's query pool (2 threads) on INDEX,
// against scoring the same request in-process on the calling thread's range (what the calling
// thread does itself), plus two references without the pool: a bare postMessage echo worker and an
// Atomics.notify / Atomics.wait ping-pong worker. COUNT timed round trips each (after 200 warm-up),
// arms interleaved in blocks of 100. Prints one JSON line (p50/p95/mean µs, CPU µs per op, load).
//   node micro.mjs BUILD INDEX [COUNT]
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';

const [build, index, countArg = '2000'] = process.argv.slice(2);
const COUNT = Number(countArg);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openSparseIndex, closeSparseIndexes } = await load('retrieval/open-sparse.js');
const { createQueryPool } = await load('retrieval/sparse/query-pool.js');
const { scoreTopK } = await load('retrieval/sparse/score-core.js');
const { scoringView } = await load('indexer/sparse/scoring-view.js');
const idx = await openSparseIndex(index);
let term = -1;
for (let t = 0; t < idx.df.length; t++) if (idx.df[t] > 0 && (term < 0 || idx.df[t] < idx.df[term])) term = t;
const req = { ids: [term], counts: [1], k: 10, method: 'bm25', k1: 0.9, b: 0.4 };
const pool = createQueryPool(idx, 2);
const half = scoringView(idx, Math.floor(idx.N / 2), idx.N);
const lowHalf = scoringView(idx, 0, Math.floor(idx.N / 2));
const { prewarmPostings } = await load('retrieval/sparse/decoded-postings.js');
prewarmPostings(lowHalf);
// The pool's own worker module, driven by hand (builds with the message protocol only): its message round trip without the pool's bookkeeping.
const messageWorker = !existsSync(`${build}/dist/retrieval/sparse/worker-slot.js`);
const raw = messageWorker && new Worker(new URL(pathToFileURL(`${build}/dist/retrieval/sparse/query-worker.js`).href));
const plain = { N: idx.N, totalTokens: idx.totalTokens, avgdl: idx.avgdl, df: idx.df, cf: idx.cf, offsets: idx.offsets, postings: idx.postings, postingsFd: idx.postingsFd, postingsFile: idx.postingsFile, postingsBlocks: idx.postingsBlocks, doclen: idx.doclen, byLen: idx.byLen, blockBounds: idx.blockBounds };
if (raw) raw.postMessage({ type: 'init', data: plain, lo: 0, hi: Math.floor(idx.N / 2) });
let rawId = 0;

const echo = new Worker(`const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage({ type: 'result', id: m.id, docs: [], scores: [] }));`, { eval: true });
const sab = new SharedArrayBuffer(8);
const cell = new Int32Array(sab);
const spin = new Worker(`const { workerData } = require('node:worker_threads'); const c = new Int32Array(workerData);
  for (;;) { Atomics.wait(c, 0, 0); if (Atomics.load(c, 0) === 2) break; Atomics.store(c, 0, 0); Atomics.store(c, 1, 1); Atomics.notify(c, 1); }`, { eval: true, workerData: sab });
await new Promise((r) => setTimeout(r, 2000));
let echoId = 0;
const arms = {
  pool: () => pool.score(req),
  local: async () => scoreTopK(half, req),
  localWorkerRange: async () => scoreTopK(lowHalf, req),
  ...(raw ? { rawWorker: () => new Promise((res) => { const id = rawId++; raw.once('message', res); raw.postMessage({ type: 'score', id, req }); }) } : {}),
  postMessageEcho: () => new Promise((res) => { const id = echoId++; echo.once('message', res); echo.postMessage({ type: 'score', id, req }); }),
  atomicsPingPong: async () => {
    Atomics.store(cell, 1, 0);
    Atomics.store(cell, 0, 1);
    Atomics.notify(cell, 0);
    Atomics.wait(cell, 1, 0);
  },
};
const res = Object.fromEntries(Object.keys(arms).map((k) => [k, { wall: [], cpu: [] }]));
for (const f of Object.values(arms)) for (let i = 0; i < 200; i++) await f();
for (let b = 0; b < COUNT / 100; b++) {
  for (const [name, f] of Object.entries(arms)) {
    const c = process.cpuUsage();
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await f();
      res[name].wall.push((performance.now() - t) * 1000);
    }
    const d = process.cpuUsage(c);
    res[name].cpu.push((d.user + d.system) / 100);
  }
}
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const out = { build, index, count: COUNT, term, df: idx.df[term], load1Before: loadavg()[0] };
for (const [name, r] of Object.entries(res)) out[name] = { wallP50: pct(r.wall, 0.5), wallP95: pct(r.wall, 0.95), wallMean: mean(r.wall), cpuPerOpMean: mean(r.cpu) };
out.load1After = loadavg()[0];
console.log(JSON.stringify(out));
Atomics.store(cell, 0, 2); Atomics.notify(cell, 0);
await pool.close(); await echo.terminate(); if (raw) await raw.terminate(); await spin.terminate();
await closeSparseIndexes();
process.exit(0);
