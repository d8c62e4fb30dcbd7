// Micro A/B: the lists of Bar Exam questions decoded by the JavaScript and the WebAssembly decoder
// on fresh views of the whole index, its lower and its upper half (the two query threads' ranges),
// arms alternating over rounds (round 0, which reads the list bytes and checks their blocks the
// first time, is not counted). MODE 'cache' (as a cold query decodes them: into the view's kernel
// memory, here a fresh one, so both arms also pay its first-touch page faults) or 'scratch' (the
// decode buffers, reused: the decoding itself, and for wasm the copy out of its memory).
// node micro.mjs BUILD INDEX [questions=20] [rounds=4] [mode=cache]
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
const [build, index, count = '20', rounds = '4', mode = 'cache'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openSparseIndex } = await load('retrieval/open.js');
const { scaleQueries } = await load('bench/scale-child.js');
const { queryTerms } = await load('retrieval/sparse/query-terms.js');
const { scoringView } = await load('indexer/sparse/scoring-view.js');
const { decodeCompact, decodeOptions, decodeStats } = await load('retrieval/sparse/decoded-postings.js');
const idx = await openSparseIndex(index);
const terms = new Set();
for (const q of scaleQueries('bench', 'barexam', Number(count), 42)) for (const t of queryTerms(idx, q).ids) if (idx.df[t] >= 64) terms.add(t);
const ids = [...terms];
const N = idx.N;
const ranges = { whole: [0, N], lower: [0, N >> 1], upper: [N >> 1, N] };
const res = {};
for (let round = 0; round <= Number(rounds); round++)
  for (const [name, [lo, hi]] of Object.entries(ranges))
    for (const arm of round % 2 ? ['wasm', 'js'] : ['js', 'wasm']) {
      decodeOptions.wasm = arm === 'wasm';
      const view = scoringView(idx, lo, hi);
      const p0 = decodeStats.decodedPostings;
      const t0 = process.hrtime.bigint();
      let n = 0;
      for (const t of ids) n += decodeCompact(view, t, mode).length;
      const ns = Number(process.hrtime.bigint() - t0);
      if (round === 0) continue;
      const r = (res[`${name}/${arm}`] ??= { ms: [], nsPerParsed: [], parsed: 0, kept: 0 });
      const parsed = decodeStats.decodedPostings - p0;
      r.ms.push(ns / 1e6);
      r.nsPerParsed.push(ns / parsed);
      r.parsed = parsed;
      r.kept = n;
    }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const out = { mode, lists: ids.length, N, loadavg: loadavg(), arms: {} };
for (const [k, r] of Object.entries(res)) out.arms[k] = { medianMs: +med(r.ms).toFixed(2), medianNsPerParsedPosting: +med(r.nsPerParsed).toFixed(3), parsedPostings: r.parsed, keptPostings: r.kept, ms: r.ms.map((x) => +x.toFixed(2)) };
for (const name of Object.keys(ranges)) out.arms[`${name}/ratio wasm÷js`] = +(out.arms[`${name}/wasm`].medianMs / out.arms[`${name}/js`].medianMs).toFixed(3);
console.log(JSON.stringify(out, null, 1));
process.exit(0);
