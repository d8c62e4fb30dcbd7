/**
 * One rule for failed items in every system's headline figures: a failed item (error, or no
 * prediction) stays in n, counts as wrong and is counted beside; in 3-ply it is left out of n and
 * of every figure (no abstention, no N_h/N_gt) and counted beside.
 * Each record set has a failed item whose leftover prediction equals the gold label: it must
 * never be scored as correct.
 */
import { describe, expect, it } from 'vitest';
import { acalMetrics } from '../../agents/acal/metrics.js';
import { caseMetrics } from '../../agents/case/metrics.js';
import { summarizeEmarRun } from '../../agents/emar/metrics.js';
import { madMetrics } from '../../agents/mad/metrics.js';
import { summarizeRun } from '../../agents/threeply/summary.js';
import type { ResultRecord } from '../types.js';
import { correctFlags, failedCount, isFailed, scoredPrediction } from './failures.js';

const rec = (id: string, prediction: string | null, gold: string, extra: Partial<ResultRecord> = {}): ResultRecord => ({
  id,
  prediction,
  gold,
  correct: prediction === gold && !extra.error,
  ms: 1,
  ...extra,
});

// 4 items: 2 correct, 1 wrong, 1 failed whose prediction happens to equal gold
const mcq = [rec('a', 'A', 'A'), rec('b', 'B', 'B'), rec('c', 'C', 'D'), rec('d', 'A', 'A', { error: 'juror votes unparseable', correct: true })];

describe('failed items count the same in every system', () => {
  it('the rule: error or null prediction = failed; scored as null; never correct', () => {
    expect(mcq.map(isFailed)).toEqual([false, false, false, true]);
    expect(failedCount([...mcq, rec('e', null, 'A')])).toBe(2);
    expect(scoredPrediction(mcq[3])).toBeNull();
    expect(correctFlags(mcq)).toEqual([1, 1, 0, 0]);
  });

  it('CASE, MAD and EMAR: accuracy 2/4 with 1 failure reported', () => {
    const c = caseMetrics(mcq, new Map());
    expect(c.n).toBe(4);
    expect(c.failed).toBe(1);
    expect([c.accuracy.rate, c.accuracy.n]).toEqual([0.5, 4]);
    const m = madMetrics(mcq);
    expect([m.items, m.failed, m.accuracy.estimate]).toEqual([4, 1, 0.5]);
    const e = summarizeEmarRun(mcq);
    expect([e.n, e.failed, e.accuracy, e.accuracyCi.estimate]).toEqual([4, 1, 0.5, 0.5]);
  });

  it('ACAL: the failed item is wrong in accuracy and macro scores, counted in failures', () => {
    const yn = [rec('a', 'Yes', 'Yes'), rec('b', 'No', 'No'), rec('c', 'Yes', 'No'), rec('d', 'Yes', 'Yes', { error: 'relation output unparseable' })];
    const m = acalMetrics(yn, { iterations: 50 });
    expect(m.n).toBe(4);
    expect(m.failures).toBe(1);
    expect(m.accuracy.estimate).toBe(0.5);
  });

  it('3-ply: a failed triple is left out of n and of every figure (no abstention, no factors), counted beside', () => {
    const ok = rec('arguable-1', 'argue', 'argue', { metrics: { abstained: false, nH: 1, nGt: 10, nUtil: 6 } });
    // a record as older runs wrote it: the failure dressed as an abstention over its factors
    const failed = rec('arguable-2', null, 'argue', {
      error: 'factor analyst output unparseable',
      metrics: { abstained: true, nH: 0, nGt: 10, nUtil: 0, failed: true },
    });
    const [s] = summarizeRun([ok, failed], { iterations: 50 });
    expect(s.n).toBe(1);
    expect(s.errors).toBe(1);
    expect(s.factorUtilizationRecall).toBeCloseTo(6 / 10, 12);
    expect(s.hallucinationAccuracy).toBeCloseTo(1 - 1 / 10, 12);
    expect(s.abstentionRatio).toBe(0);
  });
});
