/**
 * The ACAL paper's evaluation (§4.2): accuracy, macro precision, macro recall and macro-F1 over
 * the labels Yes/No, each with its 95% interval from eval/stats: accuracy is a proportion (Wilson),
 * the macro figures statistics of the whole sample (seeded percentile bootstrap over items, none
 * below n = 10). Uses eval/metrics (classificationReport); failed items (prediction null) count as
 * wrong.
 */
import { failedCount, scoredPrediction } from '../../eval/metrics/failures.js';
import { correctFlags } from '../../eval/metrics/failures.js';
import { figureText, METHOD_LABEL, proportionInterval, statisticInterval, type Interval } from '../../eval/stats/index.js';
import { classificationReport } from '../../eval/metrics/classification.js';
import { table } from '../../eval/report/format.js';
import { ACAL_LABELS } from './labels.js';

export { ACAL_LABELS };

export interface AcalMetrics {
  n: number;
  failures: number;
  accuracy: Interval;
  precision: Interval;
  recall: Interval;
  macroF1: Interval;
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
  const o = { iterations: opts.iterations, seed: opts.seed };
  return {
    n: records.length,
    failures: failedCount(records),
    accuracy: proportionInterval(
      correctFlags(records).reduce((a, b) => a + b, 0),
      records.length,
    ),
    precision: statisticInterval(records.length, stat('macroPrecision'), o),
    recall: statisticInterval(records.length, stat('macroRecall'), o),
    macroF1: statisticInterval(records.length, stat('macroF1'), o),
  };
}

const pct = (c: Interval) => figureText(c, 'percent');

export function metricsTable(rows: { name: string; m: AcalMetrics }[]): string {
  return (
    table(
      [
        'system',
        'n',
        `Acc [${METHOD_LABEL.wilson}]`,
        `Prec (macro) [${METHOD_LABEL.bootstrap}]`,
        `Rec (macro) [${METHOD_LABEL.bootstrap}]`,
        `Macro-F1 [${METHOD_LABEL.bootstrap}]`,
        'failed',
      ],
      rows.map(({ name, m }) => [name, m.n, pct(m.accuracy), pct(m.precision), pct(m.recall), pct(m.macroF1), m.failures]),
    ) + '\n\nBootstrap intervals are not given below n = 10 ("n < 10").'
  );
}
