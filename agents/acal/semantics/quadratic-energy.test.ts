import { describe, expect, it } from 'vitest';
import { h, quadraticEnergy } from './quadratic-energy.js';
import type { Qbaf } from './types.js';

const node = (id: string, base: number) => ({ id, base });

describe('quadratic-energy semantics (Potyka 2018, ACAL eqs. 3.4–3.6)', () => {
  it('h is the quadratic impact function and is 0 for non-positive energy', () => {
    expect(h(0)).toBe(0);
    expect(h(-3)).toBe(0);
    expect(h(1)).toBeCloseTo(0.5, 12);
    expect(h(2)).toBeCloseTo(0.8, 12);
  });

  it('claim with one supporter and one attacker: E = 0.8 − 0.6, σ = 0.5 + h(0.2)·0.5', () => {
    const q: Qbaf = {
      nodes: [node('claim', 0.5), node('a', 0.8), node('b', 0.6)],
      edges: [
        { from: 'a', to: 'claim', kind: 'support' },
        { from: 'b', to: 'claim', kind: 'attack' },
      ],
    };
    const r = quadraticEnergy(q);
    expect(r.method).toBe('topological');
    // h(0.2) = 0.04 / 1.04
    expect(r.strengths.claim).toBeCloseTo(0.5 + (0.04 / 1.04) * 0.5, 12);
    expect(r.strengths.a).toBe(0.8);
    expect(r.strengths.b).toBe(0.6);
  });

  it('a chain is evaluated in topological order (attacked supporter weakens before it supports)', () => {
    const q: Qbaf = {
      nodes: [node('claim', 0.5), node('a', 0.8), node('b', 0.6)],
      edges: [
        { from: 'b', to: 'a', kind: 'attack' },
        { from: 'a', to: 'claim', kind: 'support' },
      ],
    };
    const r = quadraticEnergy(q);
    const sa = 0.8 - (0.36 / 1.36) * 0.8; // 0.588235…
    expect(r.strengths.a).toBeCloseTo(sa, 12);
    expect(r.strengths.claim).toBeCloseTo(0.5 + ((sa * sa) / (1 + sa * sa)) * 0.5, 12);
    expect(r.strengths.claim).toBeCloseTo(0.62853, 5);
  });

  it('mutual support cycle settles at the root of σ³ − σ² + σ − 0.5 = 0 (σ ≈ 0.64780)', () => {
    // σ = 0.5 + 0.5·σ²/(1+σ²)  ⇔  σ³ − σ² + σ − 0.5 = 0
    const r = quadraticEnergy({
      nodes: [node('a', 0.5), node('b', 0.5)],
      edges: [
        { from: 'a', to: 'b', kind: 'support' },
        { from: 'b', to: 'a', kind: 'support' },
      ],
    });
    expect(r.method).toBe('continuous');
    expect(r.converged).toBe(true);
    const s = r.strengths.a;
    expect(s ** 3 - s ** 2 + s - 0.5).toBeCloseTo(0, 8);
    expect(s).toBeCloseTo(0.6478, 4);
    expect(r.strengths.b).toBeCloseTo(s, 9);
  });

  it('mutual attack cycle settles at the root of σ³ + σ − 0.5 = 0 (σ ≈ 0.42385), feeding the claim', () => {
    const r = quadraticEnergy({
      nodes: [node('claim', 0.5), node('a', 0.5), node('b', 0.5)],
      edges: [
        { from: 'a', to: 'b', kind: 'attack' },
        { from: 'b', to: 'a', kind: 'attack' },
        { from: 'a', to: 'claim', kind: 'support' },
        { from: 'b', to: 'claim', kind: 'attack' },
      ],
    });
    const s = r.strengths.a;
    expect(s ** 3 + s - 0.5).toBeCloseTo(0, 8);
    expect(s).toBeCloseTo(0.42385, 4);
    // symmetric sides cancel: E(claim) = 0
    expect(r.strengths.claim).toBeCloseTo(0.5, 9);
    expect(r.iterations).toBeGreaterThan(1);
    expect(r.residual).toBeLessThan(1e-9);
  });

  it('reports non-convergence with the iteration count and residual when capped', () => {
    const r = quadraticEnergy(
      {
        nodes: [node('a', 0.9), node('b', 0.2), node('c', 0.7)],
        edges: [
          { from: 'a', to: 'b', kind: 'support' },
          { from: 'b', to: 'c', kind: 'attack' },
          { from: 'c', to: 'a', kind: 'support' },
        ],
      },
      { maxIterations: 2 },
    );
    expect(r.converged).toBe(false);
    expect(r.iterations).toBe(2); // the step cap
    expect(r.residual).toBeGreaterThan(1e-9);
  });

  it('rejects a base strength outside [0, 1] and edges to unknown nodes, naming the field', () => {
    expect(() => quadraticEnergy({ nodes: [node('a', 1.2)], edges: [] })).toThrow(/qbaf.nodes\[0\].base/);
    expect(() => quadraticEnergy({ nodes: [node('a', 0.2)], edges: [{ from: 'x', to: 'a', kind: 'support' }] })).toThrow(
      /qbaf.edges\[0\].from: unknown node "x"/,
    );
  });
});
