/**
 * What a per-item metric measures, as the system that writes it declares it (its `metricKinds`:
 * a lexcase system's plugin, a system of the user's own through `runExperiment`'s `metricKinds`;
 * config.json records them, eval/systems.ts recordedMetricKinds reads them back):
 * - `count` (forfeits, citations, tool calls, rounds…): a value that can exceed 1, so a run where
 *   every item happened to record 0 or 1 is still a mean count — the graded mean's interval
 *   (percentile bootstrap; none below n = 10) whatever its values. Before, only the bundled
 *   systems' count names were known (a fixed list): a user's system writing `toolCalls` 0 or 1 on
 *   every item got a Wilson interval whose upper end (≤ 1) says the mean count cannot exceed one.
 * - `graded`: a mean of graded values (bootstrap), as a count.
 * - `outcome`: a 0/1 outcome every item of the run has, as accuracy is (MAD's verdict after each
 *   round, `correctAfterRound<r>`): its figure is over every item, one that did not record it (it
 *   failed before that step) counted as 0 — the share of all items at 1, Wilson (outcomeInterval).
 *   Any other metric is over the items that recorded it (null = not applicable). Before, the per-item
 *   table knew this rule only for MAD's round flags, by their name.
 * - `proportion` (a 0/1 outcome per item) and `share` (a per-item share in [0, 1]:
 *   citationsSupportive, claimStrength), and an undeclared metric: the values' rule (perItemInterval:
 *   0 or 1 on every item is the share of items at 1, Wilson; else a graded mean, bootstrap). A
 *   declaration its values contradict (a `proportion` at 0.5 on an item, a `share` at 1.5) is read
 *   by the values and said (metricMeasure, kindConflict): before, a `proportion` at 0.5 read "share
 *   of items" beside a bootstrap mean of the values (0.708 where 8 of 12 items were at 1).
 */
import { type BootstrapSettings, type Interval, meanInterval, perItemInterval } from './interval.js';

export const METRIC_KINDS = ['count', 'proportion', 'share', 'graded', 'outcome'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];
/** Per-item metric name → its kind. */
export type MetricKinds = Readonly<Record<string, MetricKind>>;

/** Whether per-item metric `key` is a mean of its values whatever they are (a count or a graded value). */
export const isMeanMetric = (key: string, kinds: MetricKinds = {}): boolean => kinds[key] === 'count' || kinds[key] === 'graded';

/** Whether per-item metric `key` is declared an outcome of every item (`outcome`): its figure is over every item, a missing value 0. */
export const isOutcomeMetric = (key: string, kinds: MetricKinds = {}): boolean => kinds[key] === 'outcome';

/** Per-item metric `key`'s interval over its values: a count's or graded value's is the graded mean's, any other's the values' rule (perItemInterval). */
export function metricInterval(key: string, values: readonly number[], o: BootstrapSettings = {}, kinds: MetricKinds = {}): Interval {
  return isMeanMetric(key, kinds) ? meanInterval(values, o) : perItemInterval(values, o);
}

/**
 * What a per-item metric's figure is, in words for a table's row and report.json's `measure`: a
 * boolean's or a proportion's "share of items"; a number at 0 or 1 on every item given Wilson "share
 * of items at 1" (a share's or an undeclared metric's: the values decided it); a bootstrap mean "mean
 * count", "mean share" or "mean". Before, every number read "mean" beside "95% Wilson".
 */
export function metricMeasure(kind: MetricKind | undefined, iv: Pick<Interval, 'kind'>, boolean = false): string {
  if (boolean || ((kind === 'proportion' || kind === 'outcome') && iv.kind === 'proportion')) return 'share of items';
  if (iv.kind === 'proportion') return 'share of items at 1 (each item 0 or 1)';
  return kind === 'count' ? 'mean count' : kind === 'share' ? 'mean share' : 'mean';
}

/** The values a declared kind allows on one item, where its label says so: a proportion's 0 or 1, a share's [0, 1] (a count and a graded value are a mean of any values). */
const ALLOWED: Readonly<Partial<Record<MetricKind, { fits: (v: number) => boolean; text: string }>>> = {
  proportion: { fits: (v) => v === 0 || v === 1, text: '0 or 1' },
  outcome: { fits: (v) => v === 0 || v === 1, text: '0 or 1' },
  share: { fits: (v) => v >= 0 && v <= 1, text: 'in [0, 1]' },
};

/**
 * Where per-item metric `key`'s values contradict its declared kind (a `proportion` at 0.5): one
 * sentence naming the metric, the kind, how many items and the first three (id = value), for a
 * report's warning; null where every value fits (or nothing is declared). The caller then reads
 * the metric as undeclared — by its values (perItemInterval), labelled "mean" — never by the declaration.
 */
export function kindConflict(key: string, kind: MetricKind | undefined, items: readonly { id: string; value: number }[]): string | null {
  const allowed = kind ? ALLOWED[kind] : undefined;
  if (!allowed) return null;
  const bad = items.filter((x) => !allowed.fits(x.value));
  if (!bad.length) return null;
  const shown = bad
    .slice(0, 3)
    .map((x) => `${x.id} = ${x.value}`)
    .join(', ');
  return (
    `${key} is declared ${/^[aeiou]/.test(kind!) ? 'an' : 'a'} ${kind} (${allowed.text} on each item) but ${bad.length} of ${items.length} item${items.length === 1 ? '' : 's'} record${bad.length === 1 ? 's' : ''} another value (${shown}${bad.length > 3 ? ', …' : ''}): ` +
    'its figure is read by its values, not by the declaration'
  );
}
