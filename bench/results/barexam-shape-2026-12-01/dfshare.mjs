// The scale bench's Bar Exam questions' terms: mean distinct terms, the largest df ÷ N, terms per query above 10 % / 25 % of N.
//   node dfshare.mjs BUILD_WT INDEX [COUNT]
import { pathToFileURL } from 'node:url';
const [build, index, count = '100'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openSparseIndex } = await load('retrieval/open.js');
const { queryTerms } = await load('retrieval/sparse/query-terms.js');
const { scaleQueries } = await load('bench/scale-child.js');
const ix = await openSparseIndex(index);
const N = ix.N ?? ix.manifest?.N ?? ix.docLen?.length;
let mx = 0, terms = 0, over10 = 0, over25 = 0;
const qs = scaleQueries('bench', 'barexam', Number(count) + 2, 42).slice(2);
for (const q of qs) { const ids = queryTerms(ix, q).ids; terms += ids.length; for (const id of ids) { const s = ix.df[id] / N; if (s > mx) mx = s; if (s > 0.1) over10++; if (s > 0.25) over25++; } }
console.log(JSON.stringify({ N, queries: qs.length, meanTerms: terms / qs.length, maxDfShare: mx, termsOver10pct: over10 / qs.length, termsOver25pct: over25 / qs.length }));
process.exit(0);
