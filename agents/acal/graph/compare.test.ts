import { describe, expect, it } from 'vitest';
import { h } from '../semantics/quadratic-energy.js';
import { compareSemantics } from './compare.js';
import { recompute } from './recompute.js';
import { loadSampleGraph } from './sample-graph.js';

describe('the same graph under QE, DF-QuAD and acal-compat', () => {
  it('QE sums neighbour strengths through h; acal-compat averages them without h (and stops at Δ < 0.001)', () => {
    const g = loadSampleGraph();
    const [qe, df, compat] = compareSemantics(g);
    expect([qe.semantics, df.semantics, compat.semantics]).toEqual(['quadratic', 'dfquad', 'acal-compat']);

    const rq = recompute(g);
    const sum = rq.strengths.s1 + rq.strengths.s2 - rq.strengths.a1 - rq.strengths.a2;
    expect(qe.claimStrength).toBeCloseTo(sum > 0 ? 0.5 + 0.5 * h(sum) : 0.5 - 0.5 * h(-sum), 8); // fixed point to 1e-9

    const rc = recompute({ ...g, settings: { ...g.settings, semantics: 'acal-compat' } });
    const meanDiff = (rc.strengths.s1 + rc.strengths.s2) / 2 - (rc.strengths.a1 + rc.strengths.a2) / 2;
    // compat's fixed point: σ = τ + (mean sup − mean att)/2, clamped; reached only to its loose tolerance
    expect(Math.abs(compat.claimStrength - Math.min(1, 0.5 + meanDiff / 2))).toBeLessThan(0.01);

    // on this graph all three say Yes, but acal-compat is far more extreme than QE
    expect(new Set([qe, df, compat].map((x) => x.thresholdVerdict))).toEqual(new Set(['Yes']));
    expect(qe.claimStrength).toBeCloseTo(0.7872, 4);
    expect(compat.claimStrength).toBeGreaterThan(0.99);
  });
});
