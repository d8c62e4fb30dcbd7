/**
 * The scale bench's two phases, each in its own process (bench/child.ts dispatches here):
 * `scale-build` streams the generated corpus from a generator process (scale-gen.ts) through a pipe
 * into lexcase's build and reports wall and CPU time, peak RSS and bytes on disk of this process
 * alone; `scale-query` opens the index (timed), runs each query shape and reports p50/p95 (wall and
 * CPU) and the serving process's peak RSS.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex, resolveWorkers } from '../indexer/build.js';
import type { ShapeProcess } from './scale-processes.js';
import type { BuildPhase } from '../indexer/build-phases.js';
import { openRetriever, openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import type { Retriever } from '../retrieval/types.js';
import { cpuSeconds, dirBreakdown, dirBytes, latencyStats, peakRssMiB, type LatencyStats } from './measure.js';
import { readPassagesJsonl, readPassagesJsonlStream } from './read-jsonl.js';
import { readCpuSample } from './proc-stat.js';
import { phaseCpu, settle, type PhaseCpu } from './quiet.js';
import { mainGcClock, splitRecorder, type PassSplit } from './query-split.js';
import { AGENT_QUERY_WORDS, syntheticQueries, type CorpusProfile, type QueryShape } from './synthetic.js';

/** The three query shapes of issue 31: the worst case (zipf corpus), the Bar Exam question, the agent query. */
export type ScaleShape = 'worst' | 'barexam' | 'agent';

export interface ShapeSpec {
  shape: ScaleShape;
  k: number;
  /** What the queries are, for the report. */
  describe: string;
}

/** The shapes timed on each corpus: long queries at top-1000, agent queries at top-10. */
export function shapesFor(profile: CorpusProfile): ShapeSpec[] {
  const agent: ShapeSpec = {
    shape: 'agent',
    k: 10,
    describe: `${AGENT_QUERY_WORDS.min}–${AGENT_QUERY_WORDS.max}-word agent query (an option or a claim), top-10`,
  };
  return profile === 'zipf'
    ? [{ shape: 'worst', k: 1000, describe: '170-token Zipf query (worst case), top-1000' }, agent]
    : [{ shape: 'barexam', k: 1000, describe: '140–170-word Bar Exam question (facts + question), top-1000' }, agent];
}

export interface ScaleBuildSpec {
  kind: 'scale-build';
  n: number;
  seed: number;
  profile: CorpusProfile;
  indexDir: string;
  workers: number | 'auto';
  resultFile: string;
  /** Build from this JSONL file (written beforehand by generateCorpusFile); absent: from a generator process through a pipe. */
  corpusFile?: string;
}

export interface ScaleQuerySpec {
  kind: 'scale-query';
  n: number;
  seed: number;
  profile: CorpusProfile;
  indexDir: string;
  method: 'bm25' | 'qld';
  /** Queries timed per shape (after 2 warm-up queries). */
  queries: number;
  resultFile: string;
  /** Keep the top-10 of this many timed queries per shape (for the BM25S agreement check). */
  keepTop?: number;
  /**
   * Before each shape, wait up to this many seconds for the 1-min load to fall under `settleLimit`'s
   * share (bench/quiet.ts settle): the index's open prewarms its lists on every core, which lifts the
   * load a shape would start at (a 10M index: from ~1.2 to 1.55–1.7, so its figures were not claimed).
   */
  settleS?: number;
  settleLimit?: number;
}

export interface ScaleBuildResult {
  passages: number;
  buildS: number;
  buildCpuS: number;
  buildPeakRssMiB: number;
  indexBytes: number;
  /** Bytes without the doc store (docs/): the inverted index and per-doc arrays. */
  indexBytesNoDocs: number;
  indexBreakdown: Record<string, number>;
  /** CPU seconds of the generator process (not in buildCpuS; 0 when the build read a file generated before it). */
  generatorCpuS: number;
  loadAvg: number[];
  /** Build worker threads used ('auto': the usable cores). */
  workers?: number;
  /** Analysed tokens indexed (the manifest's totalTokens). */
  tokens?: number;
  /** tokens ÷ build wall seconds. */
  tokensPerS?: number;
  /** tokens ÷ build CPU seconds (all threads): tokens per second per busy core. */
  tokensPerCpuS?: number;
  /** The build's phase timeline (indexer/build-phases.ts; absent in result files from before 2026-12-01). */
  phases?: BuildPhase[];
}

