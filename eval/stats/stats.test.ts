import { describe, expect, it } from 'vitest';
import { pairedBootstrap } from '../bootstrap.js';
import { wilsonCi } from '../wilson.js';
import { diffIntervalText, diffText, disagreementNotes, figureText, methodLabel, pText, testText, valueText } from './format.js';
import { outsideInterval } from './flag.js';
import { meanInterval, perItemInterval, proportionInterval, statisticInterval } from './interval.js';
import { mcnemarExact } from './mcnemar.js';
import { intervalTestDisagreement, pairedDifference } from './paired.js';
import { METHODS_NOTE, methodsNoteFor } from './methods.js';
import { MIN_N, NO_ITEM_DIFFERS, NO_SPREAD, RESAMPLES, SEED } from './settings.js';
import { macroScores } from '../metrics/macro.js';
import { signFlipTest } from './sign-flip.js';

/** Two-sided binomial(m, ½) tail by brute force: P(|X − m/2| ≥ |k − m/2|). */
function binomTwoSided(m: number, k: number): number {
  const c = (n: number, r: number) => {
    let x = 1;
    for (let i = 1; i <= r; i++) x = (x * (n - r + i)) / i;
    return x;
  };
  let p = 0;
  for (let x = 0; x <= m; x++) if (Math.abs(x - m / 2) >= Math.abs(k - m / 2) - 1e-12) p += c(m, x) / 2 ** m;
  return Math.min(1, p);
}

describe('exact McNemar test', () => {
  it('equals the two-sided binomial tail on the discordant pairs, and is never small on a handful of items', () => {
    expect(mcnemarExact(0, 2)).toBe(0.5); // 2 items, both B-only: the "p < 0.001 from 2 items" is 0.5
    expect(mcnemarExact(0, 4)).toBe(0.125); // 4 items all one way: 0.125, not 0.001
    expect(mcnemarExact(2, 8)).toBeCloseTo(112 / 1024, 14);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    for (const [a, b] of [
      [1, 9],
      [5, 20],
      [12, 30],
      [40, 60],
    ])
      expect(mcnemarExact(a, b)).toBeCloseTo(binomTwoSided(a + b, a), 12);
    // large counts stay finite (log space): 2000 vs 2200 discordant
    const p = mcnemarExact(2000, 2200);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.01);
    expect(() => mcnemarExact(-1, 2)).toThrow(/non-negative integers/);
  });
});

describe('paired sign-flip permutation test', () => {
  it('enumerates every sign vector up to 20 non-zero differences: p = share with |Σ| at least the observed', () => {
    expect(signFlipTest([0.3, 0.2])).toEqual({ p: 0.5, exact: true, m: 2 });
    expect(signFlipTest([0, 0, 0])).toEqual({ p: 1, exact: true, m: 0 });
    // brute force over the 2^5 sign vectors
    const d = [0.5, -0.1, 0.25, 0.4, 0.05];
    const obs = Math.abs(d.reduce((a, b) => a + b, 0));
    let count = 0;
    for (let mask = 0; mask < 32; mask++) if (Math.abs(d.reduce((s, x, i) => s + ((mask >> i) & 1 ? -x : x), 0)) >= obs - 1e-12) count++;
    expect(signFlipTest(d).p).toBe(count / 32);
    // 0/1 differences: the sign-flip test is the exact McNemar (sign) test
    expect(signFlipTest([1, 1, 1, 1, 1, 1, -1, 0, 0]).p).toBeCloseTo(mcnemarExact(1, 6), 12);
  });

  it('above 20 differences: seeded random flips, close to the exact value, the same p for the same seed', () => {
    const d = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? -0.2 : 0.15 + (i % 5) * 0.01));
    const r = signFlipTest(d, { seed: 13 });
    expect(r.exact).toBe(false);
    expect(signFlipTest(d, { seed: 13 })).toEqual(r);
    expect(r.p).toBeGreaterThan(0);
    const ones = Array.from({ length: 30 }, (_, i) => (i < 22 ? 1 : -1));
    expect(signFlipTest(ones).p).toBeCloseTo(mcnemarExact(8, 22), 2);
  });
});

