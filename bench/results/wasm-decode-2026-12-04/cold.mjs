// One arm of the cold-pass A/B, in a fresh process (cold = the first use of the questions' lists):
// openRetriever(index, 'bm25') with default threads, 2 warm-up + 100 Bar Exam questions (k 1000),
// then 2 warm-up + 100 agent queries (k 10), wall and process CPU (all threads) per query.
// The arms are two builds that differ only in decodeOptions.wasm's default (the query worker reads
// its own copy of the module, so the switch must be the build's): run.sh makes the JavaScript one.
// node cold.mjs BUILD INDEX LABEL
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
const [build, index, label] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { scaleQueries } = await load('bench/scale-child.js');
const { decodeOptions, decodeStats } = await load('retrieval/sparse/decoded-postings.js');
const t0 = performance.now();
const r = await openRetriever(index, 'bm25');
const openS = (performance.now() - t0) / 1000;
const out = { label, wasm: decodeOptions.wasm, openS: +openS.toFixed(1), loadavgStart: loadavg(), shapes: {} };
for (const [shape, k] of [['barexam', 1000], ['agent', 10]]) {
  const qs = scaleQueries('bench', shape, 102, 42);
  for (const q of qs.slice(0, 2)) await r.search(q, { k });
  const s0 = { ...decodeStats };
  const f0 = process.resourceUsage().minorPageFault;
  const ms = [];
  const cpu = [];
  for (const q of qs.slice(2)) {
    const c = process.cpuUsage();
    const t = performance.now();
    await r.search(q, { k });
    ms.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  out.shapes[shape] = { ms, cpu, minorFaults: process.resourceUsage().minorPageFault - f0, callingThreadDecodes: decodeStats.decodes - s0.decodes, callingThreadParsedPostings: decodeStats.decodedPostings - s0.decodedPostings };
}
out.loadavgEnd = loadavg();
out.rssMiB = +(process.memoryUsage.rss() / 2 ** 20).toFixed(0);
console.log(JSON.stringify(out));
process.exit(0);
