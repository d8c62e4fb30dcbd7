import { describe, expect, it } from 'vitest';
import { evidenceScoreVerdict } from './offline-solver.js';
import type { AdvocateResult } from './types.js';

function advocate(letter: string, bm25: number): AdvocateResult {
  return {
    hypothesis: { letter, text: `option ${letter}` } as AdvocateResult['hypothesis'],
    stance: 'for',
    evidence: [],
    toolCalls: [],
    rejectedIds: [],
    steps: 0,
    stop: 'offline',
    tokens: 0,
    retrievalScores: { bm25 },
  };
}

describe('the offline evidence-score solver', () => {
  it('picks the highest normalised score without a draw', () => {
    const v = evidenceScoreVerdict([advocate('A', 1), advocate('B', 5), advocate('C', 3)], 3);
    expect(v).toMatchObject({ answer: 'B', confidence: 'offline' });
    expect(v.tieBreak).toBeUndefined();
  });
  it("an exact tie is the item seed's recorded draw among the tied letters, not the lowest letter (before: A every time)", () => {
    const tiedItem = (seed: number) => evidenceScoreVerdict([advocate('A', 4), advocate('B', 4), advocate('C', 1), advocate('D', 4)], seed);
    const v = tiedItem(11);
    expect(v).toMatchObject({ confidence: 'tie', tieBreak: { tied: ['A', 'B', 'D'], by: 'seeded-draw' } });
    expect(v.tieBreak!.draw).toMatchObject({ kind: 'tie-break', seed: expect.any(Number) });
    expect(v.answer).toBe(v.tieBreak!.draw!.order[0]);
    expect(tiedItem(11).answer).toBe(v.answer);
    const wins: Record<string, number> = { A: 0, B: 0, C: 0, D: 0 };
    for (let seed = 0; seed < 300; seed++) wins[tiedItem(seed).answer!]++;
    expect(wins.C).toBe(0);
    for (const l of ['A', 'B', 'D']) expect(wins[l]).toBeGreaterThan(70);
  });
});
