import { describe, expect, it } from 'vitest';
import type { Question } from '../../corpora/types.js';
import { perItemInterval } from '../../eval/stats/index.js';
import { answerBaselines } from './answer-baselines.js';
import { loadQuestions } from '../../corpora/registry.js';

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

  it('the longest option among equally long ones is a seeded draw per question, counted in the row, not the lowest letter', async () => {
    // 40 questions whose options A and B are equally long and longest, gold B: the lowest letter was right on none
    const qs = Array.from({ length: 40 }, (_, i) => q(`mbe_${i}`, ['the buyer may rescind', 'the buyer may recover', 'no', 'yes'], 'B'));
    const [, , longest] = answerBaselines(qs, 13);
    expect(longest.name).toBe('longest option (40 ties drawn)');
    expect(longest.ties).toBe(40);
    expect(longest.rate).toBeGreaterThan(0.25); // before: 0 (A on every question)
    expect(longest.rate).toBeLessThan(0.75);
    expect(answerBaselines(qs, 13)[2].rate).toBe(longest.rate); // the same seed, the same draws
    // Bar Exam QA val (split seed 13): 4 questions have two or three equally long longest options
    const val = await loadQuestions('barexam', 'val');
    expect(answerBaselines(val, 13)[2]).toMatchObject({ name: 'longest option (4 ties drawn)', ties: 4 });
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

  it('a bootstrapped chance row (options differ between questions) uses the given resamples, as `lexcase demo --iterations` asks', () => {
    // 37 questions with 2 to 7 non-empty options — chance differs per question, so it is bootstrapped
    const qs = Array.from({ length: 37 }, (_, i) => q(String(i), ['a', 'bb', 'ccc', 'd', 'e', 'f', 'g'].slice(0, 2 + ((i * 7) % 6)), 'A'));
    const values = qs.map((x) => 1 / x.choices.filter(Boolean).length);
    const [with200] = answerBaselines(qs, 13, 200);
    const [byDefault] = answerBaselines(qs, 13);
    const want = perItemInterval(values, { seed: 13, iterations: 200 });
    // before: the demo's chance row was bootstrapped with 2,000 resamples whatever --iterations said
    expect(with200.ci).toEqual({ lo: want.lo, hi: want.hi });
    expect(with200.ci).not.toEqual(byDefault.ci);
    expect(byDefault.ci).toEqual({ lo: perItemInterval(values, { seed: 13 }).lo, hi: perItemInterval(values, { seed: 13 }).hi });
  });
});
