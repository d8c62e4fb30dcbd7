/**
 * Recall@k curve points with their 95% intervals (eval/stats: Wilson where every query's recall is
 * 0/1, else a seeded percentile bootstrap; below n = 10 a point has no band and its tooltip says
 * "none (n < 10)", as no bootstrap interval is given) from per-query gold ranks (eval/retrieval-eval.ts
 * keeps, per query, the 1-based rank of every gold passage found within the retrieved depth).
 * A query's Recall@k is |gold ranks ≤ k| / |gold ids|, averaged over queries; k runs over a
 * log-spaced grid up to the retrieved depth.
 */
import type { BootstrapOptions } from '../bootstrap.js';
import { perItemInterval } from '../stats/index.js';
import type { CurvePoint } from './specs.js';

export const CURVE_KS = [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000];

export interface RankedQuery {
  /** Number of gold ids of the query. */
  gold: number;
  /** 1-based ranks of the gold passages found (within depth). */
  ranks: number[];
}

export function queryRecallAt(q: RankedQuery, k: number): number {
  return q.gold === 0 ? 0 : q.ranks.filter((r) => r <= k).length / q.gold;
}

export function recallCurve(
  method: string,
  queries: RankedQuery[],
  depth: number,
  opts: Omit<BootstrapOptions, 'level'> & { ks?: number[] } = {},
): CurvePoint[] {
  const ks = (opts.ks ?? CURVE_KS).filter((k) => k <= depth);
  return ks.map((k) => {
    const ci = perItemInterval(
      queries.map((q) => queryRecallAt(q, k)),
      { iterations: opts.iterations, seed: opts.seed },
    );
    return { method, k, recall: ci.estimate, lo: ci.lo, hi: ci.hi, ...(ci.missing ? { missing: ci.missing } : {}) };
  });
}
