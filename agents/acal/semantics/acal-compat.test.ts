import { describe, expect, it } from 'vitest';
import { acalCompat } from './acal-compat.js';
import { quadraticEnergy } from './quadratic-energy.js';

describe("acal-compat (the public ACAL code's clamped averaged update)", () => {
  it('one supporter of 0.8: σ_t = 0.9 − 0.4·0.8^t, stopping after 21 sweeps at Δ < 0.001', () => {
    // sweep 1: g = 0 + 0 − 0.8 → 0.5 + 0.08; the gap to the fixed point τ + 0.8/2 = 0.9 shrinks by 0.8 per sweep
    const r = acalCompat({
      nodes: [
        { id: 'claim', base: 0.5 },
        { id: 'a', base: 0.8 },
      ],
      edges: [{ from: 'a', to: 'claim', kind: 'support' }],
    });
    expect(r.iterations).toBe(21);
    expect(r.converged).toBe(true);
    expect(r.strengths.claim).toBeCloseTo(0.9 - 0.4 * 0.8 ** 21, 12);
    // the faithful QE value for the same graph is much lower: 0.5 + h(0.8)·0.5
    expect(
      quadraticEnergy({
        nodes: [
          { id: 'claim', base: 0.5 },
          { id: 'a', base: 0.8 },
        ],
        edges: [{ from: 'a', to: 'claim', kind: 'support' }],
      }).strengths.claim,
    ).toBeCloseTo(0.5 + (0.64 / 1.64) * 0.5, 12);
  });

  it('averages supporters, so adding a weak supporter LOWERS the target (documented exception)', () => {
    const base = {
      nodes: [
        { id: 'claim', base: 0.5 },
        { id: 'a', base: 0.9 },
      ],
      edges: [{ from: 'a', to: 'claim', kind: 'support' as const }],
    };
    const before = acalCompat(base).strengths.claim; // → 0.5 + 0.9/2
    const after = acalCompat({
      nodes: [...base.nodes, { id: 'b', base: 0.1 }],
      edges: [...base.edges, { from: 'b', to: 'claim', kind: 'support' }],
    }).strengths.claim; // → 0.5 + 0.5/2
    expect(before).toBeCloseTo(0.95, 2);
    expect(after).toBeCloseTo(0.75, 2);
    expect(after).toBeLessThan(before);
  });

  it('clamps at 1 where the unclamped fixed point would exceed it', () => {
    const r = acalCompat({
      nodes: [
        { id: 'x', base: 0.9 },
        { id: 's', base: 1 },
      ],
      edges: [{ from: 's', to: 'x', kind: 'support' }],
    });
    expect(r.strengths.x).toBe(1);
  });
});
