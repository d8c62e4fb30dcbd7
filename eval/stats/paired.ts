/**
 * Two runs scored on the same items: the difference B − A (always second minus first), its paired
 * percentile bootstrap interval (none below MIN_N) and a p-value from an exact paired test — the
 * exact McNemar test when the per-item values are 0/1, the paired sign-flip permutation test when
 * they are graded. No bootstrap p-value anywhere: an exact test is valid at any n.
 */
import { pairedBootstrap } from '../bootstrap.js';
import { mcnemarExact } from './mcnemar.js';
import { isBinary } from './interval.js';
import type { PairedTest } from './methods.js';
import { LEVEL, MIN_N, NO_ITEM_DIFFERS, NO_SPREAD, noSpread, RESAMPLES, SEED, TOO_FEW } from './settings.js';
import { signFlipTest } from './sign-flip.js';

export interface PairedDifference {
  /** 'binary': 0/1 per item (McNemar); 'graded': any other value (sign-flip). */
  outcome: 'binary' | 'graded';
  /** Items both runs scored. */
  n: number;
  /** Mean of A and of B over those items. */
  a: number;
  b: number;
  /** mean(B) − mean(A). */
  estimate: number;
  /** Paired percentile bootstrap interval of the difference; null below MIN_N and where every resample gives one difference (see `missing`). */
  lo: number | null;
  hi: number | null;
  level: number;
  iterations: number;
  seed: number;
  missing?: string;
  /** Two-sided p of the exact paired test (null with no items). */
  p: number | null;
  test: PairedTest;
  /** Items where the two differ: A higher (A right only), B higher (B right only). */
  aOnly: number;
  bOnly: number;
  /**
   * Set where the interval and the test disagree at the interval's level: the interval excludes 0
   * while p ≥ 1 − level (few differing items: the percentile bootstrap is too narrow), or p < 1 − level
   * while the interval holds 0. Every surface prints it beside the figure.
   */
  disagreement?: string;
}

/** Why the interval and the exact test say different things, or undefined where they agree. */
export function intervalTestDisagreement(d: Pick<PairedDifference, 'lo' | 'hi' | 'p' | 'level' | 'aOnly' | 'bOnly'>): string | undefined {
  if (d.lo === null || d.hi === null || d.p === null) return undefined;
  const alpha = 1 - d.level;
  const excludesZero = d.lo > 0 || d.hi < 0;
  const rejects = d.p < alpha;
  if (excludesZero === rejects) return undefined;
  const pct = `${Math.round(100 * d.level)}%`;
  const p = d.p < 0.001 ? '< 0.001' : `= ${d.p.toFixed(3)}`;
  const k = d.aOnly + d.bOnly;
  const items = `${k} item${k === 1 ? '' : 's'} differ`;
  return excludesZero
    ? `the ${pct} interval excludes 0 but the exact test does not reject (p ${p} ≥ ${+alpha.toFixed(3)}; ${items}): a percentile bootstrap over few differing items is too narrow, read the test`
    : `the exact test rejects (p ${p} < ${+alpha.toFixed(3)}; ${items}) but the ${pct} interval holds 0`;
}

/**
 * The mean summed in a canonical (ascending) order, as meanInterval and the bootstrap sum it: the items
 * come in a run's results.jsonl order (as they finished: another at --concurrency 4, after a resume
 * or a retry), and a float sum in another order differs in its last bit, so `lexcase compare` printed
 * another A, B and Δ for the same items (and at a rounding edge another figure) than in the report.
 */
const meanOf = (v: readonly number[]) => {
  if (!v.length) return 0;
  let s = 0;
  for (const x of Float64Array.from(v).sort()) s += x;
  return s / v.length;
};

/** B − A over paired values a[i], b[i] of item i. */
export function pairedDifference(a: readonly number[], b: readonly number[], o: { iterations?: number; seed?: number } = {}): PairedDifference {
  if (a.length !== b.length) throw new RangeError(`pairedDifference: the two runs have ${a.length} and ${b.length} values; a paired test needs the same items`);
  const n = a.length;
  const iterations = o.iterations ?? RESAMPLES;
  const seed = o.seed ?? SEED;
  const binary = isBinary(a) && isBinary(b);
  const aOnly = a.filter((x, i) => x > b[i]).length;
  const bOnly = a.filter((x, i) => x < b[i]).length;
  const estimate = meanOf(b) - meanOf(a);
  let lo: number | null = null;
  let hi: number | null = null;
  let missing: string | undefined = n < MIN_N ? (n === 0 ? 'no items' : TOO_FEW) : undefined;
  if (n >= MIN_N) {
    const ci = pairedBootstrap(b, a, { iterations, seed, level: LEVEL });
    // a zero-width interval ([0.0 pp, 0.0 pp] from runs that agree on every item) reads as certainty: none is given
    if (noSpread(ci.lo, ci.hi)) missing = aOnly + bOnly === 0 ? NO_ITEM_DIFFERS : NO_SPREAD;
    else {
      lo = ci.lo;
      hi = ci.hi;
    }
  }
  let p: number | null = null;
  let test: PairedTest = binary ? 'mcnemar-exact' : 'sign-flip-exact';
  if (n > 0) {
    if (binary) p = mcnemarExact(aOnly, bOnly);
    else {
      const r = signFlipTest(
        b.map((x, i) => x - a[i]),
        { seed },
      );
      p = r.p;
      test = r.exact ? 'sign-flip-exact' : 'sign-flip-monte-carlo';
    }
  }
  const disagreement = intervalTestDisagreement({ lo, hi, p, level: LEVEL, aOnly, bOnly });
  return {
    outcome: binary ? 'binary' : 'graded',
    n,
    a: meanOf(a),
    b: meanOf(b),
    estimate,
    lo,
    hi,
    level: LEVEL,
    iterations,
    seed,
    ...(missing ? { missing } : {}),
    p,
    test,
    aOnly,
    bOnly,
    ...(disagreement ? { disagreement } : {}),
  };
}
