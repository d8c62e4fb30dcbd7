/**
 * Shared evaluation for "local update" semantics σ_j = f_j(τ_j, σ(supporters), σ(attackers)).
 *
 * - Acyclic graph: one exact pass in topological order (every method agrees there).
 * - Cyclic graph: the limit of the continuous dynamical system dσ/dt = f(σ) − σ started from the
 *   base scores σ(0) = τ (Potyka, KR 2018; the strength ACAL's paper defines). It is integrated
 *   with classical RK4 at a step dt = 1/(1 + max in-degree), below the inverse Lipschitz bound of
 *   f − id for both QE (|∂f/∂σ| ≤ 0.65 per edge) and DF-QuAD (≤ 1 per edge), until the residual
 *   max |f(σ) − σ| ≤ tolerance.
 *
 * Plain fixed-point iteration σ ← f(σ) is NOT used on cycles: on bistable graphs its discrete
 * jumps can cross into the basin of another equilibrium (e.g. claim 0.05 instead of the
 * continuous model's 0.98; see semantics/bistable.test.ts). Non-convergence is reported, never
 * hidden.
 */
import type { GraphIndex } from './graph-index.js';
import type { SemanticsName, SemanticsResult } from './types.js';

export type LocalUpdate = (base: number, supporters: number[], attackers: number[]) => number;

/** Default step cap for the continuous model on cyclic graphs. */
export const CONTINUOUS_MAX_STEPS = 100_000;

export function evaluateLocal(g: GraphIndex, name: SemanticsName, update: LocalUpdate, opts: { tolerance: number; maxIterations?: number }): SemanticsResult {
  if (g.order) {
    const s = new Map<string, number>();
    for (const id of g.order) {
      const v = update(
        g.base.get(id)!,
        g.supporters.get(id)!.map((x) => s.get(x)!),
        g.attackers.get(id)!.map((x) => s.get(x)!),
      );
      s.set(id, v);
    }
    const strengths: Record<string, number> = Object.create(null); // ids like "constructor" are ids, not prototype names
    for (const id of g.ids) strengths[id] = s.get(id)!;
    return { semantics: name, strengths, method: 'topological', converged: true, iterations: 1, residual: 0 };
  }
  const r = integrateContinuous(g, update, opts.tolerance, opts.maxIterations ?? CONTINUOUS_MAX_STEPS);
  const strengths: Record<string, number> = Object.create(null);
  g.ids.forEach((id, i) => (strengths[id] = r.sigma[i]));
  return {
    semantics: name,
    strengths,
    method: 'continuous',
    converged: r.residual <= opts.tolerance,
    iterations: r.steps,
    residual: r.residual,
    stepSize: r.dt,
  };
}

interface Dense {
  base: Float64Array;
  sup: Int32Array[];
  att: Int32Array[];
}

function toDense(g: GraphIndex): Dense {
  const pos = new Map(g.ids.map((id, i) => [id, i]));
  return {
    base: Float64Array.from(g.ids, (id) => g.base.get(id)!),
    sup: g.ids.map((id) => Int32Array.from(g.supporters.get(id)!, (x) => pos.get(x)!)),
    att: g.ids.map((id) => Int32Array.from(g.attackers.get(id)!, (x) => pos.get(x)!)),
  };
}

/** dσ/dt = f(σ) − σ into `out`; returns max |f(σ) − σ|. */
function velocity(d: Dense, update: LocalUpdate, s: Float64Array, out: Float64Array): number {
  let residual = 0;
  for (let j = 0; j < s.length; j++) {
    const sup = Array.from(d.sup[j], (i) => s[i]);
    const att = Array.from(d.att[j], (i) => s[i]);
    const v = update(d.base[j], sup, att) - s[j];
    out[j] = v;
    if (Math.abs(v) > residual) residual = Math.abs(v);
  }
  return residual;
}

/** RK4 from σ(0) = τ until the residual is within tolerance or `maxSteps` steps were taken. */
export function integrateContinuous(
  g: GraphIndex,
  update: LocalUpdate,
  tolerance: number,
  maxSteps: number,
): { sigma: Float64Array; residual: number; steps: number; dt: number } {
  const d = toDense(g);
  const n = d.base.length;
  let maxIn = 0;
  for (let j = 0; j < n; j++) maxIn = Math.max(maxIn, d.sup[j].length + d.att[j].length);
  const dt = 1 / (1 + maxIn);
  let s = Float64Array.from(d.base);
  const k1 = new Float64Array(n),
    k2 = new Float64Array(n),
    k3 = new Float64Array(n),
    k4 = new Float64Array(n);
  const tmp = new Float64Array(n);
  let residual = velocity(d, update, s, k1);
  let steps = 0;
  while (residual > tolerance && steps < maxSteps) {
    for (let j = 0; j < n; j++) tmp[j] = s[j] + 0.5 * dt * k1[j];
    velocity(d, update, tmp, k2);
    for (let j = 0; j < n; j++) tmp[j] = s[j] + 0.5 * dt * k2[j];
    velocity(d, update, tmp, k3);
    for (let j = 0; j < n; j++) tmp[j] = s[j] + dt * k3[j];
    velocity(d, update, tmp, k4);
    const next = new Float64Array(n);
    for (let j = 0; j < n; j++) next[j] = s[j] + (dt / 6) * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    s = next;
    steps++;
    residual = velocity(d, update, s, k1);
  }
  return { sigma: s, residual, steps, dt };
}
