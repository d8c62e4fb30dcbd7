/**
 * Property tests over random QBAFs. Monotonicity (adding a supporter never lowers the target,
 * adding an attacker never raises it) is proven for QE and DF-QuAD on ACYCLIC graphs, and is
 * checked here on acyclic graphs, and empirically on cyclic ones at converged fixed points (no
 * counterexample in 20,000 random graphs; not a theorem). acal-compat violates it (see
 * acal-compat.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeStrengths, SEMANTICS } from './index.js';
import type { Qbaf, QbafEdge } from './types.js';

const strength = fc.double({ min: 0, max: 1, noNaN: true });

/** Random QBAF with n nodes; acyclic when edges only go from a higher to a lower index. */
const qbafArb = (acyclic: boolean) =>
  fc.integer({ min: 1, max: 7 }).chain((n) =>
    fc
      .record({
        bases: fc.array(strength, { minLength: n, maxLength: n }),
        edges: fc.array(fc.record({ a: fc.nat(n - 1), b: fc.nat(n - 1), kind: fc.constantFrom('support' as const, 'attack' as const) }), { maxLength: 14 }),
      })
      .map(({ bases, edges }): Qbaf => {
        const seen = new Set<string>();
        const out: QbafEdge[] = [];
        for (const e of edges) {
          let [from, to] = [e.a, e.b];
          if (from === to) continue;
          if (acyclic && from < to) [from, to] = [to, from];
          const key = `${from}>${to}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ from: `n${from}`, to: `n${to}`, kind: e.kind });
        }
        return { nodes: bases.map((b, i) => ({ id: `n${i}`, base: b })), edges: out };
      }),
  );

describe('semantics properties', () => {
  for (const s of SEMANTICS) {
    it(`${s}: every strength stays in [0, 1] on arbitrary (cyclic) graphs`, () => {
      fc.assert(
        fc.property(qbafArb(false), (q) => {
          const r = computeStrengths(q, s);
          for (const v of Object.values(r.strengths)) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
          }
        }),
        { numRuns: 150 },
      );
    });
  }

  for (const s of ['quadratic', 'dfquad'] as const) {
    for (const kind of ['support', 'attack'] as const) {
      it(`${s}: adding ${kind === 'support' ? 'a supporter never lowers' : 'an attacker never raises'} the target (acyclic)`, () => {
        fc.assert(
          fc.property(qbafArb(true), strength, fc.nat(), (q, b, pick) => {
            const target = q.nodes[pick % q.nodes.length].id;
            const before = computeStrengths(q, s).strengths[target];
            const after = computeStrengths({ nodes: [...q.nodes, { id: 'new', base: b }], edges: [...q.edges, { from: 'new', to: target, kind }] }, s)
              .strengths[target];
            if (kind === 'support') expect(after).toBeGreaterThanOrEqual(before - 1e-12);
            else expect(after).toBeLessThanOrEqual(before + 1e-12);
          }),
          { numRuns: 200 },
        );
      });
    }
  }

  it('quadratic and dfquad: monotonicity also held on random CYCLIC graphs at converged fixed points (empirical, not a theorem)', () => {
    fc.assert(
      fc.property(qbafArb(false), strength, fc.nat(), fc.constantFrom('support' as const, 'attack' as const), (q, b, pick, kind) => {
        const target = q.nodes[pick % q.nodes.length].id;
        for (const s of ['quadratic', 'dfquad'] as const) {
          const r0 = computeStrengths(q, s);
          const r1 = computeStrengths({ nodes: [...q.nodes, { id: 'new', base: b }], edges: [...q.edges, { from: 'new', to: target, kind }] }, s);
          if (!r0.converged || !r1.converged) continue;
          const d = r1.strengths[target] - r0.strengths[target];
          if (kind === 'support') expect(d).toBeGreaterThanOrEqual(-1e-7);
          else expect(d).toBeLessThanOrEqual(1e-7);
        }
      }),
      { numRuns: 200 },
    );
  }, 180_000 /* seconds when idle; a non-converging cyclic graph runs to the iteration cap, slow on a loaded machine */);

  it('quadratic converges on random cyclic graphs (continuous-model residual < tolerance)', () => {
    fc.assert(
      fc.property(qbafArb(false), (q) => {
        const r = computeStrengths(q, 'quadratic');
        expect(r.converged).toBe(true);
        expect(r.residual).toBeLessThan(1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it('dfquad reports convergence honestly: converged ⇔ residual < tolerance (mutual support of near-0 bases crawls)', () => {
    fc.assert(
      fc.property(qbafArb(false), (q) => {
        const r = computeStrengths(q, 'dfquad', { maxIterations: 2000 });
        expect(r.converged).toBe(r.residual <= 1e-9);
        if (!r.converged) expect(r.iterations).toBe(2000); // the step cap
      }),
      { numRuns: 150 },
    );
    // the shrunk case fast-check found: dσ/dt = τ(1 − σ) has its equilibrium at 1 but approaches it at rate τ
    const slow = computeStrengths(
      {
        nodes: [
          { id: 'a', base: 1e-6 },
          { id: 'b', base: 1e-6 },
        ],
        edges: [
          { from: 'a', to: 'b', kind: 'support' },
          { from: 'b', to: 'a', kind: 'support' },
        ],
      },
      'dfquad',
      { maxIterations: 400 },
    );
    expect(slow.converged).toBe(false);
    expect(slow.iterations).toBe(400);
    expect(slow.residual).toBeGreaterThan(1e-9);
    expect(slow.strengths.a).toBeLessThan(0.01); // still far from the fixed point σ = 1
  });

  it('results are identical across repeated runs (deterministic)', () => {
    fc.assert(
      fc.property(qbafArb(false), (q) => {
        for (const s of SEMANTICS) expect(computeStrengths(q, s)).toEqual(computeStrengths(q, s));
      }),
      { numRuns: 50 },
    );
  });
});