describe('intervals by measure kind', () => {
  it('a proportion gets Wilson at any n; a mean or statistic a seeded bootstrap, none below MIN_N', () => {
    expect(proportionInterval(2, 4)).toMatchObject({ kind: 'proportion', method: 'wilson', lo: wilsonCi(2, 4).lo, hi: wilsonCi(2, 4).hi, n: 4 });
    expect(proportionInterval(0, 0)).toMatchObject({ lo: null, hi: null, missing: 'no items' });
    const few = meanInterval([0.1, 0.5, 1 / 3]);
    expect(few).toMatchObject({ kind: 'mean', method: 'bootstrap', lo: null, hi: null, missing: `n < ${MIN_N}` });
    expect(few.estimate).toBeCloseTo((0.1 + 0.5 + 1 / 3) / 3, 12);
    const rr = Array.from({ length: 12 }, (_, i) => 1 / (1 + (i % 4)));
    const m = meanInterval(rr);
    expect(m.lo!).toBeLessThan(m.estimate);
    expect(m.hi!).toBeGreaterThan(m.estimate);
    expect(meanInterval(rr)).toEqual(m); // seeded
    expect(statisticInterval(12, (idx) => idx.length)).toMatchObject({ kind: 'statistic', estimate: 12 });
    // the data decide for per-item values: 0/1 on every item is a proportion
    expect(perItemInterval([1, 0, 0, 1])).toMatchObject({ kind: 'proportion', method: 'wilson' });
    expect(perItemInterval([1, 0.5, 0, 1])).toMatchObject({ kind: 'mean', lo: null });
  });

  it('prints proportions as percentages and graded means as decimals, the method beside', () => {
    expect(figureText(proportionInterval(2, 4), 'percent')).toBe('50.0% [15.0, 85.0]');
    expect(methodLabel(proportionInterval(2, 4))).toBe('95% Wilson');
    expect(figureText(meanInterval([0.1, 0.5]), 'decimal')).toBe('0.300 (n < 10)');
    expect(methodLabel(meanInterval([0.1, 0.5]))).toBe('no interval: n < 10');
    expect(diffText(-0.375, 'percent')).toBe('−37.5 pp');
    expect(diffText(0.0301, 'decimal')).toBe('+0.030');
    expect(pText(0.0004)).toBe('< 0.001');
    expect(pText(null)).toBe('–');
  });
});

describe('paired differences', () => {
  it('are B − A with an exact test; the interval is a paired bootstrap from MIN_N items on', () => {
    // the 4 items, every one right in B and wrong in A: +100 pp, p = 0.125 (McNemar), no interval
    const d4 = pairedDifference([0, 0, 0, 0], [1, 1, 1, 1]);
    expect(d4).toMatchObject({ estimate: 1, outcome: 'binary', test: 'mcnemar-exact', p: 0.125, lo: null, hi: null, missing: 'n < 10', aOnly: 0, bOnly: 4 });
    expect(testText(d4)).toBe('p = 0.125 (exact McNemar)');
    // 2 items: p 0.5 (the bootstrap printed p < 0.001)
    expect(pairedDifference([1, 0], [0, 1]).p).toBe(1);
    expect(pairedDifference([0, 0], [1, 1]).p).toBe(0.5);
    // swapping the runs flips the sign of the estimate and the interval, not the p
    const a = Array.from({ length: 16 }, (_, i) => (i % 10 !== 0 ? 1 : 0));
    const b = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const ba = pairedDifference(a, b);
    const ab = pairedDifference(b, a);
    expect(ba.estimate).toBeCloseTo(-ab.estimate, 14);
    expect(ba.p).toBe(ab.p);
    const boot = pairedBootstrap(b, a, { iterations: 2000, seed: 13 });
    expect(ba).toMatchObject({ lo: boot.lo, hi: boot.hi });
    // graded values: the sign-flip test
    expect(pairedDifference([0.2, 0.5, 1], [0.25, 1, 1])).toMatchObject({ outcome: 'graded', test: 'sign-flip-exact', p: 0.5 });
  });

  it("give one A, B and Δ whatever order the items are listed in, A and B the report's own means (lexcase compare of two retrieval runs at --concurrency 1 and 4)", () => {
    // reciprocal ranks of 20 queries: run A's results.jsonl in one order, then the same items as another run lists them
    const a = [1, 0.5, 1 / 3, 0.25, 0.2, 1 / 6, 1 / 7, 0.125, 1 / 9, 0.1, 0, 1, 0.5, 1 / 3, 0, 0.2, 1 / 7, 1, 0, 1 / 9];
    const b = [0.5, 1, 1, 1 / 3, 0, 0.25, 1, 0.2, 1 / 6, 1 / 7, 0.5, 0.125, 1, 0, 1 / 9, 0.1, 1 / 3, 0.5, 1, 0];
    const listed = pairedDifference(a, b);
    const reversed = pairedDifference([...a].reverse(), [...b].reverse());
    // before: B 0.4131150793650794 vs 0.4131150793650793, Δ 0.10230158730158734 vs 0.10230158730158723
    expect(reversed).toMatchObject({ a: listed.a, b: listed.b, estimate: listed.estimate, lo: listed.lo, hi: listed.hi, p: listed.p });
    // each run's figure is the one its report gives (meanInterval: summed in the canonical order)
    expect(listed.a).toBe(meanInterval(a).estimate);
    expect(listed.b).toBe(meanInterval([...b].reverse()).estimate);
    expect(listed.estimate).toBe(listed.b - listed.a);
  });
});

