import { describe, expect, it } from 'vitest';
import { wilsonCi } from '../../eval/wilson.js';
import type { ResultRecord } from '../../eval/types.js';
import { emarSummaryMarkdown, summarizeEmarRun } from './metrics.js';

const rec = (id: string, prediction: string | null, gold: string, m?: Record<string, number | boolean | null>, error?: string): ResultRecord => ({
  id,
  prediction,
  gold,
  correct: prediction === gold,
  ms: 1,
  ...(m ? { metrics: m } : {}),
  ...(error ? { error } : {}),
});

describe('EMAR run summary', () => {
  const records = [
    rec('1', 'Yes', 'Yes', { depth: 1, converged: true, partiesAgree: true }),
    rec('2', 'No', 'Yes', { depth: 3, converged: false, partiesAgree: false }),
    rec('3', 'No', 'No', { depth: 2, converged: true, partiesAgree: true }),
    rec('4', null, 'No', undefined, 'LLM_OUTPUT_INVALID: EMAR judge'),
  ];

  it('computes accuracy (failed items wrong), macro-F1 and the recursion figures over successful items', () => {
    const s = summarizeEmarRun(records, { labels: ['Yes', 'No'], iterations: 200 });
    expect(s).toMatchObject({ n: 4, failed: 1, accuracy: 0.5 });
    // micro-F1 pools the labels' counts as macro-F1 scores them: ΣTP 2, ΣFP 1 (item 2's No), ΣFN 2 (item 2's
    // Yes, failed item 4's No) → 4 / 7 (before: accuracy, 50%, beside a macro-F1 that scored item 4 as an FN only)
    expect(s.microF1).toBeCloseTo(4 / 7, 12);
    // Yes: P 1/1, R 1/2 → F1 2/3; No: P 1/2, R 1/2 → F1 1/2; macro = 7/12
    expect(s.macroF1).toBeCloseTo(7 / 12);
    expect(s.meanDepth).toBeCloseTo(2);
    expect(s.convergenceRate).toBeCloseTo(2 / 3);
    expect(s.partiesAgreeRate).toBeCloseTo(2 / 3);
    // accuracy is a proportion: its Wilson interval (2 of 4: [15.0%, 85.0%]), named in the header
    expect(s.accuracyCi).toMatchObject({ kind: 'proportion', method: 'wilson', lo: wilsonCi(2, 4).lo, hi: wilsonCi(2, 4).hi });
    expect(emarSummaryMarkdown('hearsay', s)).toMatch(/accuracy \[95% Wilson\]/);
    expect(emarSummaryMarkdown('hearsay', s)).toMatch(/\| hearsay +\| +4 \| +50\.0% \[15\.0, 85\.0\] \|/);
  });

  it('prints every rate of its table as the headline prints a proportion (one decimal and %: macro-F1 58.3%, not 58.33)', () => {
    const s = summarizeEmarRun(records, { labels: ['Yes', 'No'] });
    // macro-F1 as the headline prints it: below n = 10 no bootstrap interval, and the header says why
    expect(emarSummaryMarkdown('hearsay', s)).toMatch(/\| +58\.3% \(n < 10\) \| +57\.1% \| +3 \| +2\.00 \| +66\.7% \| +66\.7% \| +1 \|$/m);
    expect(emarSummaryMarkdown('hearsay', s)).toMatch(/\| macro-F1 \[no interval: n < 10\] +\|/);
    expect(s.macroF1Ci).toMatchObject({ estimate: s.macroF1, lo: null, hi: null, missing: 'n < 10' });
  });

  it('gives no recursion figure when every item failed: "– (no answered item)", not a mean depth 0.00 and 0.0% converged', () => {
    // lexcase run emar against a server that answers every structured request with HTTP 500: 3 of 3 failed
    const failed = ['0', '1', '2'].map((i) => rec(`hearsay-test-${i}`, null, 'No', undefined, 'LLM_REQUEST_FAILED: HTTP 500'));
    const s = summarizeEmarRun(failed, { labels: ['Yes', 'No'] });
    expect(s).toMatchObject({ n: 3, failed: 3, answered: 0, meanDepth: null, convergenceRate: null, partiesAgreeRate: null });
    const md = emarSummaryMarkdown('hearsay/test', s);
    // before: "| 0.0% | 0.00 | 0.0% | 0.0% | 3 |" — figures over no item, printed as measured
    expect(md).toMatch(/\| +0 \| +– \(no answered item\) \| +– \(no answered item\) \| +– \(no answered item\) \| +3 \|$/m);
    expect(md).toMatch(/\| answered \| mean depth \(answered\) \| converged \(answered\) \| parties agree \(answered\) \|/);
  });
});
