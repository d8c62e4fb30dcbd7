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
      'Decisions over the 1 answered item (11 failed, no decision): 0 of 1 escalated to the judge (σ(claim) in the uncertainty band); 0 not converged; mean 11.0 arguments and 3.0 clashes per answered item.',
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
});
