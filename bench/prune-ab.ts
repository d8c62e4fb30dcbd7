/**
 * What blocked TAAT's pruning across blocks buys, on one index (a `--scale --keep` index):
 *
 *   node dist/bench/prune-ab.js INDEX_DIR PROFILE [QUERIES]
 *
 * Scores each query shape of the profile on the calling thread (whole doc range) with the 'auto'
 * strategy, pruning on and off alternately per query (same process, same warm lists), checks
 * that both rank the same docs with the same scores, and prints per-query CPU p50/p95 of each as
 * JSON. Plain MaxScore ('maxscore') is timed beside them.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK, type ScoreRequest, type Strategy } from '../retrieval/sparse/score-core.js';
import { blockedPruning, blockedStats } from '../retrieval/sparse/blocked-taat.js';
import { latencyStats } from './measure.js';
import { shapesFor } from './scale-child.js';
import { syntheticQueries, type CorpusProfile } from './synthetic.js';

export async function pruneAb(dir: string, profile: CorpusProfile, count: number) {
  const index = await openSparseIndex(dir);
  const out: Record<string, unknown>[] = [];
  for (const sh of shapesFor(profile)) {
    const qs = syntheticQueries({ count: count + 2, seed: 42, profile, shape: sh.shape === 'agent' ? 'agent' : 'long' });
    for (const method of ['bm25', 'qld'] as const) {
      const t: Record<string, number[]> = { on: [], off: [], maxscore: [] };
      let pruned = 0;
      let blocks = 0;
      qs.forEach((q, i) => {
        const { ids, counts } = queryTerms(index, q);
        const req: ScoreRequest = method === 'bm25' ? { method, k1: 0.9, b: 0.4, ids, counts, k: sh.k } : { method, variant: 'textbook', mu: 2000, ids, counts, k: sh.k };
        const time = (s: Strategy, on: boolean) => {
          blockedPruning.enabled = on;
          const c = process.cpuUsage();
          const r = scoreTopK(index.view, req, s);
          const d = process.cpuUsage(c);
          return { r, ms: (d.user + d.system) / 1000 };
        };
        const order = i % 2 ? [true, false] : [false, true];
        const a = time('auto', order[0]);
        if (order[0]) (pruned += blockedStats.prunedBlocks), (blocks += blockedStats.prunedBlocks + blockedStats.fallbackBlocks);
        const b = time('auto', order[1]);
        if (order[1]) (pruned += blockedStats.prunedBlocks), (blocks += blockedStats.prunedBlocks + blockedStats.fallbackBlocks);
        if (JSON.stringify(a.r) !== JSON.stringify(b.r)) throw new Error(`pruning changed the ranking of query ${i}`);
        const m = time('maxscore', true);
        if (JSON.stringify(m.r) !== JSON.stringify(a.r)) throw new Error(`MaxScore changed the ranking of query ${i}`);
        if (i < 2) return;
        t[order[0] ? 'on' : 'off'].push(a.ms);
        t[order[1] ? 'on' : 'off'].push(b.ms);
        t.maxscore.push(m.ms);
      });
      blockedPruning.enabled = true;
      const cpu = (a: number[]) => {
        const s = latencyStats(a);
        return { p50Ms: s.p50Ms, p95Ms: s.p95Ms };
      };
      out.push({ shape: sh.shape, k: sh.k, method, auto: cpu(t.on), autoNoPruning: cpu(t.off), maxscore: cpu(t.maxscore), prunedBlockShare: blocks ? Math.round((pruned / blocks) * 100) / 100 : 0 });
    }
  }
  return { dir, profile, N: index.N, queries: count, loadAvg: loadavg(), results: out };
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
