/**
 * DF-QuAD gradual semantics (Rago, Toni, Aurisicchio & Baroni, KR 2016):
 * F(v₁..vₙ) = 1 − Π(1 − vᵢ) (0 for none); with va = F(attackers), vs = F(supporters):
 * σ = τ − τ·(va − vs) if va ≥ vs, else τ + (1 − τ)·(vs − va).
 */
import { indexQbaf } from './graph-index.js';
import { evaluateLocal } from './iterate.js';
import type { Qbaf, SemanticsOptions, SemanticsResult } from './types.js';

/**
 * The product over the values in ascending order: floating-point multiplication is not associative,
 * so two sides holding the same strengths in another order could aggregate 1 ulp apart — a tie
 * (va = vs, σ = τ exactly, decided "Yes" by σ ≥ θ and counted as a tie) came out σ = 0.49999999999999994
 * and was decided "No", uncounted, depending only on the seeded argument order (14 of 220
 * three-against-three sets). Sorted, equal multisets give equal aggregates.
 */
export function dfquadAggregate(values: readonly number[]): number {
  let prod = 1;
  for (const v of [...values].sort((a, b) => a - b)) prod *= 1 - v;
  return 1 - prod;
}

export function dfquadUpdate(base: number, supporters: number[], attackers: number[]): number {
  const va = dfquadAggregate(attackers);
  const vs = dfquadAggregate(supporters);
  return va >= vs ? base - base * (va - vs) : base + (1 - base) * (vs - va);
}

export function dfQuad(qbaf: Qbaf, opts: SemanticsOptions = {}): SemanticsResult {
  return evaluateLocal(indexQbaf(qbaf), 'dfquad', dfquadUpdate, {
    tolerance: opts.tolerance ?? 1e-9,
    maxIterations: opts.maxIterations,
  });
}
