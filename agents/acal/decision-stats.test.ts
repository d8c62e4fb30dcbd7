/**
 * ACAL's decision figures are over the answered items: with 11 of 12 hearsay items failed (HTTP
 * 400), acal-report.md read "mean 0.9 arguments and 0.0 clashes per item" (the one answered item
 * has 11) and report.md "0 of 12 claim strengths in the judge band" (only 1 item has one).
 */
import { describe, expect, it } from 'vitest';
import type { RunData } from '../../eval/report/types.js';
import type { ResultRecord } from '../../eval/types.js';
import { decisionsLine, decisionStats } from './decision-stats.js';
import { acalSection } from './report-section.js';

// the audit's run: `lexcase run acal --task hearsay --limit 12` against a server failing 15% of requests
const failed = (i: number): ResultRecord => ({
  id: `hearsay-test-${i}`,
  prediction: null,
  gold: 'No',
  correct: false,
  ms: 100,
  error: 'LLM_REQUEST_FAILED: LLM request failed: HTTP 400: 400 bad request',
});
const answered: ResultRecord = {
  id: 'hearsay-test-8',
  prediction: 'No',
  gold: 'No',
  correct: true,
  ms: 900,
  metrics: { claimStrength: 0.466, judged: false, clashes: 3, arguments: 11, relations: 2, llmCalls: 14, teamSize: 1, converged: true, inBand: true },
};
const results = [...[0, 1, 2, 3, 4, 5, 6, 7].map(failed), answered, ...[9, 10, 11].map(failed)];

describe('ACAL decisions over the answered items', () => {
  it('counts and means leave the failed items out and say how many failed', () => {
    const d = decisionStats(results);
    expect(d).toMatchObject({ answered: 1, failed: 11, inBand: 1, judged: 0, clashes: 3, smallTeams: 1, meanArguments: 11, meanClashes: 3 });
    expect(decisionsLine(d)).toBe(
      'Decisions over the 1 answered item (11 failed, no decision): 1 of 1 claim strengths in the judge band, 0 escalated to the judge; 0 not converged; mean 11.0 arguments and 3.0 clashes per answered item.',
    );
  });

  it("report.md's ACAL section: claim strengths in the judge band of the answered items, the failed ones counted beside", async () => {
    const run = {
      dir: 'runs/acalE',
      config: { seed: 13, config: { system: 'acal/acal' } },
      results,
      traces: new Map(),
      droppedTail: false,
    } as unknown as RunData;
    const s = (await acalSection(run, { iterations: 200, seed: 13 } as never))!;
    expect(s.markdown).toContain('Decisions over the 1 answered item (11 failed, no decision): 1 of 1 claim strengths in the judge band, 0 escalated');
    expect(s.json).toMatchObject({ answered: 1, failed: 11, inBand: 1, clashes: 3 });
  });

  it('no answered item: no mean ("–"), not 0', () => {
    expect(decisionsLine(decisionStats([failed(0), failed(1)]))).toContain('mean – arguments and – clashes per answered item');
  });

  it('counts the decisions at σ(claim) = θ exactly, which the rule σ ≥ θ decides "Yes", and says the in-band items were not escalated', () => {
    // `lexcase run acal --task hearsay --limit 6 --no-escalation` against a server answering the first
    // schema value: two supports and two attacks of one score each, σ(claim) = 0.5 = θ on every item
    const tie = (i: number): ResultRecord => ({
      id: `hearsay-test-${i}`,
      prediction: 'Yes',
      gold: 'No',
      correct: false,
      ms: 200,
      confidence: 'low',
      metrics: { claimStrength: 0.5, judged: false, clashes: 0, arguments: 4, relations: 0, llmCalls: 7, teamSize: 1, converged: true, inBand: true },
    });
    const judgedTie: ResultRecord = { ...tie(6), prediction: 'No', correct: true, metrics: { ...tie(6).metrics!, judged: true } };
    const d = decisionStats([...[0, 1, 2, 3, 4, 5].map(tie), judgedTie, answered]);
    expect(d).toMatchObject({ answered: 8, inBand: 8, judged: 1, thresholdTies: 6, threshold: 0.5 });
    // before: "0 of 6 escalated to the judge (σ(claim) in the uncertainty band)" — read as none in the band, and the 6 ties decided "Yes" unsaid
    expect(decisionsLine(d)).toBe(
      'Decisions over the 8 answered items: 8 of 8 claim strengths in the judge band, 1 escalated to the judge; 6 decided at σ(claim) = θ = 0.5 exactly: "Yes" by the rule σ ≥ θ (eq. 3.7), a tie; 0 not converged; mean 4.9 arguments and 0.4 clashes per answered item.',
    );
  });

  it("report.md's ACAL section counts the ties at θ too", async () => {
    const tie: ResultRecord = { ...answered, id: 'hearsay-test-0', prediction: 'Yes', correct: false, metrics: { ...answered.metrics!, claimStrength: 0.5 } };
    const run = {
      dir: 'runs/acalT',
      config: { seed: 13, config: { system: 'acal/acal' } },
      results: [tie, answered],
      traces: new Map(),
      droppedTail: false,
    } as unknown as RunData;
    const s = (await acalSection(run, { iterations: 200, seed: 13 } as never))!;
    expect(s.markdown).toContain(
      '2 of 2 claim strengths in the judge band, 0 escalated to the judge; 1 decided at σ(claim) = θ = 0.5 exactly: "Yes" by the rule σ ≥ θ (eq. 3.7), a tie;',
    );
    expect(s.json).toMatchObject({ thresholdTies: 1 });
  });
});
