/** Reciprocal-rank fusion (Cormack et al. 2009): score(d) = Σ_runs 1 / (k + rank_run(d)), k = 60. */
import type { Hit } from '../../retrieval/types.js';

export function rrfFuse(runs: Hit[][], k = 60): Hit[] {
  const scores = new Map<string, number>();
  for (const run of runs) for (const h of run) scores.set(h.id, (scores.get(h.id) ?? 0) + 1 / (k + h.rank));
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([id, score], i) => ({ id, score, rank: i + 1 }));
}
