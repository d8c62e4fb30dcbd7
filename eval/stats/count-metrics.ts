/**
 * Per-item metrics that count something (forfeits, citations, abstaining jurors, rounds, …): a value
 * that can exceed 1, so a run where every item happened to record 0 or 1 is still a mean count, not
 * the share of items with one. `metricInterval` gives such a metric the graded mean's interval
 * (percentile bootstrap; none below n = 10) whatever its values, and any other metric the values'
 * rule (perItemInterval: 0 or 1 on every item is a proportion, Wilson). Before, report.md's per-item
 * table gave `unresolvedCitations` or `forfeits` at 0 or 1 on every item a Wilson interval, whose
 * upper end (≤ 1) says the mean count cannot exceed one — and a bootstrap interval in a run where one
 * item recorded 2. The names are those the bundled systems write (agents/\*\/system.ts, agents/mad/debate.ts,
 * agents/mad/citation-summary.ts); a share (citationsSupportive, claimStrength) is not one.
 */
import { type BootstrapSettings, type Interval, meanInterval, perItemInterval } from './interval.js';

export const COUNT_METRICS: ReadonlySet<string> = new Set([
  // MAD
  'citations',
  'debateCitations',
  'forfeits',
  'checklist',
  // CASE, MAD, ACAL: citations that named no passage handle shown; CASE's jurors and picks
  'unresolvedCitations',
  'abstentions',
  'picksBeyondK',
  // EMAR: rounds
  'depth',
  // ACAL
  'clashes',
  'arguments',
  'relations',
  'llmCalls',
  'teamSize',
  // 3-ply
  'nH',
  'nGt',
  'nUtil',
  'revisedPlies',
  'uncorrectedPlies',
]);

/** Whether per-item metric `key` is a count (COUNT_METRICS). */
export const isCountMetric = (key: string): boolean => COUNT_METRICS.has(key);

/** Per-item metric `key`'s interval over its values: a count's is the graded mean's, any other's the values' rule (perItemInterval). */
export function metricInterval(key: string, values: readonly number[], o: BootstrapSettings = {}): Interval {
  return isCountMetric(key) ? meanInterval(values, o) : perItemInterval(values, o);
}
