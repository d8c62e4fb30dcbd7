/**
 * The figure of a per-item 0/1 outcome over every item of a run (metric kind `outcome`,
 * ./metric-kinds.ts): the share of all items that recorded it true (or 1), an item that did not
 * record it — it failed before that step — counted as 0, with Wilson's interval. One computation
 * for every surface that gives such a figure: report.md's per-item table and MAD's accuracy by
 * round (eval/plots/round-accuracy.ts roundIntervals, its table and plot). Before, each computed it
 * apart, and the per-item table knew the rule only for MAD's round flags.
 */
import { type Interval, proportionInterval } from './interval.js';

/** Per-item outcome `key` over every one of `results` (a missing or false value counts 0). */
export function outcomeInterval(key: string, results: readonly { metrics?: Readonly<Record<string, unknown>> | null }[]): Interval {
  const hits = results.filter((r) => r.metrics?.[key] === true || r.metrics?.[key] === 1).length;
  return proportionInterval(hits, results.length);
}
