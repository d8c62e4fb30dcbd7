/**
 * Where the agent shape's slow queries go (issue 38 item 2), on one kept index (`--scale --keep`):
 *
 *   node dist/bench/agent-tail.js INDEX_DIR PROFILE [QUERIES] [METHOD]
 *
 * The scale bench's agent queries (seed 42, 2 warm-up queries, then QUERIES timed; 15 tokens on
 * average, k = 10), each scored two ways in the same process, their order rotated per query:
 * `pool`, the retriever the scale bench times (openRetriever: two query worker threads over doc
 * halves, hand-off and merge included), and `halves`, the same two doc halves scored one after the
 * other on this thread with scoreTopK (strategy 'auto'), each half instrumented: the strategy
 * 'auto' took (blocked TAAT from a density of BLOCKED_MIN_DENSITY, else MaxScore), the density,
 * the lists decoded cold inside the query (cache-sized lists not prewarmed, first use in this
 * process: the workers prewarm exactly the same lists), blockedStats (blocks pruned / fallen back,
 * candidates), GC pauses inside the query (PerformanceObserver 'gc'), view-memory growth. Then the
 * same queries three more times, warm (every list decoded). Prints JSON: per query and pass, both arms' wall
 * and CPU and the halves' breakdown. Absolute times on a shared machine are noise; compare within
 * a query (cold vs warm, pool vs halves). `whole`: the whole doc range on this thread (one scoreTopK,
 * no workers), the third arm.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { openRetriever, openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { BLOCKED_MIN_DENSITY, mergeRanked, scoreTopK, type Ranked, type ScoreRequest } from '../retrieval/sparse/score-core.js';
import { blockedStats } from '../retrieval/sparse/blocked-taat.js';
import { prewarmPostings } from '../retrieval/sparse/decoded-postings.js';
import { viewMemory } from '../retrieval/sparse/kernel/view-memory.js';
import { scoringView, type ScoringView } from '../indexer/sparse/scoring-view.js';
import { scaleQueries } from './scale-child.js';
import type { CorpusProfile } from './synthetic.js';

const CACHE_MIN_DF = 64;
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

/** The arms: the scale bench's retriever (two query workers), the two halves and the whole range on this thread. */
type Arm = 'pool' | 'halves' | 'whole';
const ARMS: Arm[] = ['pool', 'halves', 'whole'];

interface HalfStat {
  ms: number;
  strategy: 'blocked' | 'maxscore';
  density: number;
  coldLists: number;
  coldPostings: number;
  prunedBlocks: number;
  fallbackBlocks: number;
  blocks: number;
  candidates: number;
  memGrowMiB: number;
}

