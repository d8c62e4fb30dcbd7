/**
 * `acal-compat`: reproduces the update that the public ACAL code (github.com/loc110504/ACAL,
 * qbaf_scorer.py, `_compute_quadratic_energy`, commit ffb0e67) actually runs under the name
 * "quadratic_energy". It is NOT Potyka's QE semantics; it is kept so results can be compared
 * with the published system. Re-implemented from its description, not copied:
 *
 *   σ⁰ = τ;  each sweep (synchronous, all nodes at once):
 *   g_j = 2(σ_j − τ_j) + mean σ(attackers of j) − mean σ(supporters of j)   (mean of none = 0)
 *   σ_j ← clamp₀¹(σ_j − 0.1·g_j)
 *   stop after the first sweep whose max |Δσ| < 0.001, or after 100 sweeps.
 *
 * Differences from the paper's QE (eqs. 3.4–3.6): supporters and attackers are AVERAGED rather
 * than summed, there is no h(·) saturation (its fixed point is σ = τ + (mean sup − mean att)/2,
 * clamped), the result is clamped rather than bounded by construction, and iteration stops at a
 * loose tolerance, so even acyclic graphs get an approximate value. Averaging also breaks
 * monotonicity: adding a supporter weaker than the current supporters' mean LOWERS the target.
 */
import { indexQbaf } from './graph-index.js';
import type { Qbaf, SemanticsOptions, SemanticsResult } from './types.js';

export const ACAL_COMPAT = { learningRate: 0.1, tolerance: 0.001, maxIterations: 100 } as const;

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function acalCompat(qbaf: Qbaf, opts: SemanticsOptions = {}): SemanticsResult {
  const g = indexQbaf(qbaf);
  const tolerance = opts.tolerance ?? ACAL_COMPAT.tolerance;
  const maxIterations = opts.maxIterations ?? ACAL_COMPAT.maxIterations;
  let s = new Map(g.ids.map((id) => [id, g.base.get(id)!]));
  let iterations = 0;
  let change = Infinity;
  while (iterations < maxIterations) {
    const next = new Map<string, number>();
    change = 0;
    for (const id of g.ids) {
      const cur = s.get(id)!;
      const grad = 2 * (cur - g.base.get(id)!) + mean(g.attackers.get(id)!.map((x) => s.get(x)!)) - mean(g.supporters.get(id)!.map((x) => s.get(x)!));
      const v = Math.max(0, Math.min(1, cur - ACAL_COMPAT.learningRate * grad));
      change = Math.max(change, Math.abs(v - cur));
      next.set(id, v);
    }
    s = next;
    iterations++;
    if (change < tolerance) break;
  }
  const strengths: Record<string, number> = Object.create(null); // ids like "constructor" are ids, not prototype names
  for (const id of g.ids) strengths[id] = s.get(id)!;
  return {
    semantics: 'acal-compat',
    strengths,
    method: 'fixed-point',
    converged: change < tolerance,
    iterations,
    residual: change,
  };
}
