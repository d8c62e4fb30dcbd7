/** Accuracy stratified by the system's confidence label (CASE: high = unanimous jury, low = 2–1). */
import { bootstrapCi } from '../../bootstrap.js';
import { ciText, pct, table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const confidenceSection: SectionBuilder = (run, o) => {
  const groups = new Map<string, number[]>();
  for (const r of run.results) if (r.confidence !== undefined && r.confidence !== null) {
    const k = String(r.confidence);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(r.correct ? 1 : 0);
  }
  if (groups.size === 0) return null;
  const json: Record<string, unknown> = {};
  const rows: (string | number)[][] = [];
  for (const [k, v] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const ci = bootstrapCi(v, { iterations: o.iterations, seed: o.seed });
    json[k] = { n: v.length, share: v.length / run.results.length, accuracy: ci.estimate, ci: { lo: ci.lo, hi: ci.hi } };
    rows.push([k, v.length, pct(v.length / run.results.length), pct(ci.estimate), ciText(ci)]);
  }
  return { id: 'byConfidence', title: 'Accuracy by confidence', markdown: table(['confidence', 'n', 'share', 'accuracy', '95% CI'], rows), json };
};