export async function agentTail(dir: string, profile: CorpusProfile, count: number, method: 'bm25' | 'qld' = 'bm25') {
  const loadAtStart = loadavg().map((x) => round(x, 2));
  const index = await openSparseIndex(dir);
  const r = await openRetriever(dir, method);
  const N = index.N;
  const mid = Math.floor(N / 2);
  const halves: ScoringView[] = [scoringView(index, 0, mid), scoringView(index, mid, N)];
  // What each query worker does at init.
  const minDf = Math.max(CACHE_MIN_DF, Math.ceil(N / 1024));
  for (const v of [...halves, index.view]) prewarmPostings(v, minDf);
  const seen = new Set<number>();
  const gcs: { start: number; ms: number }[] = [];
  const obs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) gcs.push({ start: e.startTime, ms: e.duration });
  });
  obs.observe({ entryTypes: ['gc'] });
  const qs = scaleQueries(profile, 'agent', count + 2, 42);
  const reqOf = (q: string): ScoreRequest => {
    const { ids, counts } = queryTerms(index, q);
    return method === 'bm25' ? { method, k1: 0.9, b: 0.4, ids, counts, k: 10 } : { method, variant: 'textbook', mu: 2000, ids, counts, k: 10 };
  };
  const runHalves = (req: ScoreRequest, cold: boolean) => {
    const stats: HalfStat[] = [];
    const parts: Ranked[] = [];
    let coldLists = 0;
    let coldPostings = 0;
    if (cold)
      for (const id of req.ids) {
        const df = index.df[id];
        if (df >= CACHE_MIN_DF && df < minDf && !seen.has(id)) coldLists++, (coldPostings += df);
      }
    for (const v of halves) {
      const vm = viewMemory(v);
      const before = vm.kernel.memory.buffer.byteLength;
      let postings = 0;
      for (const id of req.ids) postings += v.df[id];
      const density = postings / N;
      const t0 = performance.now();
      parts.push(scoreTopK(v, req));
      const ms = performance.now() - t0;
      const blocked = density >= BLOCKED_MIN_DENSITY;
      stats.push({
        ms: round(ms),
        strategy: blocked ? 'blocked' : 'maxscore',
        density: round(density, 4),
        coldLists,
        coldPostings,
        prunedBlocks: blocked ? blockedStats.prunedBlocks : 0,
        fallbackBlocks: blocked ? blockedStats.fallbackBlocks : 0,
        blocks: Math.ceil((v.hi - v.lo) / 16384),
        candidates: blocked ? blockedStats.candidates : 0,
        memGrowMiB: round((vm.kernel.memory.buffer.byteLength - before) / 2 ** 20, 1),
      });
    }
    for (const id of req.ids) seen.add(id);
    return { ranked: mergeRanked(parts, 10), stats };
  };
  const timeArm = async (arm: Arm, q: string, req: ScoreRequest, cold: boolean) => {
    const g0 = gcs.length;
    const c = process.cpuUsage();
    const t0 = performance.now();
    let ranked: Ranked | undefined;
    let stats: HalfStat[] | undefined;
    let ids: string[] = [];
    if (arm === 'pool') ids = (await r.search(q, { k: 10 })).map((h) => h.id);
    else if (arm === 'whole') ranked = scoreTopK(index.view, req);
    else ({ ranked, stats } = runHalves(req, cold));
    const wall = performance.now() - t0;
    const d = process.cpuUsage(c);
    // GC entries are delivered asynchronously: collected after the pass, attributed by start time.
    return { arm, t0, t1: t0 + wall, wall: round(wall), cpu: round((d.user + d.system) / 1000), ids, ranked, stats, g0 };
  };
  const passes: Record<string, unknown>[] = [];
  for (const pass of ['cold', 'warm', 'warm2', 'warm3'] as const) {
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < qs.length; i++) {
      const q = qs[i];
      const req = reqOf(q);
      const order = ARMS.map((_, x) => ARMS[(x + i) % ARMS.length]);
      const res = [];
      for (const arm of order) res.push(await timeArm(arm, q, req, pass === 'cold'));
      const h = res.find((x) => x.arm === 'halves')!;
      const p = res.find((x) => x.arm === 'pool')!;
      const wh = res.find((x) => x.arm === 'whole')!;
      if (JSON.stringify(wh.ranked) !== JSON.stringify(h.ranked)) throw new Error(`query ${i}: whole and halves rank differently`);
      const docIds = index.docs.ids();
      const hDocs = h.ranked!.docs.map((d) => docIds[d]);
      if (JSON.stringify(hDocs) !== JSON.stringify(p.ids)) throw new Error(`query ${i}: halves and pool rank differently`);
      await new Promise((res2) => setImmediate(res2));
      const gcIn = (x: { t0: number; t1: number }) => round(gcs.filter((g) => g.start >= x.t0 && g.start < x.t1).reduce((s, g) => s + g.ms, 0));
      if (i < 2) continue;
      rows.push({
        i,
        terms: req.ids.length,
        postings: req.ids.reduce((s, id) => s + index.df[id], 0),
        pool: { wall: p.wall, cpu: p.cpu, gcMainMs: gcIn(p) },
        whole: { wall: wh.wall, cpu: wh.cpu, gcMs: gcIn(wh) },
        halves: { wall: h.wall, cpu: h.cpu, gcMs: gcIn(h), parts: h.stats },
        handOffMs: round(p.wall - Math.max(...h.stats!.map((s) => s.ms))),
      });
    }
    passes.push({ pass, rows });
  }
  obs.disconnect();
  await (r as { close?: () => Promise<void> }).close?.();
  return { dir, profile, method, N, queries: count, loadAvgAtStart: loadAtStart, loadAvgAtEnd: loadavg().map((x) => round(x, 2)), passes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [dir, profile, n, method] = process.argv.slice(2);
  agentTail(resolve(dir), (profile ?? 'zipf') as CorpusProfile, Number(n ?? 20), (method ?? 'bm25') as 'bm25' | 'qld')
    .then((r) => {
      const text = JSON.stringify(r, null, 1) + '\n';
      // --trace-gc writes to stdout: AGENT_TAIL_OUT names a file for the JSON instead.
      if (process.env.AGENT_TAIL_OUT) writeFileSync(process.env.AGENT_TAIL_OUT, text);
      else process.stdout.write(text);
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(`agent-tail failed: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    });
}
