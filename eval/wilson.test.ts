import { describe, expect, it } from 'vitest';
import { wilsonCi } from './wilson.js';

describe('Wilson score interval', () => {
  it('matches published values (Newcombe 1998, Table I) and never collapses at small n', () => {
    // Newcombe (1998), Statistics in Medicine 17:857–872, Table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611; 1/29 → 0.0061–0.1718
    const r = (x: number) => Number(x.toFixed(4));
    expect([r(wilsonCi(81, 263).lo), r(wilsonCi(81, 263).hi)]).toEqual([0.2553, 0.3662]);
    expect([r(wilsonCi(15, 148).lo), r(wilsonCi(15, 148).hi)]).toEqual([0.0624, 0.1605]);
    expect([r(wilsonCi(0, 20).lo), r(wilsonCi(0, 20).hi)]).toEqual([0, 0.1611]);
    expect([r(wilsonCi(1, 29).lo), r(wilsonCi(1, 29).hi)]).toEqual([0.0061, 0.1718]);
    // the "100.0% [100.0, 100.0] at n = 2": Wilson gives [34.2%, 100%]
    const two = wilsonCi(2, 2);
    expect(two.estimate).toBe(1);
    expect(two.hi).toBe(1);
    expect(two.lo).toBeCloseTo(0.3424, 4);
    expect(wilsonCi(0, 0)).toMatchObject({ lo: 0, hi: 1, n: 0 });
    expect(() => wilsonCi(3, 2)).toThrow(/successes/);
  });
});
