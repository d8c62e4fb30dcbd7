/**
 * Shared evaluation for "local update" semantics σ_j = f_j(τ_j, σ(supporters), σ(attackers)):
 * one exact pass in topological order when the graph is acyclic, otherwise synchronous
 * (Jacobi) fixed-point iteration σ ← σ + d·(f(σ) − σ). Plain iteration (d = 1) is tried first;
 * if it does not settle, the same fixed point is sought with damping d = 1/2, 1/4, 1/8
 * (explicit Euler steps of the continuous dynamical system dσ/dt = f(σ) − σ, whose equilibria
 * are exactly the fixed points). Non-convergence is reported, never hidden.
 */
import type { GraphIndex } from './graph-index.js';
import type { SemanticsName, SemanticsResult } from './types.js';

export type LocalUpdate = (base: number, supporters: number[], attackers: number[]) => number;

export function evaluateLocal(
  g: GraphIndex,
  name: SemanticsName,
  update: LocalUpdate,
  opts: { tolerance: number; maxIterations: number },
): SemanticsResult {
  const f = (s: Map<string, number>, id: string) =>
    update(
      g.base.get(id)!,
      g.supporters.get(id)!.map((x) => s.get(x)!),
      g.attackers.get(id)!.map((x) => s.get(x)!),
    );
  if (g.order) {
    const s = new Map<string, number>();
    for (const id of g.order) s.set(id, f(s, id));
    return { semantics: name, strengths: toRecord(g.ids, s), method: 'topological', converged: true, iterations: 1, residual: 0 };
  }
  let total = 0;
  let last: { s: Map<string, number>; residual: number; damping: number } | undefined;
  for (const damping of [1, 0.5, 0.25, 0.125]) {
    let s = new Map(g.ids.map((id) => [id, g.base.get(id)!]));
    let residual = Infinity;
    for (let it = 0; ; it++) {
      const target = new Map(g.ids.map((id) => [id, f(s, id)]));
      residual = Math.max(...g.ids.map((id) => Math.abs(target.get(id)! - s.get(id)!)));
      if (residual < opts.tolerance || it === opts.maxIterations) break;
      total++;
      s = new Map(g.ids.map((id) => [id, s.get(id)! + damping * (target.get(id)! - s.get(id)!)]));
    }
    last = { s, residual, damping };
    if (residual < opts.tolerance) break;
  }
  return {
    semantics: name,
    strengths: toRecord(g.ids, last!.s),
    method: 'fixed-point',
    converged: last!.residual < opts.tolerance,
    iterations: total,
    residual: last!.residual,
    damping: last!.damping,
  };
}

function toRecord(ids: string[], s: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const id of ids) out[id] = s.get(id)!;
  return out;
}
