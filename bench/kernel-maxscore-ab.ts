/**
 * MaxScore without the per-document floor (sparse-candidates.ts, `blockedPruning.sparseCandidates`)
 * forced, and 'auto' with its gate (`blockedPruning.sparseGate`), against 'auto' without the gate,
 * on the agent shape (8–30 words, k = 10), on one `--scale --keep` index:
 *
 *   node dist/bench/kernel-maxscore-ab.js INDEX_DIR PROFILE [QUERIES] [PASSES] [METHOD] [FIRST]
 *
 * The scale bench's agent queries (seed 42; from the FIRST-th, default 0: the gate was fitted on 0–99 and checked on 100–199) scored on the calling thread over the whole doc range:
 * one untimed pass (every list decoded, the arms' rankings checked equal), then PASSES timed
 * passes, each query scored by the three arms, the first arm rotating per query and per pass
 * (same process, same warm lists). CPU time (process.cpuUsage) is the figure: on a shared machine
 * wall time measures the other work. Prints per-arm CPU and wall p50/p95 over every timed query,
 * the CPU ratios to 'auto', the sparse arm's blocks pruned and candidates, per query each arm's
 * CPU per pass and the gate's inputs (the fit's data: bench/kernel-maxscore-fit.ts), and the
 * 1-minute load at the start and end, as JSON. Findings: docs/notes/2026-11-30-kernel-maxscore.md.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK, type ScoreRequest } from '../retrieval/sparse/score-core.js';
import { blockedPruning, blockedStats, sparseGateModel } from '../retrieval/sparse/blocked-taat.js';
import { latencyStats } from './measure.js';
import { syntheticQueries, type CorpusProfile } from './synthetic.js';

/**
 * 'auto' as it was (no gate), 'gated' ('auto' with blockedPruning.sparseGate), sparseCandidates
 * forced, and sparseCandidates forced with its split per block from the index's stored block
 * bounds ('bounded': blockedPruning.blockBounds; the same as 'sparse' on an index built without them).
 */
type Arm = 'auto' | 'gated' | 'sparse' | 'bounded';
const ARMS: Arm[] = ['auto', 'gated', 'sparse', 'bounded'];

