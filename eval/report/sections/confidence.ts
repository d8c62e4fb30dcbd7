/**
 * Accuracy stratified by the system's confidence label (CASE: high = unanimous jury, low = 2–1, tie = 1–1–1
 * broken by evidence score or draw; the paper's Table 4 low = every item not unanimous is in the CASE section), each
 * with its 95% Wilson interval (eval/stats). Items without a label get a row too — failed ones
 * ("failed (no confidence)", wrong) and any others ("no confidence") — so the shares add up to 100%.
 * The reliability plot (here and on the explorer's run page) has the same rows and counts: confidenceBins
 * (eval/plots/confidence-bins.ts) groups and scores items by the same rule.
 */
import { correctFlags } from '../../metrics/failures.js';
import { intervalText, methodLabel, proportionInterval, valueText } from '../../stats/index.js';
import { recordedSystemSpec } from '../../systems.js';
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';
import {
  compareConfidenceLabels,
  confidenceBins,
  FAILED_NO_CONFIDENCE,
  hasConfidence,
  NO_CONFIDENCE,
  unlabelledNote,
  unlabelledRow,
} from '../../plots/confidence-bins.js';
import { reliabilitySpec } from '../../plots/specs.js';

export const confidenceSection: SectionBuilder = (run, o) => {
  // a retrieval run as its config.json records its writer (recordedSystemSpec): a system of the user's own named "retrieval" is judged by accuracy
  if (recordedSystemSpec(run.config).retrieval) return null;
  const groups = new Map<string, number[]>();
  const rest = new Map<string, number[]>([
    [FAILED_NO_CONFIDENCE, []],
    [NO_CONFIDENCE, []],
  ]);
  const flags = correctFlags(run.results);
  run.results.forEach((r, i) => {
    if (!hasConfidence(r)) {
      // every item has a row: the shares add up to the run's items, as the CLI's table with its failed bucket
      rest.get(unlabelledRow(r))!.push(flags[i]);
      return;
    }
    const k = String(r.confidence);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(flags[i]);
  });
  if (groups.size === 0) return null;
  const json: Record<string, unknown> = {};
  const rows: (string | number)[][] = [];
  // low → high, the reliability plot's order (one constant: CONFIDENCE_LABEL_ORDER)
  const ordered = [...groups].sort(([a], [b]) => compareConfidenceLabels(a, b));
  for (const [k, v] of [...ordered, ...[...rest].filter(([, v]) => v.length)]) {
    const ci = proportionInterval(
      v.reduce((a, b) => a + b, 0),
      v.length,
    );
    json[k] = { n: v.length, share: v.length / run.results.length, accuracy: ci.estimate, ci: { lo: ci.lo, hi: ci.hi, method: ci.method } };
    rows.push([
      k,
      v.length,
      valueText(v.length / run.results.length, 'percent'),
      valueText(ci.estimate, 'percent'),
      intervalText(ci, 'percent'),
      methodLabel(ci),
    ]);
  }
  const rel = confidenceBins(run.results, { iterations: o.iterations, seed: o.seed });
  const system = typeof run.config.config.system === 'string' ? ` — ${run.config.config.system}` : '';
  return {
    id: 'byConfidence',
    title: 'Accuracy by confidence',
    markdown: table(['confidence', 'n', 'share', 'accuracy', '95% interval', 'interval'], rows) + '\n\nFailed items count as wrong.',
    json,
    plots: [
      {
        file: 'reliability.svg',
        title: 'Reliability diagram: accuracy by confidence bin, with counts',
        // the plot's bars and counts are the table's rows (confidenceBins scores and groups as above)
        spec: reliabilitySpec(rel.bins, `Accuracy by confidence${system} (n per bin, 95% Wilson; ${unlabelledNote(rel)})`, rel.unlabelled),
      },
    ],
  };
};
