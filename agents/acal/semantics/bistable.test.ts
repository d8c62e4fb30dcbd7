import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeStrengths } from './index.js';
import type { Qbaf } from './types.js';

// A bistable ACAL-shaped graph (fixtures/bistable-qbaf.json says how it was generated).
const q = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/bistable-qbaf.json'), 'utf8')) as Qbaf;

// Independent reference, written from the paper's equations (3.4–3.6) without the product's code:
// E_j = Σσ(sup) − Σσ(att); σ_j = τ_j + (1 − τ_j)h(E) if E > 0, else τ_j − τ_j h(−E); h(x) = x²/(1+x²).
function qe(s: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of q.nodes) {
    let e = 0;
    for (const ed of q.edges) if (ed.to === n.id) e += (ed.kind === 'support' ? 1 : -1) * s[ed.from];
    const hx = (x: number) => (x * x) / (1 + x * x);
    out[n.id] = e > 0 ? n.base + (1 - n.base) * hx(e) : n.base - n.base * hx(-e);
  }
  return out;
}
const residual = (s: Record<string, number>) => Math.max(...q.nodes.map((n) => Math.abs(qe(s)[n.id] - s[n.id])));
const tau = () => Object.fromEntries(q.nodes.map((n) => [n.id, n.base]));

/** Explicit Euler with a small step: the trajectory of dσ/dt = f(σ) − σ from τ. */
function euler(dt = 5e-3): Record<string, number> {
  let s = tau();
  for (let i = 0; i < 2_000_000 && residual(s) > 1e-11; i++) {
    const f = qe(s);
    s = Object.fromEntries(q.nodes.map((n) => [n.id, s[n.id] + dt * (f[n.id] - s[n.id])]));
  }
  return s;
}

/** Plain fixed-point iteration σ ← f(σ) from τ (what lexcase ran before). */
function plain(): Record<string, number> {
  let s = tau();
  for (let i = 0; i < 10_000 && residual(s) > 1e-12; i++) s = qe(s);
  return s;
}

describe('QE on a bistable cyclic graph: the continuous model from τ, not plain iteration', () => {
  it('lexcase returns the equilibrium the continuous trajectory reaches (independent Euler integration)', () => {
    const r = computeStrengths(q, 'quadratic');
    expect(r.method).toBe('continuous');
    expect(r.converged).toBe(true);
    expect(r.residual).toBeLessThanOrEqual(1e-9);
    const ref = euler();
    for (const n of q.nodes) expect(Math.abs(r.strengths[n.id] - ref[n.id])).toBeLessThan(1e-7);
    expect(r.strengths.claim).toBeGreaterThan(0.9);
  });

  it('plain fixed-point iteration lands on a different equilibrium with the opposite verdict', () => {
    const p = plain();
    expect(residual(p)).toBeLessThan(1e-10); // a genuine equilibrium…
    expect(p.claim).toBeLessThan(0.1); // …of the other basin
    const r = computeStrengths(q, 'quadratic');
    expect(r.strengths.claim > 0.5).not.toBe(p.claim > 0.5);
  });
});
