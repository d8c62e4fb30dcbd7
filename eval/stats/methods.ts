/**
 * One interval method per measure kind, and the names printed beside every figure.
 *
 * | measure kind | what it is | interval |
 * |---|---|---|
 * | proportion | share of items with a 0/1 outcome: accuracy, Recall@k with one gold passage, a boolean per-item flag, a rate | Wilson score (eval/wilson.ts), any n |
 * | mean | mean of a graded per-item value: MRR, nDCG, graded recall, MAP, P@k | percentile bootstrap over items (SEED, RESAMPLES), n ≥ MIN_N |
 * | statistic | a statistic of the whole sample that is no per-item mean: macro-F1/precision/recall, pooled ratios | percentile bootstrap over items (SEED, RESAMPLES), n ≥ MIN_N |
 *
 * Paired comparisons (two runs on the same items, always B − A): a 0/1 outcome is tested with the
 * exact McNemar test, a graded one with the paired sign-flip permutation test (exact up to
 * EXACT_FLIP_MAX differing items, else PERMUTATIONS seeded flips); the interval of the difference
 * is a paired percentile bootstrap, n ≥ MIN_N.
 */
import { LEVEL, MIN_N, PERMUTATIONS, RESAMPLES, SEED, EXACT_FLIP_MAX } from './settings.js';

export type MeasureKind = 'proportion' | 'mean' | 'statistic';
export type IntervalMethod = 'wilson' | 'bootstrap';
/**
 * `swap-…`: the paired randomization (swap) test of a statistic of the whole sample (macro-F1: eval/metrics/macro-swap.ts),
 * exact up to EXACT_FLIP_MAX differing items, else PERMUTATIONS seeded swaps. `none`: no paired test, its interval is the figure to read.
 */
export type PairedTest = 'mcnemar-exact' | 'sign-flip-exact' | 'sign-flip-monte-carlo' | 'swap-exact' | 'swap-monte-carlo' | 'none';

/** The interval method of each measure kind. */
export const INTERVAL_METHOD: Readonly<Record<MeasureKind, IntervalMethod>> = { proportion: 'wilson', mean: 'bootstrap', statistic: 'bootstrap' };

const pctLevel = `${Math.round(LEVEL * 100)}%`;

/** The short name printed beside a figure: "95% Wilson", "95% bootstrap". */
export const METHOD_LABEL: Readonly<Record<IntervalMethod, string>> = { wilson: `${pctLevel} Wilson`, bootstrap: `${pctLevel} bootstrap` };

/** The full description, for a table caption or a tooltip. */
export const METHOD_TEXT: Readonly<Record<IntervalMethod, string>> = {
  wilson: `${pctLevel} Wilson score interval`,
  bootstrap: `${pctLevel} percentile bootstrap over items (${RESAMPLES.toLocaleString('en-US')} resamples, seed ${SEED}; none below n = ${MIN_N})`,
};

export const TEST_LABEL: Readonly<Record<PairedTest, string>> = {
  'mcnemar-exact': 'exact McNemar',
  'sign-flip-exact': 'exact sign-flip',
  'sign-flip-monte-carlo': `sign-flip, ${PERMUTATIONS.toLocaleString('en-US')} seeded flips`,
  'swap-exact': 'exact paired swap',
  'swap-monte-carlo': `paired swap, ${PERMUTATIONS.toLocaleString('en-US')} seeded swaps`,
  none: 'none (no per-item mean: read the interval)',
};

/** One sentence naming every method, for a footnote. */
export const METHODS_NOTE = `Intervals: proportions (0/1 per item) ${METHOD_TEXT.wilson}; means of graded values and other statistics ${METHOD_TEXT.bootstrap}.`;

/**
 * METHODS_NOTE, and where a surface's bootstrap ran with other settings than the shared ones (`--iterations`,
 * `--seed`), the ones it used: a footnote never names settings its intervals were not computed with.
 */
export function methodsNoteFor(b: { iterations?: number; seed?: number } = {}): string {
  const iterations = b.iterations ?? RESAMPLES;
  const seed = b.seed ?? SEED;
  return iterations === RESAMPLES && seed === SEED ? METHODS_NOTE : `${METHODS_NOTE} This run: ${iterations.toLocaleString('en-US')} resamples, seed ${seed}.`;
}

/** The methods of a paired comparison: difference interval and tests. */
export const PAIRED_METHODS_NOTE =
  `Interval of Δ: ${pctLevel} paired percentile bootstrap (${RESAMPLES.toLocaleString('en-US')} resamples, seed ${SEED}; none below n = ${MIN_N}). ` +
  `p: two-sided exact McNemar test for 0/1 outcomes, paired sign-flip permutation test for graded values (exact up to ${EXACT_FLIP_MAX} differing items, else ${PERMUTATIONS.toLocaleString('en-US')} seeded flips).`;

/** The comparison footnote: sign, difference interval and tests. */
export const PAIRED_NOTE = `Δ = B − A on the items both runs scored. ${PAIRED_METHODS_NOTE}`;

/**
 * PAIRED_NOTE, and where the comparison's bootstrap ran with other settings than the shared ones
 * (`eval run --compare --iterations --seed`, the explorer's `iterations` / `seed`), the ones it used:
 * " This comparison: 500 resamples, seed 7." — a footnote never names settings its figures were not
 * computed with. `lead` replaces its first sentence where the pairs are not only items both runs scored
 * (`eval run --compare --complete`: a topic missing from a run is scored 0 there).
 */
export function pairedNoteFor(b: { iterations?: number; seed?: number } = {}, lead = 'Δ = B − A on the items both runs scored.'): string {
  const iterations = b.iterations ?? RESAMPLES;
  const seed = b.seed ?? SEED;
  const note = `${lead} ${PAIRED_METHODS_NOTE}`;
  return iterations === RESAMPLES && seed === SEED ? note : `${note} This comparison: ${iterations.toLocaleString('en-US')} resamples, seed ${seed}.`;
}
