/**
 * The one rule for macro-averaged precision, recall and F1 over a run's items, read by every
 * surface that prints them (the headline figure in report.md, the explorer and the /v1 API; EMAR's
 * and ACAL's run tables and report sections; the reproduction tables):
 *
 * - Labels: the task's label set (a system's `labels`, eval/systems.ts: hearsay Yes/No, EMAR's questions
 *   the letters of their options (A–D for Bar Exam QA), ACAL's tasks Yes/No); where the task's set is not known, the labels seen
 *   in the gold answers and scored predictions of the whole sample. Either way the set is fixed
 *   before resampling: a resample that lacks a label still averages over it.
 * - Per label: scikit-learn's scores (`f1_score(average='macro', labels=…, zero_division=0)`): a
 *   0/0 precision, recall or F1 is 0, so a label with no gold item and no prediction has F1 0 and
 *   counts in the mean (hearsay, one item answered "Yes" correctly: macro-F1 = (1 + 0) / 2 = 50%).
 * - A label of the set that no record has as its gold answer has recall 0/0 and so F1 0 whatever the
 *   predictions: macro-F1 over such a sample is at most (labels with a gold item) / (labels), and a
 *   model right on every item reads that ceiling (hearsay's first 20 test items are all "No": 50%).
 *   The number stays the rule's; every surface prints `macroCeilingNote` beside it.
 * - A failed item (eval/metrics/failures.ts) is scored as no prediction: a false negative of its
 *   gold label, a false positive of none.
 * - Micro-F1 pools the same counts over the same labels (2·ΣTP / (2·ΣTP + ΣFP + ΣFN)): accuracy
 *   when no item failed, above accuracy when some did (a failure adds a false negative only).
 * - The bootstrap resamples the records in a canonical order (by id: eval/bootstrap.ts
 *   `canonicalById`), so the interval does not depend on the order of results.jsonl.
 */
import { canonicalById } from '../bootstrap.js';
import { proportionInterval, statisticInterval, type BootstrapSettings, type Interval } from '../stats/index.js';
import { classificationReport, type ClassificationReport } from './classification.js';
import { scoredPrediction } from './failures.js';
import type { ResultRecord } from '../types.js';

type MacroRecord = Pick<ResultRecord, 'id' | 'gold' | 'prediction' | 'error'>;

/** The label set the macro figures average over: the task's when known, else every label of the whole sample's gold and scored predictions (sorted). */
export function macroLabels(records: readonly MacroRecord[], taskLabels?: readonly string[]): string[] {
  if (taskLabels?.length) return [...taskLabels];
  const seen = new Set<string>();
  for (const r of records) {
    seen.add(r.gold);
    const p = scoredPrediction(r);
    if (p !== null) seen.add(p);
  }
  return [...seen].sort();
}

/** Macro-F1 of predictions against golds over `labels` (the task's set, or `macroLabels` of the sample where it is not known). */
export function macroF1(predictions: readonly (string | null)[], golds: readonly string[], labels: readonly string[]): number {
  return classificationReport(predictions, golds, labels).macroF1;
}

/** The classification report of the whole sample under the rule above (no interval). */
export function macroReport(records: readonly MacroRecord[], taskLabels?: readonly string[]): ClassificationReport {
  return classificationReport(
    records.map(scoredPrediction),
    records.map((r) => r.gold),
    macroLabels(records, taskLabels),
  );
}

/** The labels of `labels` that no record has as its gold answer (each one's F1 is 0 whatever the predictions). */
export function labelsWithoutGold(records: readonly Pick<MacroRecord, 'gold'>[], labels: readonly string[]): string[] {
  const golds = new Set(records.map((r) => r.gold));
  return labels.filter((l) => !golds.has(l));
}

/**
 * The sentence every surface prints beside a macro-F1 over `n` records when some of the averaged
 * labels (`missing`, of `labels`) have no gold item there; undefined when every label has one.
 */
export function macroCeilingNote(missing: readonly string[], labels: readonly string[], n: number): string | undefined {
  if (!missing.length || !labels.length || !n) return undefined;
  const ceiling = macroCeiling(missing, labels) * 100;
  const one = missing.length === 1;
  return (
    `no gold item has the label${one ? '' : 's'} ${missing.join(', ')} among the ${n} item${n === 1 ? '' : 's'} scored: ` +
    `${one ? 'its' : 'their'} F1 is 0 whatever the predictions (scikit-learn's zero_division=0), so macro-F1 is at most ` +
    `${ceiling.toFixed(1)}% here, which a model right on every item reads`
  );
}

/** The most macro-F1 can read when the labels `missing` (of `labels`) have no gold item: (labels with a gold item) / (labels). */
export function macroCeiling(missing: readonly string[], labels: readonly string[]): number {
  return (labels.length - missing.length) / labels.length;
}

/**
 * The short visible marker a list of figures shows beside such a macro-F1 ("at most 50.0% here: no gold
 * Yes item"), where `macroCeilingNote`'s sentence does not fit (the explorer's runs list and compare
 * page); the run's page prints the sentence. Undefined when every label has a gold item.
 */
