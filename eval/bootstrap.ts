/**
 * Seeded bootstrap confidence intervals (core/rng.ts, so the same seed gives the same interval).
 * The engine under eval/stats/, which decides where a bootstrap is used (graded means and other
 * statistics, n ≥ 10) and which every lexcase surface calls; no surface prints the bootstrap
 * p-value below (paired p-values come from exact tests: eval/stats/paired.ts).
 *
 * - `bootstrapCi(values)`: percentile CI for a per-item statistic (default: the mean), resampling
 *   items with replacement.
 * - `bootstrapStatisticCi(n, stat)`: the same for any statistic of a resample, given as a function
 *   of resampled item indices (e.g. macro-F1 over resampled (prediction, gold) pairs).
 * - `pairedBootstrap(a, b)`: two systems scored on the SAME items (a[i], b[i] belong to item i);
 *   resamples items jointly; CI of mean(a) − mean(b) and a two-sided p-value.
 * - `unpairedBootstrap(a, b)`: two systems on DIFFERENT items; resamples each side independently.
 *
 * p-value: two-sided, from the bootstrap distribution of the difference d*:
 * p = min(1, 2 · min(#{d* ≤ 0} + 1, #{d* ≥ 0} + 1) / (B + 1)). It asks how often a resample's
 * difference falls on the other side of zero; small p = the sign of the difference is stable.
 */
import { createRng, isValidSeed, SEED_RULE } from '../core/rng.js';

export interface BootstrapOptions {
  /** Number of resamples B (default 2000). */
  iterations?: number;
  /** Seed (default 13). */
  seed?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export interface Ci {
  /** The statistic on the original sample. */
  estimate: number;
  lo: number;
  hi: number;
  level: number;
  iterations: number;
  seed: number;
  n: number;
}

export interface DiffCi extends Ci {
  /** Two-sided bootstrap p-value for "no difference". */
  p: number;
}

const DEFAULTS = { iterations: 2000, seed: 13, level: 0.95 };

/** Percentile of a sorted array (linear interpolation between closest ranks). */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function interval(samples: Float64Array, level: number): { lo: number; hi: number } {
  const sorted = samples.slice().sort();
  const a = (1 - level) / 2;
  return { lo: percentile(sorted, a), hi: percentile(sorted, 1 - a) };
}

function resolve(opts: BootstrapOptions) {
  const o = { ...DEFAULTS, ...opts };
  if (!(o.level > 0 && o.level < 1)) throw new RangeError(`bootstrap level must be in (0, 1), got ${o.level}`);
  if (!(Number.isInteger(o.iterations) && o.iterations > 0)) throw new RangeError(`bootstrap iterations must be a positive integer`);
  // draws use the seed's 32 bits: 4294967297 resampled as seed 1, 1.5 as 1, while the interval said the seed given
  if (!isValidSeed(o.seed)) throw new RangeError(`bootstrap seed must be ${SEED_RULE}, got ${String(o.seed)}`);
  return o;
}

const meanOf = (values: ArrayLike<number>, idx?: Int32Array): number => {
  const n = idx ? idx.length : values.length;
  if (n === 0) return 0;
  let s = 0;
  if (idx) for (let i = 0; i < n; i++) s += values[idx[i]];
  else for (let i = 0; i < n; i++) s += values[i];
  return s / n;
};

/**
 * CI for any statistic of n items, given as stat(indices); indices of the original sample are 0..n-1.
 * `strata` (item i's stratum, one per item): a stratified bootstrap — each position draws from the
 * items of its own stratum, so every resample keeps the sample's count per stratum (3-ply's
 * scenarios, whose counts the run fixes: `--n` per scenario). With one stratum the draws are the
 * unstratified ones.
 */
export function bootstrapStatisticCi(n: number, stat: (indices: Int32Array) => number, opts: BootstrapOptions & { strata?: ArrayLike<number> } = {}): Ci {
  const o = resolve(opts);
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  const estimate = stat(identity);
  if (n === 0) return { estimate, lo: estimate, hi: estimate, level: o.level, iterations: o.iterations, seed: o.seed, n };
  const members = stratumMembers(n, opts.strata);
  const rng = createRng(o.seed);
  const samples = new Float64Array(o.iterations);
  const idx = new Int32Array(n);
  for (let b = 0; b < o.iterations; b++) {
    for (let i = 0; i < n; i++) {
      const m = members[i];
      idx[i] = m[rng.int(0, m.length - 1)];
    }
    samples[b] = stat(idx);
  }
  return { estimate, ...interval(samples, o.level), level: o.level, iterations: o.iterations, seed: o.seed, n };
}

/** For each position, the items it may draw: its stratum's (every item where `strata` is absent). */
function stratumMembers(n: number, strata: ArrayLike<number> | undefined): Int32Array[] {
  const all = Int32Array.from({ length: n }, (_, i) => i);
  if (!strata) return Array.from({ length: n }, () => all);
  if (strata.length !== n) throw new RangeError(`bootstrap strata: ${strata.length} labels for ${n} items`);
  const byStratum = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const list = byStratum.get(strata[i]) ?? [];
    list.push(i);
    byStratum.set(strata[i], list);
  }
  const arrays = new Map([...byStratum].map(([k, v]) => [k, Int32Array.from(v)]));
  return Array.from({ length: n }, (_, i) => arrays.get(strata[i])!);
}

