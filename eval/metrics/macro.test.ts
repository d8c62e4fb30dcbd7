/**
 * The macro-F1 rule (eval/metrics/macro.ts) against scikit-learn 1.2.1's `f1_score`,
 * `precision_score`, `recall_score` (average='macro', zero_division=0), recomputed in python3:
 *   g = ['Yes', 'No', 'Yes', 'No']; p = ['Yes', 'No', 'No', '<failed>']   (a failed item: a label outside the set)
 *   f1_score(g, p, average='macro', labels=['Yes', 'No'], zero_division=0)         → 0.5833333333333333
 *   precision_score(…) → 0.75; recall_score(…) → 0.5
 *   f1_score(['Yes'], ['Yes'], average='macro', labels=['Yes', 'No'], zero_division=0) → 0.5
 *   f1_score(['Yes'], ['Yes'], average='macro', zero_division=0)                       → 1.0 (labels seen)
 */
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../types.js';
import { proportionInterval } from '../stats/index.js';
import { macroLabels, macroReport, macroScores } from './macro.js';

const rec = (id: string, prediction: string | null, gold: string, error?: string): ResultRecord => ({
  id,
  prediction,
  gold,
  correct: prediction === gold,
  ms: 1,
  ...(error ? { error } : {}),
});

describe('macro-F1 rule', () => {
  it("a failed item is no prediction (a false negative of its gold label): sklearn's values over Yes/No", () => {
    // the failed item keeps a prediction for audit: it is never scored
    const rs = [rec('a', 'Yes', 'Yes'), rec('b', 'No', 'No'), rec('c', 'No', 'Yes'), rec('d', 'No', 'No', 'judge output unparseable')];
    const m = macroScores(rs, { labels: ['Yes', 'No'] });
    expect(m.f1.estimate).toBeCloseTo(0.5833333333333333, 12);
    expect(m.precision.estimate).toBeCloseTo(0.75, 12);
    expect(m.recall.estimate).toBeCloseTo(0.5, 12);
    expect(m.labels).toEqual(['Yes', 'No']);
  });

  it('a label of the task with no gold item and no prediction has F1 0 and counts in the mean (zero_division=0); unknown task labels: the labels of the whole sample', () => {
    const one = [rec('h0', 'Yes', 'Yes')];
    expect(macroReport(one, ['Yes', 'No']).macroF1).toBeCloseTo(0.5, 12);
    expect(macroReport(one).macroF1).toBeCloseTo(1, 12);
    expect(macroLabels([rec('x', 'B', 'A'), rec('y', null, 'C'), rec('z', 'D', 'C', 'failed')])).toEqual(['A', 'B', 'C']);
  });
});

describe('micro-F1: one figure, one interval', () => {
  it("is accuracy's Wilson interval where every item has a prediction among the labels (it is accuracy); bootstrapped where one failed", () => {
    // 12 items, 2 right: the row that printed "Accuracy 16.67 [4.70, 44.80] Wilson | Mic.F1 16.67 [0.00, 41.67] bootstrap"
    const golds = ['A', 'B', 'C', 'D', 'A', 'B', 'C', 'D', 'A', 'B', 'C', 'D'];
    const preds = ['A', 'A', 'A', 'A', 'B', 'B', 'D', 'C', 'B', 'A', 'D', 'C'];
    const records = golds.map((gold, i) => ({ id: `q${String(i).padStart(2, '0')}`, prediction: preds[i], gold }));
    const m = macroScores(records, { labels: ['A', 'B', 'C', 'D'], seed: 13, iterations: 2000 });
    expect(m.microF1).toEqual(proportionInterval(2, 12));
    expect(m.microF1.method).toBe('wilson');
    // a failed item makes micro-F1 differ from accuracy (a false negative only): a statistic, bootstrapped
    const failed = macroScores(
      records.map((r, i) => (i === 0 ? { ...r, prediction: null, error: 'LLM_HTTP: 400' } : r)),
      { labels: ['A', 'B', 'C', 'D'], seed: 13, iterations: 2000 },
    );
    expect(failed.microF1).toMatchObject({ method: 'bootstrap', kind: 'statistic' });
    expect(failed.microF1.estimate).toBeCloseTo(2 / 23, 12);
  });
});
