/**
 * The ACAL paper's evaluation (§4.2): accuracy, macro precision, macro recall and macro-F1 over
 * the labels Yes/No, each with its 95% interval from eval/stats: accuracy is a proportion (Wilson),
 * the macro figures statistics of the whole sample (seeded percentile bootstrap over items, none
 * below n = 10, records resampled in a canonical order). The macro figures follow the one rule of
 * eval/metrics/macro.ts; failed items (prediction null) count as wrong.
 */
import { correctFlags, failedCount } from '../../eval/metrics/failures.js';
import { limitPrefixClause, macroCeilingNote, macroScores } from '../../eval/metrics/macro.js';
import { figureText, METHOD_LABEL, proportionInterval, type Interval } from '../../eval/stats/index.js';
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
  /** ACAL's labels no item has as its gold answer (eval/metrics/macro.ts `labelsWithoutGold`): macro-F1's ceiling is below 100%. */
  labelsWithoutGold: string[];
}

export function acalMetrics(
  records: { id: string; prediction: string | null; gold: string; error?: string }[],
  opts: { iterations?: number; seed?: number } = {},
): AcalMetrics {
  // the macro figures under the one rule of eval/metrics/macro.ts, over ACAL's labels, as the headline figure
  const macro = macroScores(records, { labels: ACAL_LABELS, iterations: opts.iterations, seed: opts.seed });
  return {
    n: records.length,
    failures: failedCount(records),
    accuracy: proportionInterval(
      correctFlags(records).reduce((a, b) => a + b, 0),
      records.length,
    ),
    precision: macro.precision,
    recall: macro.recall,
    macroF1: macro.f1,
    labelsWithoutGold: macro.withoutGold,
  };
}

const pct = (c: Interval) => figureText(c, 'percent');

/** `limit`: the run's --limit (config.json `limit`), said beside a macro-F1 ceiling: it takes the split's first items in file order. */
export function metricsTable(rows: { name: string; m: AcalMetrics }[], o: { limit?: unknown } = {}): string {
  const limit = limitPrefixClause(o.limit);
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
    ) +
    // said where a row has one ("n < 10" in its cells), not under every table
    (rows.some(({ m }) => m.n < 10) ? '\n\nBootstrap intervals are not given below n = 10 ("n < 10").' : '') +
    rows
      .map(({ m }) => macroCeilingNote(m.labelsWithoutGold ?? [], ACAL_LABELS, m.n))
      .map((note, i) => (note ? `\n\n**Macro figures of ${rows[i].name}:** ${note}${limit}.` : ''))
      .join('')
  );
}
