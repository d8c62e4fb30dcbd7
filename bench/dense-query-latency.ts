/**
 * Dense query latency end to end (query embedding + exact in-memory search) on the Bar Exam QA val
 * queries (facts + question, as `eval retrieval` sends them) against a built index with a dense
 * method (default: the demo index, .lexcase/demo/index — `npm run demo` builds it):
 *
 *   node dist/bench/dense-query-latency.js [indexDir] [--k 10] [--warmup 20] [--engine direct|tfjs|both]
 *
 * Prints p50/p95/min over every val query for the whole `search`, and separately for the query
 * embedding and for the search (the three timed back to back per query), the process CPU time per
 * whole `search`, plus `uptime` (the machine load the figures were taken under). `--engine` picks
 * the use-lite engine (default: the index's, i.e. direct); `both` runs tfjs then direct back to back.
 */
import { execSync } from 'node:child_process';
import { loadQuestions } from '../corpora/registry.js';
import { retrievalQuery } from '../corpora/barexam.js';
import { openDenseRetriever, type DenseRetriever } from '../retrieval/dense.js';
import type { EmbedderSpec } from '../indexer/embed/types.js';
import { gemmVariant } from '../indexer/embed/kernel/gemm.js';

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  min: number;
}

export function summarize(ms: number[]): LatencySummary {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p95: at(0.95), min: s[0] };
}

export async function denseQueryLatency(index: string, k = 10, warmup = 20, engine?: EmbedderSpec['engine']) {
  const queries = (await loadQuestions('barexam', 'val')).map(retrievalQuery);
  const r = await openDenseRetriever(index, { embedderOverrides: { workers: 0, ...(engine ? { engine } : {}) } });
  for (const q of queries.slice(0, warmup)) await r.search(q, { k });
  // Whole search and its two parts, interleaved per query so that all three see the same load.
  const total: number[] = [];
  const cpu: number[] = [];
  const embed: number[] = [];
  const search: number[] = [];
  for (const q of queries) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await r.search(q, { k });
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    cpu.push((c1.user + c1.system) / 1000);
    const v = await r.embedQuery(q);
    const t2 = performance.now();
    await r.searchVector(v, { k });
    search.push(performance.now() - t2);
    embed.push(t2 - t1);
    total.push(t1 - t0);
  }
  await r.close();
  const cpuMean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
  const used = r.embedder.provider === 'use-lite' && engine !== 'tfjs' ? `direct, ${gemmVariant()} kernel` : (engine ?? r.embedder.provider);
  return { k, engine: used, total: summarize(total), cpuMs: cpuMean, embed: summarize(embed), search: summarize(search) };
}

if (process.argv[1] && /dense-query-latency\.(js|ts)$/.test(process.argv[1])) {
  const args = process.argv.slice(2);
  const opt = (name: string, d: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
  const index = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--'))) ?? '.lexcase/demo/index';
  const e = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : undefined;
  const engines: Array<EmbedderSpec['engine']> = e === 'both' ? ['tfjs', 'direct'] : [e as EmbedderSpec['engine']];
  for (const engine of engines) {
    const r = await denseQueryLatency(index, opt('--k', 10), opt('--warmup', 20), engine);
    const f = (s: LatencySummary) => `p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)}, min ${s.min.toFixed(1)}`;
    console.log(`dense query, engine ${r.engine} (k = ${r.k}, n = ${r.total.n} val queries): ${f(r.total)}; CPU ${r.cpuMs.toFixed(1)} ms per query`);
    console.log(`  query embedding: ${f(r.embed)}`);
    console.log(`  search:          ${f(r.search)}`);
    console.log(`  ${execSync('uptime').toString().trim()}`);
  }
}