/** The corpus written to a file before the build, so the build's time is its own (generator off its critical path). */
export interface ScaleGenerateResult {
  file: string;
  bytes: number;
  wallS: number;
  cpuS: number;
}

export interface ShapeResult extends LatencyStats {
  shape: ScaleShape;
  k: number;
  cpuP50Ms: number;
  cpuP95Ms: number;
  /** Mean distinct words per query. */
  meanDistinctWords: number;
  loadAvgAtStart: number[];
  /** Load averages when the shape's timed queries were done (absent in result files from before issue 38). */
  loadAvgAtEnd?: number[];
  /** Machine busy and this query process's CPU over the shape (warm-up and timed queries; bench/quiet.ts); absent off Linux and in older result files. */
  cpu?: PhaseCpu;
  /** Mean postings of the query's terms (Σ df over its distinct terms): what exhaustive scoring walks. */
  meanPostings?: number;
  /** Σ per-query CPU / Σ postings, in ns: CPU per posting of the query's terms. */
  cpuNsPerPosting?: number;
  /**
   * The same timed queries run again right after (a second pass, untimed in the figures above): a
   * server that has run a while, its decoded-list cache holding what these queries use. The figures
   * above are the cold first pass (after 2 warm-ups): lists a query is first to use are decoded in
   * its timing (at 10M the 1 GiB default budget cannot hold every frequent list; docs/index-format.md
   * "Serving memory"). Absent in result files from before 2026-12-01.
   */
  warm?: { p50Ms: number; p95Ms: number; cpuP50Ms: number; cpuP95Ms: number };
  /** Top-10 ids and scores of the first timed queries (bm25 only; for the BM25S agreement check, then dropped). */
  top10?: { ids: string[]; scores: number[] }[];
  /** With `--query-runs N` > 1: each query process's own figures; the figures above are then their medians (bench/scale-processes.ts). */
  processes?: ShapeProcess[];
  /** Where each timed query's wall went, cold and warm pass (bench/query-split.ts); absent in result files from before 2026-12-04 (evening). */
  split?: { cold: PassSplit; warm: PassSplit };
}

export interface ScaleQueryResult {
  method: string;
  openS: number;
  shapes: ShapeResult[];
  servingPeakRssMiB: number;
  /** RSS after the queries (resident now, not the peak). */
  servingRssMiB: number;
  loadAvg: number[];
}

const fromTs = fileURLToPath(import.meta.url).endsWith('.ts');
const genPath = fileURLToPath(new URL(fromTs ? './scale-gen.ts' : './scale-gen.js', import.meta.url));
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** Write the seeded corpus as JSONL to `file` from a generator process (scale-gen.ts); its wall and CPU time. */
export async function generateCorpusFile(o: { n: number; seed: number; profile: CorpusProfile; file: string }): Promise<ScaleGenerateResult> {
  const t = performance.now();
  const cpuFile = `${o.file}.gen-cpu`;
  const fd = openSync(o.file, 'w');
  try {
    const gen = spawn(
      process.execPath,
      [...(fromTs ? ['--import', 'tsx'] : []), genPath, JSON.stringify({ n: o.n, seed: o.seed, profile: o.profile, cpuFile })],
      { stdio: ['ignore', fd, 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      gen.on('error', reject);
      gen.on('exit', (code, sig) => (code === 0 ? resolve() : reject(new Error(`corpus generator exited with ${code ?? sig}`))));
    });
  } finally {
    closeSync(fd);
  }
  const cpuS = Number(await readFile(cpuFile, 'utf8'));
  await rm(cpuFile, { force: true });
  return { file: o.file, bytes: statSync(o.file).size, wallS: round((performance.now() - t) / 1000), cpuS: round(cpuS) };
}

export async function scaleBuild(spec: ScaleBuildSpec): Promise<ScaleBuildResult> {
  if (spec.corpusFile) return scaleBuildFrom(spec, readPassagesJsonl(spec.corpusFile), async () => 0);
  const t = performance.now();
  const cpuFile = `${spec.resultFile}.gen-cpu`;
  const gen = spawn(
    process.execPath,
    [...(fromTs ? ['--import', 'tsx'] : []), genPath, JSON.stringify({ n: spec.n, seed: spec.seed, profile: spec.profile, cpuFile })],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve, reject) => {
    gen.on('exit', (code, sig) => {
      if (code === 0) resolve();
      else reject(new Error(`corpus generator exited with ${code ?? sig}`));
    });
  });
  return scaleBuildFrom(
    spec,
    readPassagesJsonlStream(gen.stdout),
    async () => {
      await exited;
      const genCpuS = Number(await readFile(cpuFile, 'utf8'));
      await rm(cpuFile, { force: true });
      return genCpuS;
    },
    t,
  );
}

