/**
 * fixedHalfEven writes a number as C's printf("%.Nf") does — trec_eval prints its measures with
 * `%6.4f` — checked against the system's printf(1), which formats with the C library. toFixed rounds an
 * exact half away from zero (29/32 = 0.90625 → "0.9063"), where printf rounds it to the even digit
 * ("0.9062"): an MRR of 1/32 printed 0.0313 beside trec_eval's 0.0312.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fixedHalfEven } from './fixed.js';

/** printf(1) of each value, with `digits` decimals. */
const printf = (digits: number, xs: readonly number[]): string[] =>
  execFileSync('printf', [`%.${digits}f\\n`, ...xs.map((x) => x.toString())], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } })
    .trimEnd()
    .split('\n');

describe('fixedHalfEven: as printf("%.Nf")', () => {
  it('every k/1024 in [0, 2] and its negative, at 0 to 5 decimals, reads as printf(1) prints it (exact halves among them)', () => {
    const xs = Array.from({ length: 2049 }, (_, k) => k / 1024);
    for (let digits = 0; digits <= 5; digits++) {
      const want = printf(digits, xs);
      expect(xs.map((x) => fixedHalfEven(x, digits))).toEqual(want);
      // negatives too, but a value that rounds to zero has no sign (fixed's rule): printf writes "-0.0000"
      const neg = printf(
        digits,
        xs.map((x) => -x),
      ).map((s) => (/^-0(\.0*)?$/.test(s) ? s.slice(1) : s));
      expect(xs.map((x) => fixedHalfEven(-x, digits))).toEqual(neg);
    }
    // the case that differed: toFixed rounds the half up
    expect([(0.90625).toFixed(4), fixedHalfEven(0.90625, 4)]).toEqual(['0.9063', '0.9062']);
  });

  it('values that are not exact halves read as toFixed writes them (as printf does): thirds, tenths, 1e-5 steps', () => {
    const xs = [1 / 3, 2 / 3, 0.1, 0.7, 0.00005, 0.12345, 0.98765, 123.456789, 1e-9, 0.015625 + 1e-12];
    for (const digits of [2, 4]) expect(xs.map((x) => fixedHalfEven(x, digits))).toEqual(printf(digits, xs));
    for (const digits of [2, 4]) expect(xs.map((x) => fixedHalfEven(x, digits))).toEqual(xs.map((x) => x.toFixed(digits)));
  });
});
