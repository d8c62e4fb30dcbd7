/**
 * Per-item metrics the system put in results (`metrics`): 0/1 values and booleans as rates (a
 * proportion: Wilson), other numbers as means (a graded mean: bootstrap, none below n = 10) —
 * eval/stats — over the items that have the metric (null = not applicable, skipped). CASE's
 * advocate evidence-recall flags land here. Not for retrieval runs: their per-query hits and ranks
 * are the Figures section's Recall@k and MRR.
 */
import { figureText, isBinary, methodLabel, perItemInterval } from '../../stats/index.js';
import { systemSpec } from '../../systems.js';
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const itemMetricsSection: SectionBuilder = (run, o) => {
  if (systemSpec(typeof run.config.config.system === 'string' ? run.config.config.system : null).retrieval) return null;
  const keys = new Map<string, number[]>();
  for (const r of run.results)
    for (const [k, v] of Object.entries(r.metrics ?? {})) {
      if (typeof v !== 'boolean' && typeof v !== 'number') continue;
      if (!keys.has(k)) keys.set(k, []);
      keys.get(k)!.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
    }
  if (keys.size === 0) return null;
  const json: Record<string, unknown> = {};
  const rows: (string | number)[][] = [];
  for (const [k, values] of [...keys].sort(([a], [b]) => a.localeCompare(b))) {
    const kind = isBinary(values) ? 'rate' : 'mean';
    const ci = perItemInterval(values, o);
    json[k] = { kind, n: values.length, value: ci.estimate, ci: { lo: ci.lo, hi: ci.hi, method: ci.method } };
    rows.push([k, values.length, figureText(ci, kind === 'rate' ? 'percent' : 'decimal'), methodLabel(ci)]);
  }
  return { id: 'itemMetrics', title: 'Per-item metrics', markdown: table(['metric', 'n', 'rate / mean [95% interval]', 'interval'], rows), json };
};
