import { describe, expect, it } from 'vitest';
import { majorityVote } from './majority-vote.js';
import { evidenceScoreByLetter } from './trace-view.js';
import type { AdvocateResult } from './types.js';

const L = ['A', 'B', 'C', 'D'];

describe('majorityVote', () => {
  it('unanimous panel → high confidence', () => {
    expect(majorityVote(['B', 'B', 'B'], L)).toMatchObject({ answer: 'B', confidence: 'high', tally: { A: 0, B: 3, C: 0, D: 0 } });
  });
  it('2–1 → low confidence for the majority letter', () => {
    expect(majorityVote(['C', 'A', 'C'], L)).toMatchObject({ answer: 'C', confidence: 'low' });
  });
  it('2–0 with an abstention is a majority but not unanimous → low', () => {
    expect(majorityVote(['D', null, 'D'], L)).toMatchObject({ answer: 'D', confidence: 'low' });
  });
  it('1–1–1 is broken by summed evidence score', () => {
    const v = majorityVote(['A', 'C', 'D'], L, { A: 0.1, B: 0.9, C: 0.5, D: 0.2 });
    expect(v.answer).toBe('C'); // B has the best score but no vote: only tied letters compete
    expect(v.confidence).toBe('tie');
    expect(v.tieBreak).toEqual({ tied: ['A', 'C', 'D'], by: 'evidence-score', scores: { A: 0.1, C: 0.5, D: 0.2 } });
  });
  it('1–1–1 with equal evidence scores → a seeded draw among the tied letters, recorded with its seed (not the lowest letter)', () => {
    const v = majorityVote(['D', 'B', 'C'], L, { B: 1, C: 1, D: 1 }, 7);
    expect(v).toMatchObject({ confidence: 'tie', tieBreak: { tied: ['B', 'C', 'D'], by: 'seeded-draw' } });
    expect(v.tieBreak!.draw).toMatchObject({ kind: 'tie-break', seed: expect.any(Number) });
    expect(v.answer).toBe(v.tieBreak!.draw!.order[0]);
    expect(v.tieBreak!.draw!.order.slice().sort()).toEqual(['B', 'C', 'D']);
    // the same seed draws the same winner; over 300 item seeds each tied letter wins about a third of the ties
    expect(majorityVote(['D', 'B', 'C'], L, { B: 1, C: 1, D: 1 }, 7).answer).toBe(v.answer);
    const wins: Record<string, number> = { B: 0, C: 0, D: 0 };
    for (let seed = 0; seed < 300; seed++) wins[majorityVote(['D', 'B', 'C'], L, { B: 1, C: 1, D: 1 }, seed).answer!]++;
    for (const l of ['B', 'C', 'D']) expect(wins[l]).toBeGreaterThan(70);
  });
  it('1–1 between two letters whose advocates picked the same passages at the same ranks, listed in another order, goes to the seeded draw, not to the float sum', () => {
    // one bm25 search of 10 hits each; both advocates keep ranks 1, 2, 3, 4 and 10 (evidence score 1/(60 + rank), tool-trace.ts):
    // A's advocate lists them in rank order, B's in reverse, so their sums differ only in the float's last bit
    const ranks = [1, 2, 3, 4, 10];
    const advocate = (letter: string, order: number[]) =>
      ({
        hypothesis: { key: letter, text: `option ${letter}`, letter },
        evidence: order.map((r) => ({ id: `mbe_${r}`, score: 1 / (60 + r), justification: '' })),
      }) as unknown as AdvocateResult;
    const scores = evidenceScoreByLetter([advocate('A', ranks), advocate('B', [...ranks].reverse())]);
    expect(scores.A).not.toBe(scores.B); // 0.0783062050397455 vs 0.07830620503974549
    const winners = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const v = majorityVote(['A', 'B', null], L, scores, seed);
      expect(v).toMatchObject({ confidence: 'tie', tieBreak: { tied: ['A', 'B'], by: 'seeded-draw', scores: { A: 0.07830620504, B: 0.07830620504 } } });
      winners.add(v.answer!);
    }
    expect([...winners].sort()).toEqual(['A', 'B']); // before: A on every seed, "by evidence-score"
    // a real difference in evidence still decides: rank 9 for rank 10 in B's list
    const closer = evidenceScoreByLetter([advocate('A', ranks), advocate('B', [9, 4, 3, 2, 1])]);
    expect(majorityVote(['A', 'B', null], L, closer, 3)).toMatchObject({ answer: 'B', tieBreak: { by: 'evidence-score' } });
  });
  it('a lone vote with two abstentions wins "low", as docs/case.md says (a strict plurality, not unanimous)', () => {
    expect(majorityVote(['C', null, null], L)).toEqual({ answer: 'C', confidence: 'low', tally: { A: 0, B: 0, C: 1, D: 0 } });
  });
  it('1–1 with an abstention is a tie', () => {
    expect(majorityVote(['D', null, 'A'], L, { A: 0.2, D: 0.3 })).toMatchObject({ answer: 'D', confidence: 'tie' });
  });
  it('no valid vote (every juror abstained) gives no answer: never a tie-break over unvoted options', () => {
    const v = majorityVote([null, null, null], L, { A: 0.1, B: 0.05, C: 0.4, D: 0.2 });
    expect(v).toEqual({ answer: null, confidence: 'none', tally: { A: 0, B: 0, C: 0, D: 0 } });
    expect(majorityVote([], L)).toMatchObject({ answer: null, confidence: 'none' });
  });
});
