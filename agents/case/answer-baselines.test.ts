import { describe, expect, it } from 'vitest';
import type { Question } from '../../corpora/types.js';
import { answerBaselines } from './answer-baselines.js';

const q = (id: string, choices: string[], answer: string): Question => ({ id, prompt: '', question: 'q?', choices, answer, goldPassageIds: [] });

describe('answerBaselines', () => {
  it('scores chance over non-empty options, always-A, and the longest option with CIs', () => {
    const qs = [q('1', ['a', 'bbbb', 'cc', 'd'], 'B'), q('2', ['aaaa', 'b', 'c', ''], 'B'), q('3', ['a', 'b', 'c', 'dddddd'], 'A')];
    const [chance, a, longest] = answerBaselines(qs);
    expect(chance.rate).toBeCloseTo((1 / 4 + 1 / 3 + 1 / 4) / 3, 10);
    expect(a.rate).toBeCloseTo(1 / 3, 10);
    expect(longest.rate).toBeCloseTo(1 / 3, 10); // only question 1's longest (B) is right
    // always-A and longest are proportions: Wilson at any n; chance is a mean of graded values: no bootstrap interval below n = 10
    for (const r of [a, longest])
      expect(r.ci.lo!).toBeLessThanOrEqual(r.rate), expect(r.ci.hi!).toBeGreaterThanOrEqual(r.rate), expect(r.method).toBe('95% Wilson');
    expect(chance).toMatchObject({ ci: { lo: null, hi: null }, method: 'no interval: n < 10' });
  });

  it('chance over questions that all have four options is an exact 25%: no interval, not the [25.0, 25.0] the demo printed', () => {
    const qs = Array.from({ length: 124 }, (_, i) => q(String(i), ['a', 'bb', 'ccc', 'd'], 'ABCD'[i % 4]));
    const [chance] = answerBaselines(qs);
    expect(chance).toMatchObject({
      rate: 0.25,
      ci: { lo: null, hi: null },
      text: '25.0% (exact)',
      method: 'exact: 1 of 4 options on every question',
    });
  });
});
