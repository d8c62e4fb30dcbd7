/** Accuracy stratified by the system's confidence label (CASE: high = unanimous jury, low = 2–1). */
import { bootstrapCi } from '../../bootstrap.js';
import { ciText, pct, table } from '../format.js';
import type { SectionBuilder } from '../types.js';
import { confidenceBins } from '../../plots/confidence-bins.js';
import { reliabilitySpec } from '../../plots/specs.js';

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
  const rel = confidenceBins(run.results, { iterations: o.iterations, seed: o.seed });
  const system = typeof run.config.config.system === 'string' ? ` — ${run.config.config.system}` : '';
  return {
    id: 'byConfidence',
    title: 'Accuracy by confidence',
    markdown: table(['confidence', 'n', 'share', 'accuracy', '95% CI'], rows),
    json,
    plots: [{ file: 'reliability.svg', title: 'Reliability diagram: accuracy by confidence bin, with counts', spec: reliabilitySpec(rel.bins, `Accuracy by confidence${system} (n per bin, 95% CI)`) }],
  };
};
