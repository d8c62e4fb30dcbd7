import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../types.js';
import { loadRecipe } from './recipe.js';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { cellValue } from './stats.js';
import { summarizeRun } from '../../agents/threeply/summary.js';

const rec = (id: string, prediction: string | null, gold: string, extra: Partial<ResultRecord> = {}): ResultRecord => ({
  id,
  prediction,
  gold,
  correct: prediction === gold,
  ms: 1,
  ...extra,
});

// LegalBench-style Yes/No items: 3 of 4 "Yes" right, 1 of 2 "No" right, one failed item
const hearsay = [
  rec('h1', 'Yes', 'Yes'),
  rec('h2', 'Yes', 'Yes'),
  rec('h3', 'No', 'Yes'),
  rec('h4', 'Yes', 'Yes'),
  rec('h5', 'No', 'No'),
  rec('h6', null, 'No'),
];

describe('recipe cell statistics', () => {
  it('accuracy counts a failed item as wrong; macro precision/recall/F1 average the two labels', () => {
    expect(cellValue(hearsay, { stat: 'accuracy' }).estimate).toBeCloseTo(4 / 6, 10);
    // Yes: tp 3, fp 0, fn 1 → P 1, R .75; No: tp 1, fp 1, fn 1 → P .5, R .5
    expect(cellValue(hearsay, { stat: 'macro-precision' }).estimate).toBeCloseTo((1 + 0.5) / 2, 10);
    expect(cellValue(hearsay, { stat: 'macro-recall' }).estimate).toBeCloseTo((0.75 + 0.5) / 2, 10);
    const f1Yes = (2 * 1 * 0.75) / 1.75;
    expect(cellValue(hearsay, { stat: 'macro-f1' }).estimate).toBeCloseTo((f1Yes + 0.5) / 2, 10);
    // 6 items: macro-F1 is a statistic (bootstrap), and below n = 10 it gets no interval; accuracy is a proportion (Wilson, any n)
    expect(cellValue(hearsay, { stat: 'macro-f1' })).toMatchObject({ n: 6, kind: 'statistic', method: 'bootstrap', lo: null, hi: null, missing: 'n < 10' });
    const acc = cellValue(hearsay, { stat: 'accuracy' });
    expect(acc).toMatchObject({ n: 6, kind: 'proportion', method: 'wilson' });
    expect(acc.lo!).toBeLessThan(acc.estimate);
    expect(acc.hi!).toBeGreaterThan(acc.estimate);
  });

  it("micro-F1 pools the labels' counts as macro-F1 scores them: the failed item is a false negative only (before: accuracy, 4/6)", () => {
    // ΣTP 4, ΣFP 0 + 1, ΣFN 1 + 1 (h3's Yes, h6's No) → 8 / (8 + 1 + 2)
    expect(cellValue(hearsay, { stat: 'micro-f1' })).toMatchObject({ n: 6, kind: 'statistic', method: 'bootstrap', missing: 'n < 10' });
    expect(cellValue(hearsay, { stat: 'micro-f1' }).estimate).toBeCloseTo(8 / 11, 10);
    // with no failed item it is accuracy
    const answered = hearsay.map((r) => (r.prediction === null ? rec(r.id, 'Yes', r.gold) : r));
    expect(cellValue(answered, { stat: 'micro-f1' }).estimate).toBeCloseTo(cellValue(answered, { stat: 'accuracy' }).estimate, 10);
  });

  it('filters by confidence and pools ratios over the kept items (3-ply hallucination accuracy by scenario)', () => {
    const jury = [rec('a', 'A', 'A', { confidence: 'high' }), rec('b', 'B', 'A', { confidence: 'low' }), rec('c', 'C', 'C', { confidence: 'low' })];
    expect(cellValue(jury, { stat: 'accuracy', where: { confidence: 'low' } })).toMatchObject({ estimate: 0.5, n: 2 });
    const triples = [
      rec('arguable-001', 'argue', 'argue', { metrics: { nH: 1, nGt: 10, nUtil: 8 } }),
      rec('arguable-002', 'argue', 'argue', { metrics: { nH: 0, nGt: 6, nUtil: 6 } }),
      rec('non-arguable-001', 'argue', 'abstain', { metrics: { nH: 4, nGt: 8, nUtil: 0, abstained: false } }),
    ];
    expect(cellValue(triples, { stat: 'one-minus-ratio', num: 'nH', den: 'nGt', where: { idPrefix: 'arguable-' } }).estimate).toBeCloseTo(1 - 1 / 16, 10);
    expect(cellValue(triples, { stat: 'ratio', num: 'nUtil', den: 'nGt', where: { idPrefix: 'arguable-' } }).estimate).toBeCloseTo(14 / 16, 10);
    expect(cellValue(triples, { stat: 'mean', key: 'abstained', where: { idPrefix: 'non-arguable-' } })).toMatchObject({ estimate: 0, n: 1 });
    // mean skips items without the metric
    expect(cellValue(triples, { stat: 'mean', key: 'abstained' }).n).toBe(1);
  });

  it("a pooled ratio leaves failed triples out of n as 3-ply's own report does: one n and one interval for the figure", () => {
    // 12 answered arguable triples and 2 that failed (no metrics): before, the cell counted 14 (zero in both sums) and resampled them
    const answered = Array.from({ length: 12 }, (_, i) =>
      rec(`arguable-${String(i + 1).padStart(3, '0')}`, 'argue', 'argue', { metrics: { nH: i % 3, nGt: 6 + (i % 4), nUtil: 4 + (i % 3) } }),
    );
    const failed = [13, 14].map((i) => rec(`arguable-0${i}`, null, 'argue', { error: 'LLM_HTTP: 500' }));
    const records = [...answered, ...failed];
    const report = summarizeRun(records).find((s) => s.mode === 'arguable')!;
    expect(report.errors).toBe(2);
    const acc = cellValue(records, { stat: 'one-minus-ratio', num: 'nH', den: 'nGt', where: { idPrefix: 'arguable-' } });
    expect(acc).toMatchObject({
      n: report.n,
      estimate: report.hallucinationAccuracy,
      lo: report.ci.hallucinationAccuracy.lo,
      hi: report.ci.hallucinationAccuracy.hi,
    });
    const util = cellValue(records, { stat: 'ratio', num: 'nUtil', den: 'nGt', where: { idPrefix: 'arguable-' } });
    expect(util).toMatchObject({ n: 12, lo: report.ci.factorUtilizationRecall.lo, hi: report.ci.factorUtilizationRecall.hi });
  });

  it("CASE Table 4's High/Low conf. columns split every item of Acc. as the paper's do: a 1–1–1 tie and a failed item are low confidence", () => {
    // a 3-juror run: 2 unanimous (1 right), 2 split 2–1 (1 right), 3 split 1–1–1 and broken by evidence score (2 right), 1 with no valid vote (failed)
    const jury = [
      rec('q1', 'A', 'A', { confidence: 'high' }),
      rec('q2', 'B', 'A', { confidence: 'high' }),
      rec('q3', 'C', 'C', { confidence: 'low' }),
      rec('q4', 'D', 'C', { confidence: 'low' }),
      rec('q5', 'A', 'A', { confidence: 'tie' }),
      rec('q6', 'B', 'B', { confidence: 'tie' }),
      rec('q7', 'C', 'D', { confidence: 'tie' }),
      rec('q8', null, 'D', { confidence: 'none', error: 'no valid juror vote' }),
    ];
    const { recipe } = loadRecipe('case-table4');
    const row = recipe.rows.find((r) => r.label === 'CASE (BM25, RAG)')!;
    const cell = (column: string) => cellValue(jury, row.cells.find((c) => c.column === column)!.metric);
    expect(cell('Acc.')).toMatchObject({ estimate: 4 / 8, n: 8 });
    expect(cell('High conf.')).toMatchObject({ estimate: 1 / 2, n: 2 });
    // before: low = the 2–1 items only (n = 2), the three ties and the failed item in neither column
    expect(cell('Low conf.')).toMatchObject({ estimate: 3 / 6, n: 6 });
    expect(cell('High conf.').n + cell('Low conf.').n).toBe(cell('Acc.').n);
    // a plain label still keeps only its items
    expect(cellValue(jury, { stat: 'accuracy', where: { confidence: 'tie' } })).toMatchObject({ estimate: 2 / 3, n: 3 });
  });
});
