/**
 * What dynamic pruning buys, on one index (a `--scale --keep` index):
 *
 *   node dist/bench/prune-ab.js INDEX_DIR PROFILE [QUERIES]
 *
 * Scores each query shape of the profile on the calling thread (whole doc range) with the 'auto'
 * in four arms, their order rotated per query (same process, same warm lists):
 * `blockMax` (strategy 'blockmax': block-max MaxScore over doc windows, block-max.ts, for k ≤ 100;
 * 'auto' above), `blocked` ('auto': blocked TAAT with its pruning across blocks, or MaxScore for
 * sparse queries), `noPruning` ('auto' with blocked TAAT's pruning off) and `compactCandidates`
 * ('auto' with blocked TAAT leaving compact lists, not only dense ones, to its candidates:
 * docs/notes/2026-11-29-compact-candidates.md).
 * Checks that all four rank the same docs with the same scores and prints per-query wall and CPU
 * p50/p95 of each, and the ratios to `blockMax`, as JSON. Plain MaxScore ('maxscore') is timed beside them.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK, type ScoreRequest, type Strategy } from '../retrieval/sparse/score-core.js';
import { blockedPruning } from '../retrieval/sparse/blocked-taat.js';
import { BLOCK_MAX_MAX_K, blockMaxStats } from '../retrieval/sparse/block-max.js';
import { latencyStats } from './measure.js';
import { shapesFor } from './scale-child.js';
import { syntheticQueries, type CorpusProfile } from './synthetic.js';

type Arm = 'blockMax' | 'blocked' | 'noPruning' | 'compactCandidates' | 'maxscore';
const ARMS: Arm[] = ['blockMax', 'blocked', 'noPruning', 'compactCandidates'];

export async function pruneAb(dir: string, profile: CorpusProfile, count: number) {
  const index = await openSparseIndex(dir);
  const out: Record<string, unknown>[] = [];
  const loadAtStart = loadavg();
  for (const sh of shapesFor(profile)) {
    const qs = syntheticQueries({ count: count + 2, seed: 42, profile, shape: sh.shape === 'agent' ? 'agent' : 'long' });
    for (const method of ['bm25', 'qld'] as const) {
      const cpu: Record<Arm, number[]> = { blockMax: [], blocked: [], noPruning: [], compactCandidates: [], maxscore: [] };
      const wall: Record<Arm, number[]> = { blockMax: [], blocked: [], noPruning: [], compactCandidates: [], maxscore: [] };
      let skipped = 0;
      let windows = 0;
      qs.forEach((q, i) => {
        const { ids, counts } = queryTerms(index, q);
        const req: ScoreRequest =
          method === 'bm25' ? { method, k1: 0.9, b: 0.4, ids, counts, k: sh.k } : { method, variant: 'textbook', mu: 2000, ids, counts, k: sh.k };
        const time = (arm: Arm) => {
          blockedPruning.enabled = arm !== 'noPruning';
          blockedPruning.compactCandidates = arm === 'compactCandidates';
          const s: Strategy = arm === 'maxscore' ? 'maxscore' : arm === 'blockMax' && sh.k <= BLOCK_MAX_MAX_K ? 'blockmax' : 'auto';
          const c = process.cpuUsage();
          const t0 = performance.now();
          const r = scoreTopK(index.view, req, s);
          const w = performance.now() - t0;
          const d = process.cpuUsage(c);
          if (arm === 'blockMax' && sh.k <= 100) (skipped += blockMaxStats.skippedWindows), (windows += blockMaxStats.windows);
          return { r: JSON.stringify(r), cpu: (d.user + d.system) / 1000, wall: w };
        };
        const order = ARMS.map((_, x) => ARMS[(x + i) % ARMS.length]);
        const res = order.map((arm) => ({ arm, ...time(arm) }));
        for (const x of res) if (x.r !== res[0].r) throw new Error(`${x.arm} and ${res[0].arm} rank query ${i} differently`);
        const m = time('maxscore');
        if (m.r !== res[0].r) throw new Error(`MaxScore changed the ranking of query ${i}`);
        if (i < 2) return;
        for (const x of [...res, { arm: 'maxscore' as Arm, ...m }]) {
          cpu[x.arm].push(x.cpu);
          wall[x.arm].push(x.wall);
        }
      });
      blockedPruning.enabled = true;
      blockedPruning.compactCandidates = false;
      const stats = (a: number[]) => {
        const s = latencyStats(a);
        return { p50Ms: s.p50Ms, p95Ms: s.p95Ms };
      };
      const arms: Record<string, unknown> = {};
      for (const a of [...ARMS, 'maxscore' as Arm]) arms[a] = { cpu: stats(cpu[a]), wall: stats(wall[a]) };
      const ratio = (a: Arm, w: Record<Arm, number[]>) => {
        const x = stats(w[a]);
        const y = stats(w.blockMax);
        return { p50: Math.round((x.p50Ms / y.p50Ms) * 100) / 100, p95: Math.round((x.p95Ms / y.p95Ms) * 100) / 100 };
      };
      out.push({
        shape: sh.shape,
        k: sh.k,
        method,
        ...arms,
        // How many times slower than block-max each other arm is (CPU and wall, p50 and p95).
        cpuRatioToBlockMax: { blocked: ratio('blocked', cpu), noPruning: ratio('noPruning', cpu), compactCandidates: ratio('compactCandidates', cpu) },
        wallRatioToBlockMax: { blocked: ratio('blocked', wall), noPruning: ratio('noPruning', wall), compactCandidates: ratio('compactCandidates', wall) },
        skippedWindowShare: windows ? Math.round((skipped / windows) * 1000) / 1000 : null,
      });
    }
  }
  return { dir, profile, N: index.N, queries: count, loadAvgAtStart: loadAtStart, loadAvgAtEnd: loadavg(), results: out };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [dir, profile, n] = process.argv.slice(2);
  pruneAb(resolve(dir), (profile ?? 'bench') as CorpusProfile, Number(n ?? 50))
    .then((r) => {
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(`prune-ab failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
