import { describe, expect, it } from 'vitest';
import { bootstrapCi, bootstrapStatisticCi, pairedBootstrap, percentile, unpairedBootstrap } from './bootstrap.js';
import { macroF1 } from './metrics/index.js';

const halfHits = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 1 : 0));

describe('bootstrap confidence intervals', () => {
  it('percentile interpolates between closest ranks', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4], 0)).toBe(1);
    expect(percentile([1, 2, 3, 4], 1)).toBe(4);
    expect(percentile([10, 20, 30, 40, 50], 0.25)).toBe(20);
  });

  it('a constant sample has a zero-width interval at the constant', () => {
    expect(bootstrapCi([0.3, 0.3, 0.3], { iterations: 200 })).toMatchObject({ estimate: 0.3, lo: 0.3, hi: 0.3 });
  });

  it('mean of 50/100 hits: 95% CI close to the normal approximation ±1.96·0.05', () => {
    const ci = bootstrapCi(halfHits, { iterations: 2000, seed: 7 });
    expect(ci.estimate).toBe(0.5);
    expect(ci.lo).toBeGreaterThan(0.38);
    expect(ci.lo).toBeLessThan(0.42);
    expect(ci.hi).toBeGreaterThan(0.58);
    expect(ci.hi).toBeLessThan(0.62);
    expect(ci).toMatchObject({ level: 0.95, iterations: 2000, seed: 7, n: 100 });
  });

  it('is reproducible for a seed and changes with the seed', () => {
    const a = bootstrapCi(halfHits, { iterations: 300, seed: 1 });
    const b = bootstrapCi(halfHits, { iterations: 300, seed: 1 });
    const c = bootstrapCi(halfHits, { iterations: 300, seed: 2 });
    expect(b).toEqual(a);
    expect([c.lo, c.hi]).not.toEqual([a.lo, a.hi]);
  });

  it('refuses a seed its draws would read as another (past 32 bits, fractional, negative), naming the rule', () => {
    const v = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    // before: 4294967297 drew exactly as seed 1 while the interval recorded seed 4294967297
    for (const seed of [4294967297, 1.5, -1, Number.NaN])
      expect(() => bootstrapCi(v, { seed, iterations: 50 })).toThrow(/bootstrap seed must be an integer from 0 to 4294967295/);
    expect(bootstrapCi(v, { seed: 4294967295, iterations: 50 }).seed).toBe(4294967295);
  });

  it('a higher confidence level gives a wider interval', () => {
    const ci90 = bootstrapCi(halfHits, { level: 0.9 });
    const ci99 = bootstrapCi(halfHits, { level: 0.99 });
    expect(ci99.hi - ci99.lo).toBeGreaterThan(ci90.hi - ci90.lo);
  });

  it('bootstrapStatisticCi resamples items for a non-mean statistic (macro-F1)', () => {
    const golds = Array.from({ length: 60 }, (_, i) => ['a', 'b', 'c'][i % 3]);
    const preds = golds.map((g, i) => (i % 5 === 0 ? 'a' : g));
    const ci = bootstrapStatisticCi(
      golds.length,
      (idx) =>
        macroF1(
          Array.from(idx, (i) => preds[i]),
          Array.from(idx, (i) => golds[i]),
          ['a', 'b', 'c'],
        ),
      { iterations: 300 },
    );
    expect(ci.estimate).toBeCloseTo(macroF1(preds, golds, ['a', 'b', 'c']), 12);
    expect(ci.lo).toBeLessThanOrEqual(ci.estimate);
    expect(ci.hi).toBeGreaterThanOrEqual(ci.estimate);
    expect(ci.hi).toBeLessThanOrEqual(1);
  });
});

describe('paired and unpaired bootstrap of a difference', () => {
  it('paired: a constant per-item gain gives that difference, a zero-width CI and a tiny p', () => {
    const b = halfHits.map((x) => x * 0.5);
    const a = b.map((x) => x + 0.1);
    const r = pairedBootstrap(a, b, { iterations: 999 });
    expect(r.estimate).toBeCloseTo(0.1, 12);
    expect(r.lo).toBeCloseTo(0.1, 12);
    expect(r.hi).toBeCloseTo(0.1, 12);
    expect(r.p).toBeCloseTo(2 / 1000, 12);
  });

  it('paired: identical systems give difference 0 and p = 1', () => {
    const r = pairedBootstrap(halfHits, halfHits);
    expect(r).toMatchObject({ estimate: 0, lo: 0, hi: 0, p: 1 });
  });

  it('paired: a small noisy difference is not significant', () => {
    // a wins on 3 items, b on 2, the rest tie
    const a = halfHits.slice();
    const b = halfHits.slice();
    for (const i of [1, 3, 5]) a[i] = 1; // a right where b is wrong
    for (const i of [0, 2]) a[i] = 0; // b right where a is wrong
    const r = pairedBootstrap(a, b, { iterations: 2000 });
    expect(r.estimate).toBeCloseTo(0.01, 12);
    expect(r.p).toBeGreaterThan(0.05);
    expect(r.lo).toBeLessThan(0);
    expect(r.hi).toBeGreaterThan(0);
  });

  it('paired rejects different item counts', () => {
    expect(() => pairedBootstrap([1, 0], [1])).toThrow(/same items/);
  });

  it('unpaired: clearly different samples of different sizes', () => {
    const a = Array.from({ length: 80 }, (_, i) => (i % 10 < 8 ? 1 : 0)); // 0.8
    const b = Array.from({ length: 50 }, (_, i) => (i % 10 < 3 ? 1 : 0)); // 0.3
    const r = unpairedBootstrap(a, b, { iterations: 2000 });
    expect(r.estimate).toBeCloseTo(0.5, 12);
    expect(r.lo).toBeGreaterThan(0.3);
    expect(r.hi).toBeLessThan(0.7);
    expect(r.p).toBeLessThan(0.01);
    expect(r.n).toBe(130);
  });
});

describe('bootstrapStatisticCi with strata', () => {
  const values = [0.9, 0.8, 0.85, 0.95, 0.7, 0.1, 0, 0.05, 0.2, 0, 0.15, 0.1];
  const mean = (idx: Int32Array) => idx.reduce((s, i) => s + values[i], 0) / idx.length;

  it('each resample keeps every stratum’s count: the mean of two fixed halves varies only within them', () => {
    const seen: number[] = [];
    const stat = (idx: Int32Array) => {
      seen.push(idx.filter((i) => i < 5).length);
      return mean(idx);
    };
    bootstrapStatisticCi(12, stat, { strata: [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1], iterations: 200 });
    expect(new Set(seen.slice(1))).toEqual(new Set([5]));
  });

  it('one stratum draws what the unstratified bootstrap draws', () => {
    const plain = bootstrapStatisticCi(12, mean, { iterations: 500 });
    expect(bootstrapStatisticCi(12, mean, { iterations: 500, strata: Array(12).fill(4) })).toEqual(plain);
  });

  it('a strata list of another length is a RangeError', () => {
    expect(() => bootstrapStatisticCi(12, mean, { strata: [0, 1] })).toThrow(/2 labels for 12 items/);
  });
});
