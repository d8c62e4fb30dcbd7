import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeStrengths } from '../semantics/index.js';
import { clashDeltas, findClashes } from './clash.js';
import { recompute, toQbaf } from './recompute.js';
import { parseGraph } from './store.js';
import type { AcalGraph } from './types.js';

import { loadSampleGraph as loadFixture } from './sample-graph.js';

const FIXTURE = new URL('../fixtures/hearsay-rebecca.graph.json', import.meta.url);

describe('argument graph → QBAF → verdict', () => {
  it('finds clashes only between opposite-side arguments that attack each other with |Δτ| < δ', () => {
    const g = loadFixture();
    // s1–a2 attack but differ by 0.4; s2–a1 attack and differ by 0.05; s1–a1 have no relation
    expect(findClashes(g.arguments, g.relations, 0.2)).toEqual([{ support: 's2', attack: 'a1' }]);
    expect(findClashes(g.arguments, g.relations, 0.5)).toEqual([
      { support: 's1', attack: 'a2' },
      { support: 's2', attack: 'a1' },
    ]);
  });

  it('applies Δτ = β(2w − 1): the clash winner gains β, the loser loses β', () => {
    const g = loadFixture();
    expect(clashDeltas(g)).toEqual({ a1: -0.15, s2: 0.15 });
    const w = clashDeltas({
      ...g,
      clash: {
        ...g.clash,
        outcomes: [
          { support: 's2', attack: 'a1', winner: 's2' },
          { support: 's1', attack: 'a2', winner: 'a2' },
          { support: 's2', attack: 'a2', winner: 'a2' },
        ],
      },
      relations: [...g.relations, { from: 's2', to: 'a2', kind: 'attack', confidence: 1, origin: 'human' }],
    });
    // s2 won 1 of 2 → 0; a2 won 2 of 2 → +β; s1 lost 1 of 1 → −β
    expect(w.s2).toBeCloseTo(0, 12);
    expect(w.a2).toBeCloseTo(0.15, 12);
    expect(w.s1).toBeCloseTo(-0.15, 12);
  });

  it('builds the QBAF with the claim at τ = 0.5, side edges to the claim and the adjusted bases', () => {
    const g = loadFixture();
    const { qbaf, effectiveBase } = toQbaf(g);
    expect(qbaf.nodes[0]).toEqual({ id: 'claim', base: 0.5 });
    expect(effectiveBase.s2).toBeCloseTo(0.75, 12);
    expect(effectiveBase.a1).toBeCloseTo(0.4, 12);
    expect(effectiveBase.s1).toBe(0.7);
    expect(qbaf.edges.filter((e) => e.to === 'claim')).toEqual([
      { from: 's1', to: 'claim', kind: 'support' },
      { from: 's2', to: 'claim', kind: 'support' },
      { from: 'a1', to: 'claim', kind: 'attack' },
      { from: 'a2', to: 'claim', kind: 'attack' },
    ]);
    expect(qbaf.edges).toHaveLength(4 + 6);
  });

  it('recomputes the verdict from the semantics: the supporting side wins this hearsay item', () => {
    const g = loadFixture();
    const r = recompute(g);
    expect(r.claimStrength).toBeCloseTo(computeStrengths(toQbaf(g).qbaf, 'quadratic').strengths.claim, 15);
    expect(r.claimStrength).toBeGreaterThan(0.51);
    expect(r).toMatchObject({ verdict: 'Yes', decidedBy: 'threshold', escalation: 'none', inBand: false, converged: true, method: 'continuous' });
  });

  it('a judge decision applies only inside the band and only to the revision it saw', () => {
    const g = loadFixture();
    const tied: AcalGraph = { ...g, arguments: g.arguments.map((a) => ({ ...a, status: 'rejected' as const })) };
    expect(recompute(tied)).toMatchObject({ claimStrength: 0.5, inBand: true, verdict: 'Yes', escalation: 'needed' });
    const judged = { ...tied, judge: { decision: 'No' as const, reasoning: 'r', claimStrength: 0.5, revision: 0 } };
    expect(recompute(judged)).toMatchObject({ verdict: 'No', decidedBy: 'judge', escalation: 'done' });
    expect(recompute({ ...judged, revision: 1 })).toMatchObject({ verdict: 'Yes', decidedBy: 'threshold', escalation: 'needed' });
  });

  it('rejects a malformed graph naming the field', () => {
    const bad = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    bad.arguments[1].baseStrength = 1.4;
    expect(() => parseGraph(bad, 'x.graph.json')).toThrow(/x.graph.json: argument graph field "arguments.1.baseStrength"/);
  });
});
