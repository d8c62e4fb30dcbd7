/**
 * MaxScore without the per-document floor (blocked-taat.ts `blockedPruning.sparseCandidates`)
 * against today's 'auto', on the agent shape (8–30 words, k = 10), on one `--scale --keep` index:
 *
 *   node dist/bench/kernel-maxscore-ab.js INDEX_DIR PROFILE [QUERIES] [PASSES] [METHOD]
 *
 * The scale bench's agent queries (seed 42) scored on the calling thread over the whole doc range:
 * one untimed pass (every list decoded, both arms' rankings checked equal), then PASSES timed
 * passes, each query scored by both arms, which goes first alternating per query and per pass
 * (same process, same warm lists). CPU time (process.cpuUsage) is the figure: on a shared machine
 * wall time measures the other work. Prints per-arm CPU and wall p50/p95 over every timed query,
 * the CPU ratio sparse ÷ auto, the sparse arm's blocks pruned and candidates, and the 1-minute
 * load at the start and end, as JSON. Findings: docs/notes/2026-11-30-kernel-maxscore.md.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK, type ScoreRequest } from '../retrieval/sparse/score-core.js';
import { blockedPruning, blockedStats } from '../retrieval/sparse/blocked-taat.js';
import { latencyStats } from './measure.js';
import { syntheticQueries, type CorpusProfile } from './synthetic.js';

type Arm = 'auto' | 'sparse';

export async function kernelMaxScoreAb(dir: string, profile: CorpusProfile, count: number, passes: number, method: 'bm25' | 'qld') {
  const loadAvgAtStart = loadavg();
  const index = await openSparseIndex(dir);
  const qs = syntheticQueries({ count, seed: 42, profile, shape: 'agent' });
  const reqs: ScoreRequest[] = qs.map((q) => {
    const { ids, counts } = queryTerms(index, q);
    return method === 'bm25' ? { method, k1: 0.9, b: 0.4, ids, counts, k: 10 } : { method, variant: 'textbook', mu: 2000, ids, counts, k: 10 };
  });
  const run = (arm: Arm, req: ScoreRequest) => {
    blockedPruning.sparseCandidates = arm === 'sparse';
    try {
      const c = process.cpuUsage();
      const t0 = performance.now();
      const r = scoreTopK(index.view, req, 'auto');
      const wall = performance.now() - t0;
      const d = process.cpuUsage(c);
      return { r, cpu: (d.user + d.system) / 1000, wall };
    } finally {
      blockedPruning.sparseCandidates = false;
    }
  };
  // Warm pass: every list decoded, the arms checked equal.
  reqs.forEach((req, i) => {
    const a = run('auto', req);
    const s = run('sparse', req);
    if (JSON.stringify(a.r) !== JSON.stringify(s.r)) throw new Error(`query ${i}: sparseCandidates ranks differently from 'auto'`);
  });
  const cpu: Record<Arm, number[]> = { auto: [], sparse: [] };
  const wall: Record<Arm, number[]> = { auto: [], sparse: [] };
  const pruned: number[] = [];
  const cands: number[] = [];
  const pairRatio: number[] = [];
  for (let p = 0; p < passes; p++)
    reqs.forEach((req, i) => {
      const order: Arm[] = (i + p) % 2 === 0 ? ['auto', 'sparse'] : ['sparse', 'auto'];
      const got: Partial<Record<Arm, number>> = {};
      for (const arm of order) {
        const x = run(arm, req);
        cpu[arm].push(x.cpu);
        wall[arm].push(x.wall);
        got[arm] = x.cpu;
        if (arm === 'sparse') {
          pruned.push(blockedStats.prunedBlocks);
          cands.push(blockedStats.candidates);
        }
      }
      if (got.auto! > 0) pairRatio.push(got.sparse! / got.auto!);
    });
  const stats = (a: number[]) => {
    const s = latencyStats(a);
    return { p50Ms: s.p50Ms, p95Ms: s.p95Ms };
  };
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const ca = stats(cpu.auto);
  const cs = stats(cpu.sparse);
  return {
    dir,
    profile,
    N: index.N,
    method,
    queries: count,
    passes,
    auto: { cpu: ca, wall: stats(wall.auto) },
    sparse: { cpu: cs, wall: stats(wall.sparse) },
    cpuRatioSparseToAuto: { p50: Math.round((cs.p50Ms / ca.p50Ms) * 100) / 100, p95: Math.round((cs.p95Ms / ca.p95Ms) * 100) / 100 },
    medianPairCpuRatio: Math.round(median(pairRatio) * 100) / 100,
    sparseMedianPrunedBlocks: median(pruned),
    sparseMedianCandidates: median(cands),
    blocks: Math.ceil(index.N / 16384),
    loadAvgAtStart,
    loadAvgAtEnd: loadavg(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [dir, profile, n, passes, method] = process.argv.slice(2);
  kernelMaxScoreAb(resolve(dir), (profile ?? 'bench') as CorpusProfile, Number(n ?? 100), Number(passes ?? 3), method === 'qld' ? 'qld' : 'bm25')
    .then((r) => {
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(`kernel-maxscore-ab failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
