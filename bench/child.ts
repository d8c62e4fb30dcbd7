/**
 * One benchmark scenario in its own process, so peak RSS (its own high-water mark: measure.ts ownPeakRssKiB) is that engine's alone.
 * Invoked by bench/run.ts as `node child.js '<json spec>'`; writes its result as JSON to
 * spec.resultFile. Phases: `build` (time, CPU, peak RSS, bytes on disk), `query` (load time, query
 * latencies at each k, peak RSS of a serving process), `all` (both in one process, for in-memory
 * engines), plus the `dense-ann` and `embed` scenarios when their files exist.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getEngine } from './engines/index.js';
import type { EngineContext, Searcher } from './engines/types.js';
import { scaleBuild, scaleQuery, type ScaleBuildSpec, type ScaleQuerySpec } from './scale-child.js';
import { cpuSeconds, dirBreakdown, dirBytes, latencyStats, peakRssMiB, type LatencyStats } from './measure.js';

export interface EngineSpec {
  kind: 'engine';
  engine: string;
  phase: 'build' | 'query' | 'all';
  corpusFile: string;
  workDir: string;
  method?: string;
  queriesFile?: string;
  ks?: number[];
  /** Most queries timed per k (default: all). */
  maxQueries?: number;
  /** Stop timing a k after this many seconds (at least 3 queries are always timed). */
  timeBudgetS?: number;
  warmup?: number;
  workers?: number;
  /** Corpus profile ('zipf': indexed with stopwords and stemming off). */
  corpus?: 'bench' | 'zipf';
  /**
   * Posting shares of the opt-in approximate mode to time after the exact runs, at the largest k
   * (lexcase only), each with its recall@k against the exact top-k of the same query.
   */
  approxShares?: number[];
  resultFile: string;
}

export interface DenseSpec {
  kind: 'dense-ann' | 'embed';
  args: Record<string, unknown>;
  resultFile: string;
}

export type ChildSpec = EngineSpec | DenseSpec | ScaleBuildSpec | ScaleQuerySpec;

export interface BuildResult {
  buildS: number;
  buildCpuS: number;
  buildPeakRssMiB: number;
  indexBytes?: number;
  indexBreakdown?: Record<string, number>;
}

export interface QueryResult {
  loadS?: number;
  byK: Record<string, LatencyStats & { samplesMs: number[]; cpuP50Ms: number; cpuP95Ms: number }>;
  queryPeakRssMiB: number;
  /** Top-10 ids of the first queries, to compare rankings across engines. */
  top10: string[][];
  /** Approximate-mode runs (EngineSpec.approxShares), labelled as such. */
  approx?: ApproxRun[];
  /**
   * lexcase's block checksums (indexer/block-checksums.ts): CRC-32 work of opening the index (files
   * read whole) and of all timed queries after it (blocks a query reads first), inside `loadS` and
   * the latencies above, not on top of them.
   */
  blockChecks?: { openMs: number; openMiB: number; queriesMs: number; queriesMiB: number; blocks: number };
}

/** One posting budget of the approximate mode, timed over the same queries as the exact run. */
export interface ApproxRun extends LatencyStats {
  approximate: true;
  postingShare: number;
  k: number;
  cpuP50Ms: number;
  cpuP95Ms: number;
  /** recall@k against the exact top-k of the same query (|approx ∩ exact| / |exact|), over queries with a hit. */
  recallMean: number;
  recallMin: number;
  /** 5th percentile of the per-query recall (nearest rank). */
  recallP5: number;
  /** Exact p50/p95 at the same k over the same queries, from the run just before (for the ratio). */
  exactP50Ms: number;
  exactP95Ms: number;
}

/**
 * Times searches of queries[0..n) at k, one at a time (optionally in the approximate mode): wall and
 * CPU ms per query; `seen` gets each query's ids. Stops after `deadline` (performance.now() ms) once
 * at least 3 queries are timed.
 */
async function timeLoop(
  s: Searcher,
  queries: string[],
  k: number,
  n: number,
  approx: { postingShare: number } | undefined,
  deadline: number,
  seen: (i: number, ids: string[]) => void,
): Promise<{ ms: number[]; cpuMs: number[] }> {
  const ms: number[] = [];
  const cpuMs: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const ids = await s.search(queries[i], k, approx);
    ms.push(performance.now() - t);
    const dc = process.cpuUsage(c);
    cpuMs.push((dc.user + dc.system) / 1000);
    seen(i, ids);
    if (performance.now() > deadline && ms.length >= 3) break;
  }
  return { ms, cpuMs };
}

async function timeQueries(s: Searcher, queries: string[], spec: EngineSpec): Promise<Omit<QueryResult, 'loadS' | 'queryPeakRssMiB'>> {
  const ks = spec.ks ?? [1000, 10];
  const approxK = Math.max(...ks);
  const exactIds: string[][] = [];
  const warm = Math.min(spec.warmup ?? 2, queries.length);
  for (let i = 0; i < warm; i++) await s.search(queries[i], Math.max(...ks));
  const byK: QueryResult['byK'] = {};
  const top10: string[][] = [];
  for (const k of ks) {
    const limit = Math.min(queries.length, spec.maxQueries ?? queries.length);
    const deadline = performance.now() + (spec.timeBudgetS ?? Infinity) * 1000;
    const { ms, cpuMs } = await timeLoop(s, queries, k, limit, undefined, deadline, (i, ids) => {
      if (k === approxK) exactIds[i] = ids;
      if (i < 5 && top10.length < 5 && k >= 10) top10.push(ids.slice(0, 10));
    });
    const cpu = latencyStats(cpuMs);
    byK[String(k)] = { ...latencyStats(ms), cpuP50Ms: cpu.p50Ms, cpuP95Ms: cpu.p95Ms, samplesMs: ms.map((x) => Math.round(x * 100) / 100) };
  }
  const approx = spec.approxShares?.length ? await timeApprox(s, queries, exactIds, approxK, spec.approxShares, byK[String(approxK)]) : undefined;
  return { byK, top10, ...(approx ? { approx } : {}) };
}

