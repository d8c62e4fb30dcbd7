/**
 * Per-item metrics the system put in results (`metrics`): booleans as rates, numbers as means,
 * each with a bootstrap CI over the items that have the metric (null = not applicable, skipped).
 * CASE's advocate evidence-recall flags land here.
 */
import { bootstrapCi } from '../../bootstrap.js';
import { ciText, pct, table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const itemMetricsSection: SectionBuilder = (run, o) => {
  const keys = new Map<string, { kind: 'rate' | 'mean'; values: number[] }>();
  for (const r of run.results)
    for (const [k, v] of Object.entries(r.metrics ?? {})) {
      if (typeof v !== 'boolean' && typeof v !== 'number') continue;
      const e = keys.get(k) ?? { kind: typeof v === 'boolean' ? 'rate' : 'mean', values: [] };
      if (typeof v === 'number') e.kind = e.kind === 'rate' && (v === 0 || v === 1) ? 'rate' : 'mean';
      e.values.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
      keys.set(k, e);
    }
  if (keys.size === 0) return null;
  const json: Record<string, unknown> = {};
  const rows: (string | number)[][] = [];
  for (const [k, e] of [...keys].sort(([a], [b]) => a.localeCompare(b))) {
    const ci = bootstrapCi(e.values, { iterations: o.iterations, seed: o.seed });
    json[k] = { kind: e.kind, n: e.values.length, value: ci.estimate, ci: { lo: ci.lo, hi: ci.hi } };
    const asPct = e.kind === 'rate';
    rows.push([k, e.values.length, asPct ? pct(ci.estimate) : ci.estimate.toFixed(3), ciText(ci, asPct)]);
  }
  return { id: 'itemMetrics', title: 'Per-item metrics', markdown: table(['metric', 'n', 'rate / mean', '95% CI'], rows), json };
};
