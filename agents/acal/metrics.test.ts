import { describe, expect, it } from 'vitest';
import { acalMetrics, metricsTable } from './metrics.js';

describe('acalMetrics', () => {
  it('computes accuracy and macro P/R/F1 over Yes/No by hand, with CIs that contain the estimate', () => {
    // gold:  Y Y Y N N N N N ; pred: Y Y N N N N Y null — twice (16 items: at n ≥ 10 the macro figures get bootstrap intervals)
    const golds = ['Yes', 'Yes', 'Yes', 'No', 'No', 'No', 'No', 'No', 'Yes', 'Yes', 'Yes', 'No', 'No', 'No', 'No', 'No'];
    const preds = ['Yes', 'Yes', 'No', 'No', 'No', 'No', 'Yes', null, 'Yes', 'Yes', 'No', 'No', 'No', 'No', 'Yes', null];
    const m = acalMetrics(
      preds.map((p, i) => ({ id: `h${String(i).padStart(2, '0')}`, prediction: p, gold: golds[i] })),
      { iterations: 500, seed: 1 },
    );
    // Yes: tp 2 fp 1 fn 1 → P 2/3 R 2/3; No: tp 3 fp 1 fn 2 → P 3/4 R 3/5
    expect(m.accuracy.estimate).toBeCloseTo(5 / 8, 12);
    expect(m.precision.estimate).toBeCloseTo((2 / 3 + 3 / 4) / 2, 12);
    expect(m.recall.estimate).toBeCloseTo((2 / 3 + 3 / 5) / 2, 12);
    const f1 = (p: number, r: number) => (2 * p * r) / (p + r);
    expect(m.macroF1.estimate).toBeCloseTo((f1(2 / 3, 2 / 3) + f1(3 / 4, 3 / 5)) / 2, 12);
    expect(m.failures).toBe(2);
    // accuracy is a proportion (Wilson); the macro figures statistics of the sample (bootstrap)
    expect(m.accuracy).toMatchObject({ kind: 'proportion', method: 'wilson' });
    for (const c of [m.precision, m.recall, m.macroF1]) expect(c).toMatchObject({ kind: 'statistic', method: 'bootstrap', iterations: 500, seed: 1 });
    for (const c of [m.accuracy, m.precision, m.recall, m.macroF1]) {
      expect(c.lo!).toBeLessThanOrEqual(c.estimate);
      expect(c.hi!).toBeGreaterThanOrEqual(c.estimate);
      expect(c.level).toBe(0.95);
    }
    // below n = 10 the macro figures get no interval (and say so), accuracy keeps its Wilson interval
    const small = acalMetrics(preds.slice(0, 8).map((p, i) => ({ id: `h${String(i).padStart(2, '0')}`, prediction: p, gold: golds[i] })));
    expect(small.macroF1).toMatchObject({ lo: null, hi: null, missing: 'n < 10' });
    expect(small.accuracy.lo).not.toBeNull();
    expect(
      acalMetrics(
        preds.map((p, i) => ({ id: `h${String(i).padStart(2, '0')}`, prediction: p, gold: golds[i] })),
        { iterations: 500, seed: 1 },
      ),
    ).toEqual(m);
    expect(metricsTable([{ name: 'acal', m }])).toMatch(/\| acal +\| +16 \| +62\.5% \[\d+\.\d, \d+\.\d\] \|/);
    // the note on n < 10 stands under a table with such a row only (it stood under every table, n = 94 too)
    expect(metricsTable([{ name: 'acal', m }])).not.toContain('not given below n = 10');
    expect(
      metricsTable([
        { name: 'acal', m },
        { name: 'small', m: small },
      ]),
    ).toContain('Bootstrap intervals are not given below n = 10 ("n < 10").');
    expect(metricsTable([{ name: 'acal', m: small }])).toMatch(/\| acal +\| +8 \| +62\.5% \[\d+\.\d, \d+\.\d\] \| +\d+\.\d% \(n < 10\) \|/);
  });
});