describe('a figure that rounds to zero', () => {
  it('prints unsigned: "0.0%", "0.000", "0.0 pp" — never "-0.0%" or "−0.000" from a tiny negative', () => {
    // before: "-0.0%", "-0.000", "−0.000", "−0.0 pp"
    expect(valueText(-0.00004, 'percent')).toBe('0.0%');
    expect(valueText(-0.0004, 'decimal')).toBe('0.000');
    expect(figureText({ estimate: -0.0004, lo: -0.0004, hi: 0.2, missing: undefined }, 'decimal')).toBe('0.000 [0.000, 0.200]');
    expect(diffText(-0.0003, 'decimal')).toBe('0.000');
    expect(diffText(-0.0003, 'percent')).toBe('0.0 pp');
    expect(diffText(-0.0006, 'percent')).toBe('−0.1 pp');
    expect(diffText(0.0006, 'decimal')).toBe('+0.001');
  });
});

describe('a bootstrap with no spread', () => {
  it('gives no interval, with why, where every resample gives one value: a [0.0, 0.0] reads as certainty', () => {
    // an EMAR hearsay run of 12 items that all failed: macro-F1 is 0 on every resample
    const failed = Array.from({ length: 12 }, (_, i) => ({ id: `h${i}`, gold: i % 2 ? 'Yes' : 'No', prediction: null, error: 'LLM_REQUEST_FAILED' }));
    const f1 = macroScores(failed, { labels: ['Yes', 'No'] }).f1;
    // before: { lo: 0, hi: 0 }, printed "0.0% [0.0, 0.0]" beside accuracy's Wilson "0.0% [0.0, 24.2]"
    expect(f1).toMatchObject({ estimate: 0, lo: null, hi: null, missing: NO_SPREAD, n: 12 });
    expect(figureText(f1, 'percent')).toBe('0.0% (no spread: all resamples equal)');
    expect(methodLabel(f1)).toBe('no interval: no spread: all resamples equal');
    // graded values that are all equal: the same
    expect(meanInterval(Array(20).fill(0.5))).toMatchObject({ estimate: 0.5, lo: null, hi: null, missing: NO_SPREAD });
    // one differing value is spread: an interval again
    expect(meanInterval([...Array(19).fill(0.5), 0.25]).lo).not.toBeNull();
  });

  it('two runs that agree on every item (0 discordant pairs): no interval of the difference, "no item differs", p = 1', () => {
    const a = Array.from({ length: 60 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const d = pairedDifference(a, a.slice());
    // before: lo 0, hi 0 — "[0.0 pp, 0.0 pp]" as a 95% interval
    expect(d).toMatchObject({ estimate: 0, lo: null, hi: null, missing: NO_ITEM_DIFFERS, p: 1, aOnly: 0, bOnly: 0 });
    expect(diffIntervalText(d, 'percent')).toBe('(no item differs)');
    // every item differs the same way (B right where A is wrong, on all 12): no spread either
    const all = pairedDifference(Array(12).fill(0), Array(12).fill(1));
    expect(all).toMatchObject({ estimate: 1, lo: null, hi: null, missing: NO_SPREAD, bOnly: 12 });
    // one discordant pair of 60: an interval
    const b = a.slice();
    b[1] = 1;
    expect(pairedDifference(a, b).lo).not.toBeNull();
  });
});

describe('an interval that disagrees with its exact test', () => {
  it('is marked on the interval and explained beside the p-value; agreeing ones carry no mark', () => {
    // 35 items, 4 right in B only: the percentile bootstrap never draws a resample without one of
    // them often enough to reach 0, while exact McNemar on 4 discordant pairs gives p = 0.125
    const a = Array.from({ length: 35 }, (_, i) => (i < 20 ? 1 : 0));
    const b = a.map((x, i) => (i >= 20 && i < 24 ? 1 : x));
    const d = pairedDifference(a, b);
    expect(d.p).toBe(0.125);
    expect(d.lo!).toBeGreaterThan(0);
    expect(d.disagreement).toMatch(/^the 95% interval excludes 0 but the exact test does not reject \(p = 0\.125 ≥ 0\.05; 4 items differ\)/);
    expect(diffIntervalText(d, 'percent')).toMatch(/^\[\+2\.9 pp, \+\d+\.\d pp\] ‡$/);
    expect(testText(d)).toBe(`p = 0.125 (exact McNemar); ‡ ${d.disagreement}`);
    expect(disagreementNotes([{ label: 'accuracy', ...d }])).toEqual([`‡ accuracy: ${d.disagreement}.`]);
    // 16 items both ways: interval holds 0, p large — no mark
    const x = Array.from({ length: 16 }, (_, i) => (i % 10 !== 0 ? 1 : 0));
    const y = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const ok = pairedDifference(x, y);
    expect(ok.disagreement).toBeUndefined();
    expect(diffIntervalText(ok, 'percent')).not.toContain('‡');
    // the reverse case: the test rejects while the interval holds 0
    expect(intervalTestDisagreement({ lo: -0.01, hi: 0.2, p: 0.03, level: 0.95, aOnly: 1, bOnly: 8 })).toBe(
      'the exact test rejects (p = 0.030 < 0.05; 9 items differ) but the 95% interval holds 0',
    );
    expect(intervalTestDisagreement({ lo: 0, hi: 0.2, p: 0.2, level: 0.95, aOnly: 1, bOnly: 4 })).toBeUndefined();
  });
});

describe('the "outside CI" flag', () => {
  it('is raised only at n ≥ MIN_N on a non-degenerate interval', () => {
    // the issue's --limit 2 cell: [100, 100] from 2 items against the paper's 0
    expect(outsideInterval(0, { lo: 100, hi: 100, n: 2 })).toEqual({ outside: null, reason: 'n < 10' });
    expect(outsideInterval(0, { lo: 34.24, hi: 100, n: 2 })).toEqual({ outside: null, reason: 'n < 10' });
    expect(outsideInterval(0, { lo: 100, hi: 100, n: 40 })).toEqual({ outside: null, reason: 'degenerate interval' });
    expect(outsideInterval(50, { lo: null, hi: null, n: 40 })).toEqual({ outside: null, reason: 'no interval' });
    expect(outsideInterval(null, { lo: 1, hi: 2, n: 40 })).toEqual({ outside: null, reason: 'no paper value' });
    expect(outsideInterval(70, { lo: 40, hi: 60, n: 40 })).toEqual({ outside: true });
    expect(outsideInterval(50, { lo: 40, hi: 60, n: 40 })).toEqual({ outside: false });
  });
});

describe('one figure, one interval, whatever the order of its items', () => {
  // reciprocal ranks of 40 topics, as `eval retrieval` lists them (dataset order) and as `eval run` does (sorted by qid)
  const rr = Array.from({ length: 40 }, (_, i) => ([1, 0.5, 0, 0.25, 0, 0.1, 1, 0, 0.333, 0.2][(i * 7) % 10] * ((i % 3) + 1)) / 3);
  const shuffled = rr
    .map((v, i) => ({ v, k: (i * 17) % 41 }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.v);

  it('meanInterval, pairedDifference (graded: bootstrap interval and Monte-Carlo sign-flip p) give the same numbers for the items in another order', () => {
    expect(shuffled).not.toEqual(rr);
    const a = meanInterval(rr);
    const b = meanInterval(shuffled);
    expect([b.lo, b.hi]).toEqual([a.lo, a.hi]);
    expect(b.estimate).toBeCloseTo(a.estimate, 15);
    const other = rr.map((v, i) => (i % 4 === 0 ? v / 2 : Math.min(1, v + 0.1)));
    const otherShuffled = rr
      .map((_, i) => i)
      .map((i) => ({ i, k: (i * 17) % 41 }))
      .sort((x, y) => x.k - y.k)
      .map((x) => other[x.i]);
    const d1 = pairedDifference(rr, other, { iterations: 500 });
    const d2 = pairedDifference(shuffled, otherShuffled, { iterations: 500 });
    expect([d2.lo, d2.hi, d2.p]).toEqual([d1.lo, d1.hi, d1.p]);
    expect(d1.test).toBe('sign-flip-monte-carlo'); // over 20 differing items: the seeded flips, now on a canonical order
    expect(pairedBootstrap(shuffled, otherShuffled)).toMatchObject({ lo: pairedBootstrap(rr, other).lo, hi: pairedBootstrap(rr, other).hi });
  });

  it('a NaN per-item value is a RangeError naming it, never "p < 0.001" or half an interval', () => {
    const withNaN = [...rr.slice(0, 11), Number.NaN];
    expect(() => perItemInterval(withNaN)).toThrow(/value 12 of 12 is NaN/);
    expect(() => meanInterval(withNaN)).toThrow(RangeError);
    expect(() => signFlipTest([Number.NaN, 0.1, -0.1])).toThrow(/difference 1 of 3 is NaN/);
    expect(() =>
      pairedDifference(
        withNaN,
        withNaN.map(() => 0.5),
      ),
    ).toThrow(RangeError);
  });

  it('the methods footnote names the resamples and seed a surface used when they are not the shared ones', () => {
    expect(methodsNoteFor()).toBe(METHODS_NOTE);
    expect(methodsNoteFor({ iterations: RESAMPLES, seed: SEED })).toBe(METHODS_NOTE);
    expect(methodsNoteFor({ iterations: 500 })).toBe(`${METHODS_NOTE} This run: 500 resamples, seed ${SEED}.`);
  });
});