/** Each posting share over the queries the exact run timed at k: latency and recall@k against exact. */
async function timeApprox(s: Searcher, queries: string[], exactIds: string[][], k: number, shares: number[], exact: LatencyStats): Promise<ApproxRun[]> {
  const out: ApproxRun[] = [];
  const round = (x: number) => Math.round(x * 10000) / 10000;
  for (const postingShare of shares) {
    const recalls: number[] = [];
    const { ms, cpuMs } = await timeLoop(s, queries, k, exactIds.length, { postingShare }, Infinity, (i, ids) => {
      const want = exactIds[i];
      if (!want.length) return;
      const got = new Set(ids);
      recalls.push(want.filter((id) => got.has(id)).length / want.length);
    });
    const cpu = latencyStats(cpuMs);
    const sorted = [...recalls].sort((a, b) => a - b);
    out.push({
      approximate: true,
      postingShare,
      k,
      ...latencyStats(ms),
      cpuP50Ms: cpu.p50Ms,
      cpuP95Ms: cpu.p95Ms,
      recallMean: round(recalls.reduce((a, b) => a + b, 0) / (recalls.length || 1)),
      recallMin: round(sorted[0] ?? NaN),
      recallP5: round(sorted[Math.max(0, Math.ceil(0.05 * sorted.length) - 1)] ?? NaN),
      exactP50Ms: exact.p50Ms,
      exactP95Ms: exact.p95Ms,
    });
  }
  return out;
}

async function runEngine(spec: EngineSpec): Promise<Record<string, unknown>> {
  const engine = getEngine(spec.engine, { workers: spec.workers });
  const ctx: EngineContext = { corpusFile: spec.corpusFile, workDir: spec.workDir, method: spec.method, corpus: spec.corpus };
  const out: Record<string, unknown> = { engine: engine.name, phase: spec.phase, method: spec.method };
  let searcher: Searcher | undefined;
  if (spec.phase === 'build' || spec.phase === 'all') {
    const t = performance.now();
    const built = await engine.build(ctx);
    const build: BuildResult = {
      buildS: Math.round((performance.now() - t) / 10) / 100,
      buildCpuS: cpuSeconds(),
      buildPeakRssMiB: peakRssMiB(),
    };
    if (built.indexDir) {
      build.indexBytes = await dirBytes(built.indexDir);
      build.indexBreakdown = await dirBreakdown(built.indexDir);
    }
    Object.assign(out, build, built.detail ? { detail: built.detail } : {});
    searcher = built.searcher;
  }
  if (spec.phase === 'query' || spec.phase === 'all') {
    const queries = JSON.parse(await readFile(spec.queriesFile!, 'utf8')) as string[];
    let loadS: number | undefined;
    if (!searcher) {
      const t = performance.now();
      searcher = await engine.open!(ctx);
      loadS = Math.round((performance.now() - t) / 10) / 100;
    }
    const atOpen = searcher.blockChecks?.();
    const timed = await timeQueries(searcher, queries, spec);
    const q: QueryResult = { loadS, ...timed, queryPeakRssMiB: peakRssMiB() };
    const after = searcher.blockChecks?.();
    if (atOpen && after) {
      const r2 = (x: number) => Math.round(x * 100) / 100;
      q.blockChecks = {
        openMs: r2(atOpen.ms),
        openMiB: r2(atOpen.bytes / 2 ** 20),
        queriesMs: r2(after.ms - atOpen.ms),
        queriesMiB: r2((after.bytes - atOpen.bytes) / 2 ** 20),
        blocks: after.blocks,
      };
    }
    Object.assign(out, q);
    await searcher.close?.();
  }
  return out;
}

async function runDense(spec: DenseSpec): Promise<Record<string, unknown>> {
  const file = spec.kind === 'dense-ann' ? './dense-ann.js' : './embed-throughput.js';
  const fnName = spec.kind === 'dense-ann' ? 'runDenseAnnBench' : 'runEmbedThroughputBench';
  const mod = (await import(file)) as Record<string, (args: unknown) => Promise<unknown>>;
  if (typeof mod[fnName] !== 'function') throw new Error(`bench/${file.slice(2)} does not export ${fnName}`);
  const t = performance.now();
  const result = await mod[fnName](spec.args);
  return { result, wallS: Math.round((performance.now() - t) / 10) / 100, peakRssMiB: peakRssMiB() };
}

/** Whether the scenario file exists next to this one (as .ts under tsx, .js when built). */
export function denseScenarioAvailable(kind: 'dense-ann' | 'embed'): boolean {
  const base = kind === 'dense-ann' ? 'dense-ann' : 'embed-throughput';
  const here = fileURLToPath(import.meta.url);
  const ext = here.endsWith('.ts') ? '.ts' : '.js';
  return existsSync(fileURLToPath(new URL(`./${base}${ext}`, import.meta.url)));
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ChildSpec;
  const result =
    spec.kind === 'engine'
      ? await runEngine(spec)
      : spec.kind === 'scale-build'
        ? await scaleBuild(spec)
        : spec.kind === 'scale-query'
          ? await scaleQuery(spec)
          : await runDense(spec);
  await writeFile(spec.resultFile, JSON.stringify(result, null, 2));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