/**
 * Per-item values in a canonical order (ascending; one NaN or infinity is a RangeError naming it).
 * The bootstrap resamples positions, so the same values listed in another order (dataset order in
 * `eval retrieval`, qid order in `eval run`) drew other resamples and printed another interval for
 * the same figure; sorted first, the interval depends on the values alone.
 */
export function canonicalValues(values: readonly number[], what = 'bootstrap'): Float64Array {
  for (let i = 0; i < values.length; i++)
    if (!Number.isFinite(values[i]))
      throw new RangeError(`${what}: value ${i + 1} of ${values.length} is ${values[i]}; every per-item value must be a finite number`);
  return Float64Array.from(values).sort();
}

/**
 * Items (records) in a canonical order: by id, in code-unit order (no locale). A statistic of the
 * whole sample (macro-F1, a pooled ratio) is bootstrapped over item positions, so the same records
 * listed in another order (a retry rewrites results.jsonl's order; a merge of shards) drew other
 * resamples and printed another interval; sorted first, the interval depends on the records alone.
 */
export function canonicalById<T extends { id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Percentile CI of the mean of per-item values (e.g. 0/1 hits for Recall@k, reciprocal ranks for
 * MRR); the order of the values does not matter — the mean too is summed in the canonical order, so
 * the same values listed in another order give the same estimate to the last bit.
 */
export function bootstrapCi(values: readonly number[], opts: BootstrapOptions = {}): Ci {
  const sorted = canonicalValues(values, 'bootstrapCi');
  return bootstrapStatisticCi(sorted.length, (idx) => meanOf(sorted, idx), opts);
}

function pValue(samples: Float64Array): number {
  let le = 0,
    ge = 0;
  for (const d of samples) {
    if (d <= 0) le++;
    if (d >= 0) ge++;
  }
  return Math.min(1, (2 * Math.min(le + 1, ge + 1)) / (samples.length + 1));
}

/** Paired bootstrap of mean(a) − mean(b) over the same items. */
export function pairedBootstrap(a: readonly number[], b: readonly number[], opts: BootstrapOptions = {}): DiffCi {
  if (a.length !== b.length) throw new RangeError(`pairedBootstrap: the two systems have ${a.length} and ${b.length} items; paired needs the same items`);
  const o = resolve(opts);
  const n = a.length;
  // the items' differences in a canonical order: the estimate, the interval and p do not depend on the order the items are listed in
  const d = canonicalValues(
    a.map((x, i) => x - b[i]),
    'pairedBootstrap',
  );
  const estimate = meanOf(d);
  const rng = createRng(o.seed);
  const samples = new Float64Array(o.iterations);
  const idx = new Int32Array(n);
  for (let it = 0; it < o.iterations; it++) {
    for (let i = 0; i < n; i++) idx[i] = rng.int(0, n - 1);
    samples[it] = meanOf(d, idx);
  }
  return { estimate, ...interval(samples, o.level), p: n === 0 ? 1 : pValue(samples), level: o.level, iterations: o.iterations, seed: o.seed, n };
}

/** Unpaired bootstrap of mean(a) − mean(b) for two independent samples. */
export function unpairedBootstrap(aValues: readonly number[], bValues: readonly number[], opts: BootstrapOptions = {}): DiffCi {
  const o = resolve(opts);
  const a = canonicalValues(aValues, 'unpairedBootstrap');
  const b = canonicalValues(bValues, 'unpairedBootstrap');
  const estimate = meanOf(a) - meanOf(b);
  const rng = createRng(o.seed);
  const samples = new Float64Array(o.iterations);
  const ia = new Int32Array(a.length);
  const ib = new Int32Array(b.length);
  for (let it = 0; it < o.iterations; it++) {
    for (let i = 0; i < a.length; i++) ia[i] = rng.int(0, a.length - 1);
    for (let i = 0; i < b.length; i++) ib[i] = rng.int(0, b.length - 1);
    samples[it] = meanOf(a, ia) - meanOf(b, ib);
  }
  const empty = a.length === 0 || b.length === 0;
  return {
    estimate,
    ...interval(samples, o.level),
    p: empty ? 1 : pValue(samples),
    level: o.level,
    iterations: o.iterations,
    seed: o.seed,
    n: a.length + b.length,
  };
}
