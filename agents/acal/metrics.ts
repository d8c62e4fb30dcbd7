/**
 * The ACAL paper's evaluation (§4.2): accuracy, macro precision, macro recall and macro-F1 over
 * the labels Yes/No, each with a seeded 95% bootstrap CI (items resampled with replacement).
 * Uses eval/metrics (classificationReport) and eval/bootstrap; failed items (prediction null)
 * count as wrong.
 */
import { failedCount, scoredPrediction } from '../../eval/metrics/failures.js';
import { bootstrapStatisticCi, type Ci } from '../../eval/bootstrap.js';
import { classificationReport } from '../../eval/metrics/classification.js';
import { table } from '../../eval/report/format.js';
import { ACAL_LABELS } from '../../eval/systems.js';

export { ACAL_LABELS };

export interface AcalMetrics {
  n: number;
  failures: number;
  accuracy: Ci;
  precision: Ci;
  recall: Ci;
  macroF1: Ci;
}

export function acalMetrics(
  records: { prediction: string | null; gold: string; error?: string }[],
  opts: { iterations?: number; seed?: number } = {},
): AcalMetrics {
  const preds = records.map(scoredPrediction);
  const golds = records.map((r) => r.gold);
  const stat = (key: 'accuracy' | 'macroPrecision' | 'macroRecall' | 'macroF1') => (idx: Int32Array) => {
    const p: (string | null)[] = [];
    const g: string[] = [];
    for (const i of idx) {
      p.push(preds[i]);
      g.push(golds[i]);
    }
    return classificationReport(p, g, ACAL_LABELS)[key];
  };
  const o = { iterations: opts.iterations ?? 2000, seed: opts.seed ?? 13 };
  return {
    n: records.length,
    failures: failedCount(records),
    accuracy: bootstrapStatisticCi(records.length, stat('accuracy'), o),
    precision: bootstrapStatisticCi(records.length, stat('macroPrecision'), o),
    recall: bootstrapStatisticCi(records.length, stat('macroRecall'), o),
    macroF1: bootstrapStatisticCi(records.length, stat('macroF1'), o),
  };
}

const pct = (c: Ci) => `${(100 * c.estimate).toFixed(1)} [${(100 * c.lo).toFixed(1)}, ${(100 * c.hi).toFixed(1)}]`;

export function metricsTable(rows: { name: string; m: AcalMetrics }[]): string {
  return table(
    ['system', 'n', 'Acc', 'Prec (macro)', 'Rec (macro)', 'Macro-F1', 'failed'],
    rows.map(({ name, m }) => [name, m.n, pct(m.accuracy), pct(m.precision), pct(m.recall), pct(m.macroF1), m.failures]),
  );
}
