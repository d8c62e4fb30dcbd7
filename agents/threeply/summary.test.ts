import { describe, expect, it } from 'vitest';
import { wilsonCi } from '../../eval/wilson.js';
import type { ResultRecord } from '../../eval/types.js';
import { summarizeRun, summaryMarkdown } from './summary.js';

const rec = (id: string, m: Record<string, number | boolean>, error?: string): ResultRecord => ({
  id,
  prediction: m.abstained ? 'abstain' : 'argue',
  gold: id.startsWith('arguable') ? 'argue' : 'abstain',
  correct: false,
  metrics: m,
  ms: 1,
  ...(error ? { error, metrics: undefined } : {}),
});

describe('3-ply run summary from results records', () => {
  const records = [
    rec('arguable-001', { nH: 1, nGt: 15, nUtil: 12, abstained: false }),
    rec('arguable-002', { nH: 0, nGt: 15, nUtil: 15, abstained: false }),
    rec('mismatched-001', { nH: 0, nGt: 15, nUtil: 0, abstained: true }),
    rec('mismatched-002', { nH: 2, nGt: 15, nUtil: 10, abstained: false }),
    rec('non-arguable-001', { nH: 0, nGt: 14, nUtil: 0, abstained: true }),
    rec('non-arguable-002', {}, 'LLM output for Factor Analyst could not be parsed'),
  ];

  it('groups by the scenario in the id, pools the sums and counts failed items apart', () => {
    const [a, m, n] = summarizeRun(records, { iterations: 200 });
    expect(a).toMatchObject({ mode: 'arguable', n: 2, abstained: 0, errors: 0 });
    expect(a.hallucinationAccuracy).toBeCloseTo(1 - 1 / 30);
    expect(a.factorUtilizationRecall).toBeCloseTo(27 / 30);
    expect(m.abstentionRatio).toBeCloseTo(0.5);
    expect(m.hallucinationAccuracy).toBeCloseTo(1 - 2 / 30);
    expect(n).toMatchObject({ mode: 'non-arguable', n: 1, abstained: 1, errors: 1, abstentionRatio: 1 });
    // pooled ratios are bootstrapped over triples: 2 triples are below n = 10, so no interval (said why)
    expect(a.ci.factorUtilizationRecall).toMatchObject({ kind: 'statistic', lo: null, hi: null, missing: 'n < 10' });
    // abstention is a proportion: Wilson at any n — 1 of 2 gives [9.5%, 90.5%], not the bootstrap's [0, 1]
    const w = wilsonCi(1, 2);
    expect(m.ci.abstentionRatio).toMatchObject({ kind: 'proportion', method: 'wilson', lo: w.lo, hi: w.hi });
  });

  it('renders one markdown row per scenario, flagging abstention on arguable triples as wrongful', () => {
    const md = summaryMarkdown('reflective', summarizeRun(records, { iterations: 50 }));
    expect(md.split('\n')).toHaveLength(5);
    expect(md).toMatch(/\| reflective +\| arguable +\| +2 \| +96\.7% \(n < 10\) \|/);
    expect(md).toMatch(/abstention \[95% Wilson\]/);
    expect(md).toMatch(/arguable .*\(wrongful\)/);
    expect(md).toMatch(/\| non-arguable +\| +1 \|.*\| +1 \|$/m);
  });
});
