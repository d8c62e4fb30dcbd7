/**
 * Per-class precision / recall / F1 and macro-F1 for single-label classification, over the label
 * set the caller gives: which labels to average over is the one rule of ./macro.ts (the task's set,
 * fixed before resampling), so there is no default here. A 0/0 precision, recall or F1 counts as 0
 * (scikit-learn's zero_division=0). A null prediction (system failure) is a false negative for the
 * gold class and a false positive for no class. Micro-F1 pools the counts over the labels,
 * 2·ΣTP / (2·ΣTP + ΣFP + ΣFN) (scikit-learn's average='micro'): accuracy when every item has a
 * prediction, above it when some failed (a failure is a false negative with no false positive).
 */
import { errors } from '../../core/errors.js';

export interface ClassScores {
  precision: number;
  recall: number;
  f1: number;
  /** Number of gold items of this class. */
  support: number;
  tp: number;
  fp: number;
  fn: number;
}

export interface ClassificationReport {
  perClass: Record<string, ClassScores>;
  macroPrecision: number;
  macroRecall: number;
  macroF1: number;
  /** 2·ΣTP / (2·ΣTP + ΣFP + ΣFN) over the labels. */
  microF1: number;
  accuracy: number;
  n: number;
}

const div = (a: number, b: number) => (b === 0 ? 0 : a / b);

export function classificationReport(predictions: readonly (string | null)[], golds: readonly string[], labels: readonly string[]): ClassificationReport {
  if (predictions.length !== golds.length) throw new RangeError(`classificationReport: ${predictions.length} predictions for ${golds.length} golds`);
  if (!labels?.length)
    throw errors.invalidInput(
      'labels',
      "a macro figure needs the task's label set (e.g. ['Yes', 'No']); where it is not known, macroLabels (eval/metrics/macro.ts) gives the labels seen in the sample",
    );
  const labelSet = [...labels];
  const perClass: Record<string, ClassScores> = {};
  let correct = 0;
  for (const l of labelSet) {
    let tp = 0,
      fp = 0,
      fn = 0;
    for (let i = 0; i < golds.length; i++) {
      const p = predictions[i],
        g = golds[i];
      if (p === l && g === l) tp++;
      else if (p === l) fp++;
      else if (g === l) fn++;
    }
    const precision = div(tp, tp + fp);
    const recall = div(tp, tp + fn);
    perClass[l] = { precision, recall, f1: div(2 * precision * recall, precision + recall), support: tp + fn, tp, fp, fn };
  }
  for (let i = 0; i < golds.length; i++) if (predictions[i] === golds[i]) correct++;
  const avg = (key: 'precision' | 'recall' | 'f1') =>
    div(
      labelSet.reduce((s, l) => s + perClass[l][key], 0),
      labelSet.length,
    );
  const sum = (key: 'tp' | 'fp' | 'fn') => labelSet.reduce((s, l) => s + perClass[l][key], 0);
  const microF1 = div(2 * sum('tp'), 2 * sum('tp') + sum('fp') + sum('fn'));
  return {
    perClass,
    macroPrecision: avg('precision'),
    macroRecall: avg('recall'),
    macroF1: avg('f1'),
    microF1,
    accuracy: div(correct, golds.length),
    n: golds.length,
  };
}