async function scaleBuildFrom(
  spec: ScaleBuildSpec,
  source: AsyncIterable<{ id: string; text: string }>,
  generatorCpu: () => Promise<number>,
  t = performance.now(),
): Promise<ScaleBuildResult> {
  let passages = 0;
  async function* counted() {
    for await (const p of source) {
      passages++;
      yield p;
    }
  }
  const workers = resolveWorkers(spec.workers);
  let phases: BuildPhase[] | undefined;
  const manifest = await buildIndex(counted(), {
    onPhases: (p) => {
      phases = p;
    },
    out: spec.indexDir,
    corpusName: 'synthetic',
    methods: ['bm25', 'qld'],
    workers,
    ...(spec.profile === 'zipf' ? { analyzer: { stopwords: 'none', stemmer: 'none' } } : {}),
  });
  const genCpuS = await generatorCpu();
  const buildS = round((performance.now() - t) / 1000);
  const buildCpuS = cpuSeconds();
  const breakdown = await dirBreakdown(spec.indexDir);
  const indexBytes = await dirBytes(spec.indexDir);
  const tokens = Number(manifest.sparse?.totalTokens ?? 0);
  return {
    passages,
    buildS,
    buildCpuS,
    buildPeakRssMiB: peakRssMiB(),
    indexBytes,
    indexBytesNoDocs: indexBytes - (breakdown.docs ?? 0),
    indexBreakdown: breakdown,
    generatorCpuS: round(genCpuS),
    loadAvg: loadavg().map((x) => round(x)),
    workers,
    tokens,
    tokensPerS: Math.round(tokens / Math.max(buildS, 1e-3)),
    // ÷ the build process's CPU (main thread and workers): tokens per second of one busy core
    tokensPerCpuS: Math.round(tokens / Math.max(buildCpuS, 1e-3)),
    ...(phases ? { phases } : {}),
  };
}

const queryShape = (s: ScaleShape): QueryShape => (s === 'agent' ? 'agent' : 'long');

/** The queries of one shape (the same for lexcase and the BM25S peer): 2 warm-up ones, then the timed ones. */
export const scaleQueries = (profile: CorpusProfile, shape: ScaleShape, count: number, seed: number) =>
  syntheticQueries({ count, seed, profile, shape: queryShape(shape) });

