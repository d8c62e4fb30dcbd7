import { describe, expect, it } from 'vitest';
import { accuracy, classificationReport, macroF1, mean } from './index.js';

describe('classification metrics against hand-computed values', () => {
  const golds = ['a', 'a', 'a', 'b', 'b', 'c'];
  const preds = ['a', 'a', 'b', 'b', 'c', null];

  it('accuracy counts a null prediction as wrong', () => {
    expect(accuracy(preds, golds)).toBe(0.5);
    expect(() => accuracy(['a'], golds)).toThrow(RangeError);
  });

  it('per-class precision, recall, F1 and macro-F1', () => {
    const r = classificationReport(preds, golds, ['a', 'b', 'c']);
    // a: tp 2, fp 0, fn 1 → P 1, R 2/3, F1 0.8
    expect(r.perClass.a).toMatchObject({ tp: 2, fp: 0, fn: 1, support: 3, precision: 1 });
    expect(r.perClass.a.recall).toBeCloseTo(2 / 3, 12);
    expect(r.perClass.a.f1).toBeCloseTo(0.8, 12);
    // b: tp 1, fp 1, fn 1 → 0.5 / 0.5 / 0.5
    expect(r.perClass.b).toMatchObject({ tp: 1, fp: 1, fn: 1, precision: 0.5, recall: 0.5, f1: 0.5 });
    // c: tp 0, fp 1, fn 1 → 0 / 0 / 0 (0/0 counts as 0)
    expect(r.perClass.c).toMatchObject({ tp: 0, fp: 1, fn: 1, precision: 0, recall: 0, f1: 0 });
    expect(r.macroF1).toBeCloseTo((0.8 + 0.5 + 0) / 3, 12);
    expect(r.macroPrecision).toBeCloseTo(0.5, 12);
    expect(r.accuracy).toBe(0.5);
    expect(macroF1(preds, golds, ['a', 'b', 'c'])).toBeCloseTo(0.4333333, 6);
  });

  it('micro-F1 pools TP/FP/FN over the labels: a failed item is a false negative only, so micro-F1 is above accuracy', () => {
    // ΣTP 3, ΣFP 0+1+1 = 2, ΣFN 1+1+1 = 3 (the null prediction: an FN of c, an FP of nothing) → 6 / (6 + 2 + 3)
    expect(classificationReport(preds, golds, ['a', 'b', 'c']).microF1).toBeCloseTo(6 / 11, 12);
    // every item answered: micro-F1 = accuracy
    const answered = ['a', 'a', 'b', 'b', 'c', 'a'];
    const r = classificationReport(answered, golds, ['a', 'b', 'c']);
    expect(r.microF1).toBeCloseTo(r.accuracy, 12);
  });

  it('explicit labels include a class that never occurs (F1 0) in the macro average', () => {
    expect(macroF1(['x', 'y'], ['x', 'y'], ['x', 'y', 'z'])).toBeCloseTo(2 / 3, 12);
  });

  it("refuses a macro figure without the task's labels rather than averaging over the labels the sample happens to hold", () => {
    // hearsay, one item answered "Yes" correctly: over the task's labels Yes/No macro-F1 is 50%;
    // the labels seen in the data alone would have made it 100%
    expect(macroF1(['Yes'], ['Yes'], ['Yes', 'No'])).toBeCloseTo(0.5, 12);
    const noLabels = undefined as unknown as string[];
    expect(() => macroF1(['Yes'], ['Yes'], noLabels)).toThrow(/invalid labels: .*task's label set.*macroLabels/);
    expect(() => classificationReport(['Yes'], ['Yes'], noLabels)).toThrow(/invalid labels/);
    expect(() => classificationReport(['Yes'], ['Yes'], [])).toThrow(/invalid labels/);
  });

  it('mean of an empty list is 0', () => {
    expect(mean([])).toBe(0);
    expect(mean([1, 2, 3, 4])).toBe(2.5);
  });
});