export async function kernelMaxScoreAb(dir: string, profile: CorpusProfile, count: number, passes: number, method: 'bm25' | 'qld', first = 0) {
  const loadAvgAtStart = loadavg();
  const index = await openSparseIndex(dir);
  const qs = syntheticQueries({ count: first + count, seed: 42, profile, shape: 'agent' }).slice(first);
  const reqs: ScoreRequest[] = qs.map((q) => {
    const { ids, counts } = queryTerms(index, q);
    return method === 'bm25' ? { method, k1: 0.9, b: 0.4, ids, counts, k: 10 } : { method, variant: 'textbook', mu: 2000, ids, counts, k: 10 };
  });
  const run = (arm: Arm, req: ScoreRequest) => {
    const gateBefore = blockedPruning.sparseGate;
    blockedPruning.sparseCandidates = arm === 'sparse' || arm === 'bounded';
    blockedPruning.blockBounds = arm === 'bounded';
    blockedPruning.sparseGate = arm === 'gated';
    try {
      const c = process.cpuUsage();
      const t0 = performance.now();
      const r = scoreTopK(index.view, req, 'auto');
      const wall = performance.now() - t0;
      const d = process.cpuUsage(c);
      return { r, cpu: (d.user + d.system) / 1000, wall };
    } finally {
      blockedPruning.sparseCandidates = false;
      blockedPruning.blockBounds = false;
      blockedPruning.sparseGate = gateBefore;
    }
  };
  // Warm pass: every list decoded, the arms checked equal.
  reqs.forEach((req, i) => {
    const a = run('auto', req);
    const g = run('gated', req);
    const s = run('sparse', req);
    const bd = run('bounded', req);
    if (JSON.stringify(a.r) !== JSON.stringify(s.r)) throw new Error(`query ${i}: sparseCandidates ranks differently from 'auto'`);
    if (JSON.stringify(a.r) !== JSON.stringify(bd.r)) throw new Error(`query ${i}: sparseCandidates on block bounds ranks differently from 'auto'`);
    if (JSON.stringify(a.r) !== JSON.stringify(g.r)) throw new Error(`query ${i}: the gated 'auto' ranks differently from 'auto'`);
  });
  const cpu: Record<Arm, number[]> = { auto: [], gated: [], sparse: [], bounded: [] };
  const wall: Record<Arm, number[]> = { auto: [], gated: [], sparse: [], bounded: [] };
  const bCands: number[] = [];
  const bBounded: number[] = [];
  const bSkipped: number[] = [];
  const bPruned: number[] = [];
  const boundedPairRatio: number[] = [];
  const boundedToSparsePairRatio: number[] = [];
  const pruned: number[] = [];
  const cands: number[] = [];
  const pairRatio: number[] = [];
  const gatedPairRatio: number[] = [];
  // Per query: each arm's CPU per pass, the gate's inputs (from the forced arm, which asks it
  // without following it) and whether the gated arm took sparseCandidates — the fit's data.
  const perQuery = reqs.map((req, i) => ({
    i,
    terms: req.ids.length,
    cpu: { auto: [] as number[], gated: [] as number[], sparse: [] as number[], bounded: [] as number[] },
    gate: { ...blockedStats.gate },
    gatedTaken: -1,
    candidates: 0,
    boundedCandidates: 0,
    skippedBlocks: 0,
  }));
  for (let p = 0; p < passes; p++)
    reqs.forEach((req, i) => {
      // Rotated: pass p, query i starts at arm (i + p) mod 4.
      const order = ARMS.map((_, q) => ARMS[(i + p + q) % ARMS.length]);
      const got: Partial<Record<Arm, number>> = {};
      for (const arm of order) {
        const x = run(arm, req);
        cpu[arm].push(x.cpu);
        wall[arm].push(x.wall);
        got[arm] = x.cpu;
        perQuery[i].cpu[arm].push(x.cpu);
        if (arm === 'sparse') {
          pruned.push(blockedStats.prunedBlocks);
          cands.push(blockedStats.candidates);
          perQuery[i].gate = { ...blockedStats.gate };
          perQuery[i].candidates = blockedStats.candidates;
        }
        if (arm === 'gated') perQuery[i].gatedTaken = blockedStats.gate.taken;
        if (arm === 'bounded') {
          bCands.push(blockedStats.candidates);
          bBounded.push(blockedStats.boundedBlocks);
          bSkipped.push(blockedStats.skippedBlocks);
          bPruned.push(blockedStats.prunedBlocks);
          perQuery[i].boundedCandidates = blockedStats.candidates;
          perQuery[i].skippedBlocks = blockedStats.skippedBlocks;
        }
      }
      if (got.auto! > 0) {
        pairRatio.push(got.sparse! / got.auto!);
        gatedPairRatio.push(got.gated! / got.auto!);
        boundedPairRatio.push(got.bounded! / got.auto!);
      }
      if (got.sparse! > 0) boundedToSparsePairRatio.push(got.bounded! / got.sparse!);
    });
  const stats = (a: number[]) => {
    const s = latencyStats(a);
    return { p50Ms: s.p50Ms, p95Ms: s.p95Ms };
  };
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const ca = stats(cpu.auto);
  const cs = stats(cpu.sparse);
  const cg = stats(cpu.gated);
  const cb = stats(cpu.bounded);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    dir,
    profile,
    firstQuery: first,
    N: index.N,
    method,
    queries: count,
    passes,
    auto: { cpu: ca, wall: stats(wall.auto) },
    gated: { cpu: cg, wall: stats(wall.gated) },
    sparse: { cpu: cs, wall: stats(wall.sparse) },
    bounded: { cpu: cb, wall: stats(wall.bounded) },
    cpuRatioBoundedToAuto: { p50: r2(cb.p50Ms / ca.p50Ms), p95: r2(cb.p95Ms / ca.p95Ms) },
    cpuRatioBoundedToSparse: { p50: r2(cb.p50Ms / cs.p50Ms), p95: r2(cb.p95Ms / cs.p95Ms) },
    medianPairCpuRatioBounded: r2(median(boundedPairRatio)),
    medianPairCpuRatioBoundedToSparse: r2(median(boundedToSparsePairRatio)),
    boundedMedianCandidates: median(bCands),
    boundedMedianPrunedBlocks: median(bPruned),
    boundedMedianBoundedBlocks: median(bBounded),
    boundedMedianSkippedBlocks: median(bSkipped),
    blockBounds: index.manifest.sparse?.blockBounds ?? null,
    cpuRatioSparseToAuto: { p50: r2(cs.p50Ms / ca.p50Ms), p95: r2(cs.p95Ms / ca.p95Ms) },
    cpuRatioGatedToAuto: { p50: r2(cg.p50Ms / ca.p50Ms), p95: r2(cg.p95Ms / ca.p95Ms) },
    medianPairCpuRatio: r2(median(pairRatio)),
    medianPairCpuRatioGated: r2(median(gatedPairRatio)),
    gateModel: { ...sparseGateModel },
    gatedTakenQueries: perQuery.filter((q) => q.gatedTaken === 1).length,
    perQuery,
    sparseMedianPrunedBlocks: median(pruned),
    sparseMedianCandidates: median(cands),
    blocks: Math.ceil(index.N / 16384),
    loadAvgAtStart,
    loadAvgAtEnd: loadavg(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [dir, profile, n, passes, method, first] = process.argv.slice(2);
  kernelMaxScoreAb(
    resolve(dir),
    (profile ?? 'bench') as CorpusProfile,
    Number(n ?? 100),
    Number(passes ?? 3),
    method === 'qld' ? 'qld' : 'bm25',
    Number(first ?? 0),
  )
    .then((r) => {
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(`kernel-maxscore-ab failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