export async function scaleQuery(spec: ScaleQuerySpec): Promise<ScaleQueryResult> {
  process.env.LEXCASE_QUERY_TIMINGS = '1'; // the pool's workers observe their GC (retrieval/sparse/query-timings.ts)
  const mainGc = mainGcClock();
  const t = performance.now();
  const r: Retriever = await openRetriever(spec.indexDir, spec.method);
  const openS = round((performance.now() - t) / 1000, 3);
  // The loaded index the retriever scores (open-sparse.ts keeps one per dir and manifest: this is
  // that object, not a second load), taken outside the timings; it counts each query's postings.
  const index = await openSparseIndex(spec.indexDir);
  const shapes: ShapeResult[] = [];
  const timed: string[][] = [];
  for (const sh of shapesFor(spec.profile)) {
    const queries = scaleQueries(spec.profile, sh.shape, spec.queries + 2, spec.seed);
    timed.push(queries.slice(2));
    if (spec.settleS && spec.settleLimit) {
      await settle(spec.settleLimit, spec.settleS, (l) => process.stderr.write(`[bench --scale] ${spec.method} ${sh.shape}: ${l}\n`));
    }
    const loadAvgAtStart = loadavg().map((x) => round(x));
    const cpu0 = readCpuSample();
    const tShape = performance.now();
    for (const q of queries.slice(0, 2)) await r.search(q, { k: sh.k });
    const coldSplit = splitRecorder(mainGc);
    const ms: number[] = [];
    const cpu: number[] = [];
    const top10: { ids: string[]; scores: number[] }[] = [];
    let terms = 0;
    for (const q of queries.slice(2)) {
      const c = process.cpuUsage();
      const s0 = coldSplit.before();
      const t0 = performance.now();
      const hits = await r.search(q, { k: sh.k });
      ms.push(performance.now() - t0);
      coldSplit.after(s0, ms[ms.length - 1]);
      const dc = process.cpuUsage(c);
      cpu.push((dc.user + dc.system) / 1000);
      if (!hits.length) throw new Error(`no hits for a ${sh.shape} query`);
      terms += new Set(q.toLowerCase().match(/[a-z]+/g) ?? []).size;
      if (top10.length < (spec.keepTop ?? 0)) top10.push({ ids: hits.slice(0, 10).map((h) => h.id), scores: hits.slice(0, 10).map((h) => h.score) });
    }
    const shapeCpu = phaseCpu(cpu0, readCpuSample(), (performance.now() - tShape) / 1000);
    const c = latencyStats(cpu);
    const loadAvgAtEnd = loadavg().map((x) => round(x));
    // The warm steady state: the same timed queries again (their lists now decoded, as far as the cache holds them).
    const warmMs: number[] = [];
    const warmCpu: number[] = [];
    const cold = await coldSplit.done();
    const warmSplit = splitRecorder(mainGc);
    for (const q of queries.slice(2)) {
      const c1 = process.cpuUsage();
      const s1 = warmSplit.before();
      const t1 = performance.now();
      await r.search(q, { k: sh.k });
      warmMs.push(performance.now() - t1);
      warmSplit.after(s1, warmMs[warmMs.length - 1]);
      const d1 = process.cpuUsage(c1);
      warmCpu.push((d1.user + d1.system) / 1000);
    }
    const wl = latencyStats(warmMs);
    const wc = latencyStats(warmCpu);
    const warm = { p50Ms: wl.p50Ms, p95Ms: wl.p95Ms, cpuP50Ms: wc.p50Ms, cpuP95Ms: wc.p95Ms };
    shapes.push({
      shape: sh.shape,
      k: sh.k,
      ...latencyStats(ms),
      cpuP50Ms: c.p50Ms,
      cpuP95Ms: c.p95Ms,
      meanDistinctWords: round(terms / spec.queries, 1),
      loadAvgAtStart,
      loadAvgAtEnd,
      ...(shapeCpu ? { cpu: shapeCpu } : {}),
      warm,
      cpuSumMs: cpu.reduce((a, b) => a + b, 0),
      ...(top10.length ? { top10 } : {}),
      split: { cold, warm: await warmSplit.done() },
    } as ShapeResult);
  }
  const servingRssMiB = round(process.memoryUsage.rss() / 2 ** 20, 1);
  // Postings each query's terms hold (after the timings, from the index the queries used).
  shapes.forEach((s, i) => {
    let postings = 0;
    for (const q of timed[i]) for (const id of queryTerms(index, q).ids) postings += index.df[id];
    const x = s as ShapeResult & { cpuSumMs?: number };
    s.meanPostings = Math.round(postings / timed[i].length);
    s.cpuNsPerPosting = postings ? round(((x.cpuSumMs ?? 0) * 1e6) / postings, 2) : 0;
    delete x.cpuSumMs;
  });
  await (r as { close?: () => Promise<void> }).close?.();
  mainGc.stop();
  const servingPeakRssMiB = peakRssMiB();
  return { method: spec.method, openS, shapes, servingPeakRssMiB, servingRssMiB, loadAvg: loadavg().map((x) => round(x)) };
}

export const scaleIndexDir = (workDir: string, profile: CorpusProfile, n: number) => join(workDir, `scale-${profile}-${n}`, 'index');
