/**
 * The figure of a per-item 0/1 outcome over every item of a run (metric kind `outcome`,
 * ./metric-kinds.ts): the share of all items that recorded it true (or 1), an item that did not
 * record it — it failed before that step — counted as 0, with Wilson's interval. One computation
 * for every surface that gives such a figure: report.md's per-item table and MAD's accuracy by
 * round (eval/plots/round-accuracy.ts roundIntervals, its table and plot); the per-item value is
 * ./metric-values.ts metricValueOf's, the reading the reproduction tables and `lexcase compare` use. Before, each computed it
 * apart, and the per-item table knew the rule only for MAD's round flags.
 */
import { type Interval, proportionInterval } from './interval.js';
import { metricValueOf } from './metric-values.js';

/** Per-item outcome `key` over every one of `results` (a missing or false value counts 0: metricValueOf's reading of an outcome). */
export function outcomeInterval(key: string, results: readonly { metrics?: Readonly<Record<string, unknown>> | null }[]): Interval {
  const value = metricValueOf(key, { [key]: 'outcome' });
  const hits = results.filter((r) => value(r) === 1).length;
  return proportionInterval(hits, results.length);
}