export function macroCeilingMarker(missing: readonly string[], labels: readonly string[], n: number): string | undefined {
  if (!missing.length || !labels.length || !n) return undefined;
  return `at most ${(macroCeiling(missing, labels) * 100).toFixed(1)}% here: no gold ${missing.join(', ')} item`;
}

/**
 * Said after `macroCeilingNote` when the run took `--limit N` (config.json `limit`): the items scored are
 * the split's first N in its file order, not a sample (the bundled hearsay test split lists its "No"
 * items first); empty when the run had no limit.
 */
export function limitPrefixClause(limit: unknown): string {
  return typeof limit === 'number' ? `; \`--limit ${limit}\` takes the first ${limit} items of the split in its file order` : '';
}

export interface MacroScores {
  /** The labels averaged over. */
  labels: string[];
  /** Those of `labels` no record has as its gold answer (`labelsWithoutGold`): macro-F1's ceiling is below 100%. */
  withoutGold: string[];
  precision: Interval;
  recall: Interval;
  f1: Interval;
  /** Micro-F1 over the same labels (classification.ts): accuracy's Wilson interval where every item has a prediction among them, else bootstrapped as the macro figures. */
  microF1: Interval;
}

type MacroKey = 'macroPrecision' | 'macroRecall' | 'macroF1' | 'microF1';

/** A macro (or micro) score of the records at resampled positions `idx` (records in canonical order), over the fixed `labels`: the statistic every macro interval resamples. */
export function macroStatistic(records: readonly MacroRecord[], labels: readonly string[], key: MacroKey): (idx: Int32Array) => number {
  const preds = records.map(scoredPrediction);
  const golds = records.map((r) => r.gold);
  return (idx) => {
    const p: (string | null)[] = [];
    const g: string[] = [];
    for (const i of idx) {
      p.push(preds[i]);
      g.push(golds[i]);
    }
    return classificationReport(p, g, labels)[key];
  };
}

/** Macro precision, recall and F1 and micro-F1 with their intervals (seeded percentile bootstrap over items, none below n = 10). */
export function macroScores(records: readonly MacroRecord[], o: BootstrapSettings & { labels?: readonly string[] } = {}): MacroScores {
  const rs = canonicalById(records);
  const labels = macroLabels(rs, o.labels);
  const stat = (key: MacroKey) => macroStatistic(rs, labels, key);
  const bo = { seed: o.seed, iterations: o.iterations };
  return {
    labels,
    withoutGold: labelsWithoutGold(rs, labels),
    precision: statisticInterval(rs.length, stat('macroPrecision'), bo),
    recall: statisticInterval(rs.length, stat('macroRecall'), bo),
    f1: statisticInterval(rs.length, stat('macroF1'), bo),
    microF1: microF1Interval(rs, labels, stat('microF1'), bo),
  };
}

/**
 * Micro-F1's interval. Where every item has a prediction among the labels, micro-F1 is accuracy (each wrong item one
 * false positive and one false negative): the proportion's Wilson interval, the one accuracy gets beside it (before,
 * a bootstrap: "Accuracy 16.67 [4.70, 44.80] Wilson | Mic.F1 16.67 [0.00, 41.67] bootstrap" in one row). Where some
 * item failed (no prediction) or predicted outside the labels, it differs from accuracy: a statistic, bootstrapped.
 */
function microF1Interval(rs: readonly MacroRecord[], labels: readonly string[], stat: (idx: Int32Array) => number, bo: BootstrapSettings): Interval {
  const preds = rs.map(scoredPrediction);
  if (rs.length && preds.every((p) => p !== null && labels.includes(p))) return proportionInterval(rs.filter((r, i) => preds[i] === r.gold).length, rs.length);
  return statisticInterval(rs.length, stat, bo);
}

export interface PairedMacroF1 {
  labels: string[];
  /** Macro-F1 of A and of B over the paired items. */
  a: number;
  b: number;
  /** B − A, with its interval: the report's macro-F1 bootstrap (seed, resamples, items resampled in id order), each resample drawing the same items for both runs. */
  diff: Interval;
}

/**
 * Two runs' macro-F1 on the same items (`pairs[i]`: item i's record in A and in B) and the difference
 * B − A, under the rule above: the labels fixed before resampling (the task's, else those of both runs'
 * golds and scored predictions), a failed item scored as no prediction, the pairs in a canonical order
 * (by id) and resampled by `statisticInterval` with the report's seed and resamples — the items drawn
 * jointly, so the interval is the paired one of the report's macro-F1 interval.
 */
export function pairedMacroF1(
  pairs: readonly (readonly [MacroRecord, MacroRecord])[],
  o: BootstrapSettings & { labels?: readonly string[] } = {},
): PairedMacroF1 {
  const ps = [...pairs].sort(([x], [y]) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const labels = macroLabels(
    ps.flatMap((p) => [...p]),
    o.labels,
  );
  const fa = macroStatistic(
    ps.map((p) => p[0]),
    labels,
    'macroF1',
  );
  const fb = macroStatistic(
    ps.map((p) => p[1]),
    labels,
    'macroF1',
  );
  const all = Int32Array.from({ length: ps.length }, (_, i) => i);
  return {
    labels,
    a: fa(all),
    b: fb(all),
    diff: statisticInterval(ps.length, (idx) => fb(idx) - fa(idx), { seed: o.seed, iterations: o.iterations }),
  };
}
