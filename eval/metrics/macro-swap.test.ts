/**
 * The paired swap test of a macro-F1 difference (./macro-swap.ts) on LegalBench hearsay's bundled test
 * items, without python (eval/reference/macro-swap-agreement.test.ts checks it against scipy): its
 * in-place counts give the p of every arrangement scored by classification.ts, its Monte-Carlo p does
 * not depend on the items' order, and runs that predict alike have p = 1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/version.js';
import { classificationReport } from './classification.js';
import { macroF1SwapTest } from './macro-swap.js';

const HEARSAY: { answer: string; text: string }[] = readFileSync(join(PACKAGE_ROOT, 'corpora/data/legalbench/hearsay/test.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const LABELS = ['Yes', 'No'];
const gold = HEARSAY.map((x) => x.answer);
// A: a keyword rule; B: another, failing (no prediction) on every 6th item
const a = HEARSAY.map((x) => (/\b(said|says|told|tells|wrote|stated|announced|testif)/i.test(x.text) ? 'Yes' : 'No'));
const b = HEARSAY.map((x, i) => (i % 6 === 5 ? null : /\b(told|wrote|stated|letter|email)/i.test(x.text) && !/\btestif/i.test(x.text) ? 'Yes' : 'No'));

/** p by brute force: every swap vector of the differing items, each arrangement scored by classificationReport. */
function bruteForce(g: string[], x: (string | null)[], y: (string | null)[]): number {
  const f1 = (p: (string | null)[]) => classificationReport(p, g, LABELS).macroF1;
  const observed = Math.abs(f1(y) - f1(x));
  const diff = x.map((_, i) => i).filter((i) => x[i] !== y[i]);
  let count = 0;
  for (let mask = 0; mask < 2 ** diff.length; mask++) {
    const xs = [...x];
    const ys = [...y];
    diff.forEach((i, j) => {
      if (mask & (1 << j)) [xs[i], ys[i]] = [ys[i], xs[i]];
    });
    if (Math.abs(f1(ys) - f1(xs)) >= observed - 1e-12) count++;
  }
  return count / 2 ** diff.length;
}

describe('the paired swap test of a macro-F1 difference', () => {
  it('exact up to 20 differing items: the share of all swap vectors scored by classification.ts, on 16 items at a time', () => {
    for (const o of [0, 16, 32, 48, 64]) {
      const [g, x, y] = [gold.slice(o, o + 16), a.slice(o, o + 16), b.slice(o, o + 16)];
      const r = macroF1SwapTest(g, x, y, LABELS);
      expect(r.exact).toBe(true);
      expect(r.p).toBe(bruteForce(g, x, y));
    }
  });

  it('Monte Carlo above 20 differing items: 10,000 seeded swaps, the same p whatever order the items come in', () => {
    const r = macroF1SwapTest(gold, a, b, LABELS);
    expect(r).toMatchObject({ exact: false, resamples: 10_000 });
    expect(r.m).toBeGreaterThan(20);
    const order = HEARSAY.map((_, i) => (i * 37) % HEARSAY.length);
    const shuffled = macroF1SwapTest(
      order.map((i) => gold[i]),
      order.map((i) => a[i]),
      order.map((i) => b[i]),
      LABELS,
    );
    expect(shuffled.p).toBe(r.p);
    // with A and B exchanged: another seeded draw of the same null distribution (within Monte-Carlo error)
    expect(Math.abs(macroF1SwapTest(gold, b, a, LABELS).p - r.p)).toBeLessThan(0.03);
    expect(macroF1SwapTest(gold, a, b, LABELS, { seed: 7 }).p).not.toBe(r.p);
  });

  it('runs that predict the same on every item: p = 1, nothing to swap', () => {
    expect(macroF1SwapTest(gold, a, a, LABELS)).toEqual({ p: 1, exact: true, m: 0, resamples: 1 });
  });
});
