/**
 * An abstention is in 3-ply's pooled figures as the paper's formulas have it (paper 000 §4.4: N_gt
 * summed over every triple; "For successful abstentions, Rec_U is 0"), so a run whose only answered
 * triple abstained prints "hallucination accuracy 100.0%". The number stays (it is the paper's);
 * before, nothing said where it came from — now each pooled figure's note and report.md's 3-ply
 * section say that abstentions count with N_h = N_util = 0.
 */
import { describe, expect, it } from 'vitest';
import type { RunData } from '../../eval/report/types.js';
import { headlineFigures } from '../../eval/systems.js';
import type { ResultRecord } from '../../eval/types.js';
import '../systems.js'; // the agent systems' list, handed to eval
import { threeplySection } from './report-section.js';

const failed = (id: string, gold: string): ResultRecord => ({
  id,
  prediction: null,
  gold,
  correct: false,
  ms: 1,
  error: 'LLM_REQUEST_FAILED: LLM request failed: HTTP 400: 400 bad request',
});
// the audit's run: `lexcase run threeply --limit 4` against a server failing 15% of requests
const results: ResultRecord[] = [
  failed('arguable-001', 'argue'),
  failed('arguable-002', 'argue'),
  failed('mismatched-001', 'abstain'),
  { id: 'mismatched-002', prediction: 'abstain', gold: 'abstain', correct: true, ms: 1, metrics: { nH: 0, nGt: 17, nUtil: 0, abstained: true } },
];

describe('3-ply: abstentions in the pooled figures', () => {
  it("a run whose only answered triple abstained: 100% hallucination accuracy, and the figure's note says the abstention counted with N_h = 0", () => {
    const f = Object.fromEntries(headlineFigures('threeply/reflective', results, { config: {}, seed: 13 }).map((x) => [x.id, x]));
    expect(f['hallucination-accuracy']).toMatchObject({ estimate: 1, n: 1, failed: 3 });
    expect(f['hallucination-accuracy'].note).toBe(
      "pooled over the 1 answered triple of 1 scenario (mismatched; micro average); 1 abstained, counted with N_h = N_util = 0 and its N_gt (the paper's formula)",
    );
    expect(f['factor-utilization-recall']).toMatchObject({ estimate: 0, n: 1 });
    expect(f['factor-utilization-recall'].note).toContain('1 abstained, counted with N_h = N_util = 0');
  });

  it('an abstention after argued plies is named apart: its plies are scored, not counted with N_h = N_util = 0', () => {
    const rs: ResultRecord[] = [
      { id: 'mismatched-001', prediction: 'abstain', gold: 'abstain', correct: true, ms: 1, metrics: { nH: 0, nGt: 17, nUtil: 0, abstained: true } },
      { id: 'mismatched-002', prediction: 'abstain', gold: 'abstain', correct: true, ms: 1, metrics: { nH: 9, nGt: 33, nUtil: 3, abstained: true } },
      { id: 'arguable-001', prediction: 'argue', gold: 'argue', correct: true, ms: 1, metrics: { nH: 2, nGt: 20, nUtil: 5, abstained: false } },
    ];
    const f = Object.fromEntries(headlineFigures('threeply/reflective', rs, { config: {}, seed: 13 }).map((x) => [x.id, x]));
    expect(f['hallucination-accuracy'].estimate).toBeCloseTo(1 - 11 / 70, 12);
    expect(f['hallucination-accuracy'].note).toBe(
      "pooled over the 3 answered triples of 2 scenarios (arguable 1, mismatched 2; micro average); 1 abstained with no factor argued, counted with N_h = N_util = 0 and its N_gt (the paper's formula); 1 abstained after arguing factors, its argued plies scored (N_h, N_util) with its N_gt",
    );
  });

  it("report.md's 3-ply section says how an abstention counts in both pooled figures", async () => {
    const run = {
      dir: 'runs/tpE',
      config: { seed: 13, config: { system: 'threeply/reflective', variant: 'reflective' } },
      results,
      traces: new Map(),
      droppedTail: false,
    };
    const s = (await threeplySection(run as unknown as RunData, { iterations: 200, seed: 13 } as never))!;
    expect(s.markdown).toContain(
      'it adds its N_gt with N_h = N_util = 0, so a scenario whose answered triples all abstained reads 100% hallucination accuracy',
    );
  });
});
