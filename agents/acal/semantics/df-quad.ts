/**
 * DF-QuAD gradual semantics (Rago, Toni, Aurisicchio & Baroni, KR 2016):
 * F(v₁..vₙ) = 1 − Π(1 − vᵢ) (0 for none); with va = F(attackers), vs = F(supporters):
 * σ = τ − τ·(va − vs) if va ≥ vs, else τ + (1 − τ)·(vs − va).
 */
import { indexQbaf } from './graph-index.js';
import { evaluateLocal } from './iterate.js';
import type { Qbaf, SemanticsOptions, SemanticsResult } from './types.js';

export function dfquadAggregate(values: number[]): number {
  let prod = 1;
  for (const v of values) prod *= 1 - v;
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
