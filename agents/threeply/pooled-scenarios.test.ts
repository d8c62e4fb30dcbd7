/**
 * 3-ply's headline figures (report.md's Figures, the explorer, /v1) pool every scenario of the run,
 * where paper 000 gives each figure per scenario (Tables 2–4; eq. 6's N_ta pools the two abstention
 * scenarios, its Table 4 does not). A run of 10 triples per scenario: factor utilization recall pooled
 * over the three is 174/470 = 37.0%, the arguable scenario's (Table 3's cell) 135/170 = 79.4%. Before,
 * the figure's note read "pooled over the 30 answered triples (micro average)", which a reader takes
 * for the run's Table 3 figure; now it names the scenarios it pools and each one's count. Its bootstrap
 * resampled the 30 triples across scenarios, though the run fixes 10 per scenario: the interval carried
 * the variation of a scenario mix the design does not have (recall [24.9, 49.5] where resampling within
 * each scenario gives [33.3, 40.9]).
 * (Figures recomputed with python3: 1 − 41/470 = 0.912766, 174/470 = 0.370213, 9 of 20 abstained.)
 */
import { describe, expect, it } from 'vitest';
import { headlineFigures } from '../../eval/systems.js';
import type { ResultRecord } from '../../eval/types.js';
import '../systems.js'; // the agent systems' list, handed to eval
import { summarizeRun } from './summary.js';

const triple = (mode: string, i: number, m: { nGt: number; nH: number; nUtil: number; abstained: boolean }): ResultRecord => {
  const gold = mode === 'arguable' ? 'argue' : 'abstain';
  const prediction = m.abstained ? 'abstain' : 'argue';
  return { id: `${mode}-${String(i).padStart(3, '0')}`, prediction, gold, correct: prediction === gold, ms: 1, metrics: m };
};
const ten = (f: (i: number) => ResultRecord) => Array.from({ length: 10 }, (_, i) => f(i + 1));
const results: ResultRecord[] = [
  ...ten((i) => triple('arguable', i, { nGt: 15 + (i % 5), nH: i % 3 === 0 ? 1 : 0, nUtil: 12 + (i % 4), abstained: false })),
  ...ten((i) => triple('mismatched', i, { nGt: 16, nH: i <= 7 ? 0 : 2, nUtil: i <= 7 ? 0 : 5, abstained: i <= 7 })),
  ...ten((i) => triple('non-arguable', i, { nGt: 14, nH: i <= 2 ? 0 : 4, nUtil: i <= 2 ? 0 : 3, abstained: i <= 2 })),
];

describe('3-ply headline figures say which scenarios they pool', () => {
  const f = Object.fromEntries(headlineFigures('threeply/reflective', results, { config: {}, seed: 13 }).map((x) => [x.id, x]));

  it('the pooled ratios name their 3 scenarios and each one’s triples (micro average), beside the paper’s formula', () => {
    expect(f['hallucination-accuracy'].estimate).toBeCloseTo(1 - 41 / 470, 12);
    expect(f['factor-utilization-recall'].estimate).toBeCloseTo(174 / 470, 12);
    for (const id of ['hallucination-accuracy', 'factor-utilization-recall'])
      expect(f[id].note).toMatch(
        /^pooled over the 30 answered triples of 3 scenarios \(arguable 10, mismatched 10, non-arguable 10; micro average; resampled within each scenario\); /,
      );
  });

  it('their bootstrap resamples within each scenario, as the run fixed 10 per scenario: numpy’s stratified percentile interval, not the wider one that mixes scenarios anew', () => {
    // numpy (20,000 resamples, 10 drawn within each scenario): recall [0.334, 0.409], accuracy [0.889, 0.939];
    // resampling 30 triples across scenarios (before): recall [0.249, 0.495], accuracy [0.869, 0.951]
    const recall = f['factor-utilization-recall'];
    const accuracy = f['hallucination-accuracy'];
    expect(recall).toMatchObject({ interval: 'bootstrap', strata: 3 });
    expect(recall.lo!).toBeCloseTo(0.334, 1.7);
    expect(recall.hi!).toBeCloseTo(0.409, 1.7);
    expect(accuracy.lo!).toBeCloseTo(0.889, 1.7);
    expect(accuracy.hi!).toBeCloseTo(0.939, 1.7);
  });

  it('the pooled recall is none of the per-scenario figures the paper tabulates (Table 3: arguable only)', () => {
    const arguable = summarizeRun(results).find((r) => r.mode === 'arguable')!;
    expect(arguable.factorUtilizationRecall).toBeCloseTo(135 / 170, 12);
    expect(f['factor-utilization-recall'].estimate).not.toBeCloseTo(arguable.factorUtilizationRecall!, 2);
  });

  it('successful abstention (eq. 6: N_sa / N_ta over both abstention scenarios) says it pools them', () => {
    expect(f.abstention).toMatchObject({ estimate: 9 / 20, n: 20 });
    expect(f.abstention.note).toBe(
      'over the 20 answered triples designed for abstention, pooled over 2 scenarios (mismatched 10, non-arguable 10); Wilson over the pooled triples, not resampled within each scenario: a 0/1 figure’s resamples collapse at 0% or 100%, and Wilson’s is conservative (the within-scenario variance is never above the pooled one)',
    );
  });

  it('the pooled abstention interval says why it is Wilson, not stratified as the pooled ratios: a stratified bootstrap collapses where every triple abstained', () => {
    // mismatched 7 of 10, non-arguable 2 of 10: Wilson 9/20 [0.258, 0.658] (scipy); numpy's stratified bootstrap (20,000 resamples) [0.25, 0.65]
    expect(f.abstention).toMatchObject({ interval: 'wilson' });
    expect(f.abstention.lo!).toBeCloseTo(0.258, 2);
    expect(f.abstention.hi!).toBeCloseTo(0.658, 2);
    expect(f.abstention.note).toMatch(/pooled over 2 scenarios .*; Wilson over the pooled triples, not resampled within each scenario: /);
  });

  it('a run of one scenario names it and says no pooling across scenarios', () => {
    const one = headlineFigures('threeply/reflective', results.slice(10, 20), { config: {}, seed: 13 });
    const byId = Object.fromEntries(one.map((x) => [x.id, x]));
    expect(byId.abstention.note).toBe('over the 10 answered triples designed for abstention (mismatched)');
    expect(byId['hallucination-accuracy'].note).toMatch(/^pooled over the 10 answered triples of 1 scenario \(mismatched; micro average\)/);
  });
});
