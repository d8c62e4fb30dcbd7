/**
 * A recipe cell's value from a run's results: the statistic named by the cell's metric
 * (recipe.ts `Metric`) with the interval its measure kind gets from the statistics module
 * (eval/stats/): accuracy and micro-F1 where no item failed (= accuracy) and a mean of 0/1 values (a hit, a boolean
 * flag) are proportions — Wilson; a mean of graded values, a pooled ratio and macro
 * precision/recall/F1 a seeded percentile bootstrap, none below n = 10, over the records in a
 * canonical order (by id); a mean of a metric the run's system declares a count (`kinds`: its
 * config.json's, eval/systems.ts recordedMetricKinds) a bootstrap whatever its values; a mean of a metric it
 * declares an outcome of every item (MAD's correctAfterRound<r>) is over every item the cell keeps, one
 * that did not record it 0, as report.md's per-item table has it (eval/stats metricValueOf: the one reading
 * of a metric's kind; a declaration its values contradict is read by the values). The macro figures follow the run's headline rule
 * (eval/metrics/macro.ts: over the task's label set, a failed item scored as no prediction).
 */
import { canonicalById } from '../bootstrap.js';
import { correctFlags, isFailed } from '../metrics/failures.js';
import { macroScores } from '../metrics/macro.js';
import {
  metricInterval,
  metricValueOf,
  proportionInterval,
  readableKinds,
  statisticInterval,
  type BootstrapSettings,
  type Interval,
  type MetricKinds,
} from '../stats/index.js';
import type { ResultRecord } from '../types.js';
import type { Metric } from './recipe.js';

const num = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A label keeps the items with it; `{ not: label }` every other item (failed ones and ones without a label too). */
function confidenceMatches(r: ResultRecord, want: string | { not: string }): boolean {
  const label = String(r.confidence ?? '');
  return typeof want === 'string' ? label === want : label !== want.not;
}

/**
 * The records a cell's statistic is over. `kinds`: the run's per-item metric kinds as its values allow
 * them (cellKinds): a mean of a declared outcome keeps every item `where` keeps, any other mean the items
 * that recorded the metric.
 */
export function selectRecords(records: readonly ResultRecord[], m: Metric, kinds: MetricKinds = {}): ResultRecord[] {
  const w = m.where;
  const value = m.key === undefined ? () => null : metricValueOf(m.key, kinds);
  return records.filter(
    (r) =>
      (!w?.idPrefix || r.id.startsWith(w.idPrefix)) &&
      (w?.gold === undefined || r.gold === w.gold) &&
      (w?.confidence === undefined || confidenceMatches(r, w.confidence)) &&
      (m.stat !== 'mean' || value(r) !== null) &&
      // a pooled ratio over the answered items, as the run's own report pools it (3-ply's summary:
      // a failed triple is left out of n and of the sums), so both give one n and one interval
      (!POOLED.has(m.stat) || (!isFailed(r) && num(r.metrics?.[m.den!]) !== null)),
  );
}

const POOLED = new Set<Metric['stat']>(['ratio', 'one-minus-ratio']);

/** A pooled ratio Σnum / Σden (or 1 − it) over the records at `idx` (indices into `rs`, with repeats for a resample). */
function pooledRatio(rs: readonly ResultRecord[], m: Metric): (idx: Int32Array) => number {
  const sign = m.stat === 'ratio' ? 1 : -1;
  return (idx) => {
    let a = 0,
      b = 0;
    for (const i of idx) (a += num(rs[i].metrics?.[m.num!]) ?? 0), (b += num(rs[i].metrics?.[m.den!]) ?? 0);
    const r = b === 0 ? 0 : a / b;
    return sign === 1 ? r : 1 - r;
  };
}

/** The whole-sample classification figures (eval/metrics/macro.ts): micro-F1 is not accuracy once an item failed. */
const MACRO = { 'macro-precision': 'precision', 'macro-recall': 'recall', 'macro-f1': 'f1', 'micro-f1': 'microF1' } as const;

/** Whether a cell's statistic is one of the macro (or micro) figures of eval/metrics/macro.ts. */
export const isMacroStat = (stat: string): boolean => stat in MACRO;

/**
 * A cell's value. `labels`: the task's label set of the cell's run (eval/systems.ts `taskLabels`
 * over its config.json), which the macro figures average over as the run's headline does
 * (eval/metrics/macro.ts); without it, the labels of the cell's whole sample.
 */
export function cellValue(
  records: readonly ResultRecord[],
  m: Metric,
  o: BootstrapSettings & { labels?: readonly string[]; kinds?: MetricKinds } = {},
): Interval {
  const kinds = cellKinds(records, o.kinds);
  // a canonical order (by id): a resampled statistic does not depend on the order of results.jsonl
  const rs = canonicalById(selectRecords(records, m, kinds));
  const bo = { seed: o.seed, iterations: o.iterations };
  if (m.stat === 'accuracy')
    return proportionInterval(
      correctFlags(rs).reduce((a, b) => a + b, 0),
      rs.length,
    );
  if (m.stat === 'mean') {
    const value = metricValueOf(m.key!, kinds);
    return metricInterval(
      m.key!,
      rs.map((r) => value(r)!),
      bo,
      kinds,
    );
  }
  if (m.stat in MACRO) return macroScores(rs, { ...bo, labels: o.labels })[MACRO[m.stat as keyof typeof MACRO]];
  return statisticInterval(rs.length, pooledRatio(rs, m), bo); // ratio | one-minus-ratio
}

/** A run's declared metric kinds (`declared`, its config.json's) as its records' values allow them (eval/stats readableKinds). */
export const cellKinds = (records: readonly ResultRecord[], declared: MetricKinds = {}): MetricKinds => readableKinds(records, declared).kinds;
