/**
 * The interval of one figure, by measure kind (./methods.ts): Wilson for a proportion, a seeded
 * percentile bootstrap for a mean of graded values or any other statistic (none below MIN_N).
 */
import { bootstrapStatisticCi, canonicalValues } from '../bootstrap.js';
import { wilsonCi } from '../wilson.js';
import { INTERVAL_METHOD, type IntervalMethod, type MeasureKind } from './methods.js';
import { LEVEL, MIN_N, NO_SPREAD, noSpread, RESAMPLES, SEED, TOO_FEW } from './settings.js';

export interface Interval {
  kind: MeasureKind;
  method: IntervalMethod;
  /** The figure on the whole sample. */
  estimate: number;
  /** null: no interval (n = 0, a bootstrap figure below MIN_N, or a bootstrap with no spread: see `missing`). */
  lo: number | null;
  hi: number | null;
  /** Items the figure is computed over. */
  n: number;
  level: number;
  /** Bootstrap resamples and seed (bootstrap figures only). */
  iterations?: number;
  seed?: number;
  /** Why lo/hi are null ("n < 10", "no items", settings.ts NO_SPREAD). */
  missing?: string;
  /** A stratified bootstrap's strata (more than one; 3-ply's scenarios): each resample keeps every stratum's count. */
  strata?: number;
}

export interface BootstrapSettings {
  iterations?: number;
  seed?: number;
}

/** A proportion: successes of n items, Wilson score interval (any n ≥ 1). */
export function proportionInterval(successes: number, n: number): Interval {
  if (n === 0) return { kind: 'proportion', method: INTERVAL_METHOD.proportion, estimate: 0, lo: null, hi: null, n, level: LEVEL, missing: 'no items' };
  const w = wilsonCi(successes, n, LEVEL);
  return { kind: 'proportion', method: INTERVAL_METHOD.proportion, estimate: w.estimate, lo: w.lo, hi: w.hi, n, level: LEVEL };
}

/**
 * Any statistic of n items, given as stat(indices); seeded percentile bootstrap, none below MIN_N nor
 * where every resample gives one value (NO_SPREAD). `strata` (item i's stratum): resampled within
 * each stratum (eval/bootstrap.ts), for a sample whose count per stratum the design fixes.
 */
export function statisticInterval(
  n: number,
  stat: (idx: Int32Array) => number,
  o: BootstrapSettings & { kind?: 'mean' | 'statistic'; strata?: ArrayLike<number> } = {},
): Interval {
  const kind = o.kind ?? 'statistic';
  const iterations = o.iterations ?? RESAMPLES;
  const seed = o.seed ?? SEED;
  const strata = o.strata ? new Set(Array.from(o.strata)).size : 0;
  const base = { kind, method: INTERVAL_METHOD[kind], n, level: LEVEL, iterations, seed, ...(strata > 1 ? { strata } : {}) };
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  if (n < MIN_N) return { ...base, estimate: stat(identity), lo: null, hi: null, missing: n === 0 ? 'no items' : TOO_FEW };
  const ci = bootstrapStatisticCi(n, stat, { iterations, seed, level: LEVEL, ...(o.strata ? { strata: o.strata } : {}) });
  // every resample the same value (lo = hi): a zero-width interval would read as certainty
  if (noSpread(ci.lo, ci.hi)) return { ...base, estimate: ci.estimate, lo: null, hi: null, missing: NO_SPREAD };
  return { ...base, estimate: ci.estimate, lo: ci.lo, hi: ci.hi };
}

const mean = (values: readonly number[]) => (idx: Int32Array) => {
  if (idx.length === 0) return 0;
  let s = 0;
  for (const i of idx) s += values[i];
  return s / idx.length;
};

/**
 * The mean of graded per-item values (MRR, nDCG, graded recall): bootstrap, none below MIN_N. The
 * values are summed and resampled in a canonical order (canonicalValues): one figure gets one
 * estimate and one interval whatever order a surface lists its items in (results.jsonl lists them
 * as they finished, so a run at --concurrency 4 lists them otherwise than one at 1; a float sum in
 * another order can differ in its last bit, enough to print 0.012 for 0.013 at a rounding edge).
 */
export function meanInterval(values: readonly number[], o: BootstrapSettings = {}): Interval {
  const sorted = Array.from(canonicalValues(values, 'meanInterval'));
  return statisticInterval(sorted.length, mean(sorted), { ...o, kind: 'mean' });
}

/** True when every value is 0 or 1 (a hit, a boolean flag): the mean is a proportion. */
export const isBinary = (values: readonly number[]): boolean => values.every((v) => v === 0 || v === 1);

/**
 * The mean of per-item values whose kind the data decides: 0/1 on every item → a proportion
 * (Wilson), else a mean of graded values (bootstrap). Recall@k is 0/1 when each query has one gold
 * passage, graded when it has several.
 */
export function perItemInterval(values: readonly number[], o: BootstrapSettings = {}): Interval {
  canonicalValues(values, 'perItemInterval'); // a NaN is a RangeError, never half an interval
  if (values.length && isBinary(values))
    return proportionInterval(
      values.reduce((s, v) => s + v, 0),
      values.length,
    );
  return meanInterval(values, o);
}
