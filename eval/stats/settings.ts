/**
 * The settings every lexcase statistic shares (eval/stats/): one confidence level, one bootstrap
 * seed and resample count, one minimum n. report.md, `lexcase report`, `lexcase compare`, the
 * reproduction tables, `lexcase eval retrieval` / `eval run`, the explorer and the /v1 API all read
 * them from here, so one run shows the same interval on every surface.
 *
 * MIN_N = 10. Below it lexcase prints no bootstrap interval, no paired-bootstrap interval and no
 * "outside CI" flag, and says "n < 10" instead:
 * - a percentile bootstrap of n items has at most C(2n−1, n) distinct resamples and, for a 0/1
 *   outcome, n + 1 possible means — at n = 2 it returns [0%, 100%] or a single point, whose
 *   coverage is nowhere near 95%;
 * - a two-sided exact paired test (McNemar, sign-flip) cannot reach p < 0.05 on fewer than 6
 *   differing items (2 · 0.5⁶ = 0.031, 2 · 0.5⁵ = 0.0625), so a flag or a "significant" call at
 *   n < 10 rests on one or two items.
 * Wilson intervals (proportions) and exact tests (paired p-values) stay valid at any n and are still
 * printed below MIN_N — they are what a small run has.
 */

/** Two-sided confidence level of every interval. */
export const LEVEL = 0.95;
/** Seed of every bootstrap (core/rng.ts): the same data gives the same interval on every surface. */
export const SEED = 13;
/** Bootstrap resamples B. */
export const RESAMPLES = 2000;
/**
 * Fewest and most resamples a user may ask for (`--iterations`, the explorer's `iterations`). A 95%
 * percentile interval is read off the 2.5th and 97.5th percentiles of the resamples: at B = 1 both
 * are the one resample (a collapsed "interval"), below 40 they are the smallest and largest; 100
 * leaves at least two resamples in each tail. The cap bounds the work one request may ask for.
 */
export const MIN_RESAMPLES = 100;
export const MAX_RESAMPLES = 100_000;
/** Random sign flips of the paired permutation test when it is not enumerated exactly. */
export const PERMUTATIONS = 10000;
/** The paired sign-flip test enumerates every sign vector up to this many non-zero differences (2^20). */
export const EXACT_FLIP_MAX = 20;
/** Below this n: no bootstrap interval, no paired interval, no "outside CI" flag. */
export const MIN_N = 10;
/** What is printed where MIN_N withholds a figure. */
export const TOO_FEW = `n < ${MIN_N}`;
/**
 * What is printed where a percentile bootstrap has no spread (every resample gives the same value:
 * a macro-F1 of 0 when every item failed, a mean of equal values): "[0.0, 0.0]" would read as
 * certainty, so no interval is given.
 */
export const NO_SPREAD = 'no spread: all resamples equal';
/** True when a bootstrap interval has no width (equal up to float rounding of the resample means). */
export const noSpread = (lo: number, hi: number): boolean => Math.abs(hi - lo) <= 1e-12 * Math.max(1, Math.abs(lo), Math.abs(hi));
/** The paired form: two runs that agree on every item (no discordant pair) give a difference of 0 on every resample. */
export const NO_ITEM_DIFFERS = 'no item differs';
