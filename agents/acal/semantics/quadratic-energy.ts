/**
 * Quadratic-energy (QE) gradual semantics of Potyka (KR 2018), as written in the ACAL paper
 * (eqs. 3.4–3.6): E_j = Σ σ(supporters) − Σ σ(attackers); h(x) = max(x,0)² / (1 + max(x,0)²);
 * σ_j = τ_j + (1 − τ_j)·h(E_j) − τ_j·h(−E_j). Exact in topological order on acyclic graphs;
 * on cyclic ones the limit of the continuous model dσ/dt = f(σ) − σ from σ(0) = τ (iterate.ts).
 */
import { indexQbaf } from './graph-index.js';
import { evaluateLocal } from './iterate.js';
import type { Qbaf, SemanticsOptions, SemanticsResult } from './types.js';

export const h = (x: number): number => {
  const p = Math.max(x, 0);
  return (p * p) / (1 + p * p);
};

export function quadraticEnergyUpdate(base: number, supporters: number[], attackers: number[]): number {
  let e = 0;
  for (const s of supporters) e += s;
  for (const a of attackers) e -= a;
  return e > 0 ? base + h(e) * (1 - base) : base - h(-e) * base;
}

export function quadraticEnergy(qbaf: Qbaf, opts: SemanticsOptions = {}): SemanticsResult {
  return evaluateLocal(indexQbaf(qbaf), 'quadratic', quadraticEnergyUpdate, {
    tolerance: opts.tolerance ?? 1e-9,
    maxIterations: opts.maxIterations,
  });
}
