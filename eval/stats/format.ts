/**
 * How a figure is printed, on every text surface (report.md, `compare`, reproduction tables, and
 * the explorer, which prints the text its server sends): a proportion of items as a percentage
 * ("50.0% [15.0, 85.0]"), a retrieval measure or other graded mean as a decimal ("0.032 [0.021,
 * 0.045]" — MRR is never a percentage), the interval's method named beside it ("95% Wilson").
 */
import { METHOD_LABEL, TEST_LABEL, type PairedTest } from './methods.js';
import type { Interval } from './interval.js';
import type { PairedDifference } from './paired.js';

export type Unit = 'percent' | 'decimal';

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** A value that rounds to zero prints unsigned: "0.0", never "-0.0" (a tiny negative, or −0). */
const unsigned0 = (t: string) => (/^-0\.0+$/.test(t) ? t.slice(1) : t);

const bare = (x: number, unit: Unit) => unsigned0(unit === 'percent' ? (100 * x).toFixed(1) : x.toFixed(3));

/** "50.0%" or "0.073". */
export const valueText = (x: number | null | undefined, unit: Unit): string => (!finite(x) ? '–' : unit === 'percent' ? `${bare(x, unit)}%` : bare(x, unit));

/** "[15.0, 85.0]" / "[0.039, 0.132]", or "(n < 10)" where no interval is given. */
export const intervalText = (iv: Pick<Interval, 'lo' | 'hi' | 'missing'>, unit: Unit): string =>
  finite(iv.lo) && finite(iv.hi) ? `[${bare(iv.lo, unit)}, ${bare(iv.hi, unit)}]` : `(${iv.missing ?? 'no interval'})`;

/** "50.0% [15.0, 85.0]". */
export const figureText = (iv: Pick<Interval, 'estimate' | 'lo' | 'hi' | 'missing'>, unit: Unit): string =>
  `${valueText(iv.estimate, unit)} ${intervalText(iv, unit)}`;

/** The method's short name ("95% Wilson", "95% bootstrap"), or why there is no interval. */
export const methodLabel = (iv: Pick<Interval, 'method' | 'lo' | 'hi' | 'missing'>): string =>
  finite(iv.lo) && finite(iv.hi) ? METHOD_LABEL[iv.method] : `no interval: ${iv.missing ?? 'no items'}`;

/** "0.125", "< 0.001", or "–" without a test. */
export const pText = (p: number | null | undefined): string => (!finite(p) ? '–' : p < 0.001 ? '< 0.001' : p.toFixed(3));

/** A difference: "+50.0 pp" (proportions) or "+0.030" (graded means). */
export const diffText = (d: number | null | undefined, unit: Unit): string => {
  if (!finite(d)) return '–';
  const mag = unit === 'percent' ? Math.abs(100 * d).toFixed(1) : Math.abs(d).toFixed(3);
  // a difference that rounds to zero is unsigned: "0.000", not "−0.000"
  const sign = Number(mag) === 0 ? '' : d > 0 ? '+' : '−';
  return unit === 'percent' ? `${sign}${mag} pp` : `${sign}${mag}`;
};

/** Marks an interval that disagrees with its paired test (`PairedDifference.disagreement`). */
export const DISAGREE_MARK = '‡';

/** "[−10.0 pp, +30.0 pp]", "[+2.9 pp, +14.3 pp] ‡" (it disagrees with the test) or "(n < 10)". */
export const diffIntervalText = (d: Pick<PairedDifference, 'lo' | 'hi' | 'missing' | 'disagreement'>, unit: Unit): string =>
  finite(d.lo) && finite(d.hi)
    ? `[${diffText(d.lo, unit)}, ${diffText(d.hi, unit)}]${d.disagreement ? ` ${DISAGREE_MARK}` : ''}`
    : `(${d.missing ?? 'no interval'})`;

/** "p = 0.125 (exact McNemar)", with "; ‡ <why>" where the interval disagrees with it. */
export const testText = (d: { p: number | null; test: PairedTest; disagreement?: string }): string =>
  d.p === null
    ? 'no test'
    : `p ${d.p < 0.001 ? '< 0.001' : `= ${d.p.toFixed(3)}`} (${TEST_LABEL[d.test]})${d.disagreement ? `; ${DISAGREE_MARK} ${d.disagreement}` : ''}`;

/** One footnote line per measure whose interval and test disagree ("‡ accuracy: …"). */
export const disagreementNotes = (rows: readonly { label: string; disagreement?: string }[]): string[] =>
  rows.filter((r) => r.disagreement).map((r) => `${DISAGREE_MARK} ${r.label}: ${r.disagreement}.`);
