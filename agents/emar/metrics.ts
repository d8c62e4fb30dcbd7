/**
 * EMAR run summary from results.jsonl records: the paper's measures (accuracy, macro-F1, micro-F1 —
 * pooled over the labels, so accuracy when no item failed and above it when some did, as the
 * paper's 51.22% / 51.61%) with the 95% Wilson interval of accuracy and the 95% percentile bootstrap
 * interval of macro-F1 (eval/stats: seed 13, 2,000 resamples unless the report is asked for others;
 * none below n = 10), the interval the headline figure prints, plus the recursion's behaviour: mean depth, convergence rate, how often the parties ended in agreement.
 * Failed items count as wrong (prediction null) in accuracy and F1. The recursion figures are over
 * the answered items only (a failed item has no recursion to read), `answered` of them: over none
 * (every item failed) they are null and print "– (no answered item)", as the headline's convergence
 * figure is "– (no items)", never the 0.00 / 0.0% of an empty set.
 */
import { correctFlags, failedCount, isFailed } from '../../eval/metrics/failures.js';
import { figureText, methodLabel, proportionInterval, valueText, type Interval } from '../../eval/stats/index.js';
import { limitPrefixClause, macroCeilingNote, macroReport, macroScores } from '../../eval/metrics/macro.js';
import type { ResultRecord } from '../../eval/types.js';
import { table } from '../../eval/report/format.js';

export interface EmarSummary {
  n: number;
  failed: number;
  accuracy: number;
  accuracyCi: Interval;
  macroF1: number;
  /** macro-F1's 95% percentile bootstrap interval over items (eval/metrics/macro.ts `macroScores`; lo/hi null below n = 10). */
  macroF1Ci: Interval;
  /** The labels averaged over, and those no item has as its gold answer (macro-F1's ceiling is then below 100%). */
  labels: string[];
  labelsWithoutGold: string[];
  microF1: number;
  /** Items that did not fail: the recursion figures below are over these. */
  answered: number;
  /** null when no item was answered (every item failed). */
  meanDepth: number | null;
  convergenceRate: number | null;
  partiesAgreeRate: number | null;
}

export function summarizeEmarRun(records: readonly ResultRecord[], opts: { labels?: readonly string[]; seed?: number; iterations?: number } = {}): EmarSummary {
  const ok = records.filter((r) => !isFailed(r) && r.metrics);
  const share = (f: (r: ResultRecord) => boolean) => (ok.length ? ok.filter(f).length / ok.length : null);
  // macro-F1 under the one rule of eval/metrics/macro.ts (over the dataset's labels: emarLabels), as the headline figure
  const report = macroReport(records, opts.labels);
  // its interval: the headline's bootstrap (records in id order, the given or shared seed and resamples)
  const macro = macroScores(records, { labels: opts.labels, seed: opts.seed, iterations: opts.iterations });
  const macroF1Ci = macro.f1;
  return {
    n: records.length,
    failed: failedCount(records),
    accuracy: report.accuracy,
    accuracyCi: proportionInterval(
      correctFlags(records).reduce((a, b) => a + b, 0),
      records.length,
    ),
    macroF1: report.macroF1,
    macroF1Ci,
    labels: macro.labels,
    labelsWithoutGold: macro.withoutGold,
    microF1: report.microF1,
    answered: ok.length,
    meanDepth: ok.length ? ok.reduce((a, r) => a + Number(r.metrics!.depth ?? 0), 0) / ok.length : null,
    convergenceRate: share((r) => r.metrics!.converged === true),
    partiesAgreeRate: share((r) => r.metrics!.partiesAgree === true),
  };
}

/** A rate as every surface prints a proportion ("21.5%", eval/stats/format.ts): the headline's macro-F1 is the same text. */
const pct = (x: number) => valueText(x, 'percent');

/** A recursion figure over the answered items: "–" where there is none. */
const NO_ANSWERED = '– (no answered item)';
const recursion = (x: number | null, text: (x: number) => string) => (x === null ? NO_ANSWERED : text(x));

/** `o.limit`: the run's --limit (config.json `limit`), said beside a macro-F1 ceiling: it takes the split's first items in file order. */
export function emarSummaryMarkdown(dataset: string, s: EmarSummary, o: { limit?: unknown } = {}): string {
  return (
    table(
      [
        'dataset',
        'n',
        `accuracy [${methodLabel(s.accuracyCi)}]`,
        `macro-F1 [${methodLabel(s.macroF1Ci)}]`,
        'micro-F1',
        'answered',
        'mean depth (answered)',
        'converged (answered)',
        'parties agree (answered)',
        'failed',
      ],
      [
        [
          dataset,
          s.n,
          figureText(s.accuracyCi, 'percent'),
          figureText(s.macroF1Ci, 'percent'),
          pct(s.microF1),
          s.answered,
          recursion(s.meanDepth, (x) => x.toFixed(2)),
          recursion(s.convergenceRate, pct),
          recursion(s.partiesAgreeRate, pct),
          s.failed,
        ],
      ],
    ) + ceilingLine(s, o.limit)
  );
}

/** macro-F1's ceiling below 100% (a label with no gold item among these), said under the table. */
function ceilingLine(s: EmarSummary, limit: unknown): string {
  const note = macroCeilingNote(s.labelsWithoutGold ?? [], s.labels ?? [], s.n);
  return note ? `\n\n**macro-F1:** ${note}${limitPrefixClause(limit)}.` : '';
}
