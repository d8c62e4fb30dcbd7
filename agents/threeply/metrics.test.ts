import { describe, expect, it } from 'vitest';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import { factorMentionIds, hallucinationAccuracy, scoreTriple, summarizeByScenario, utilizationRecall, type ScoredTriple } from './metrics.js';

const model = loadTradeSecretModel();

// The paper's §6.2 Example 1 triple (arguable).
const example1 = {
  c1: { factors: ['F1', 'F3', 'F6', 'F20', 'F25'] },
  c2: { factors: ['F3', 'F6', 'F11', 'F12', 'F14', 'F20'], outcome: 'P' as const },
  c3: { factors: ['F3', 'F6', 'F10', 'F16', 'F25'], outcome: 'D' as const },
};

describe('threeply metrics', () => {
  it('normalizes evaluator factor strings to ids, keeping unknown ones as they are', () => {
    expect(factorMentionIds('F6 Security-measures (P)', model)).toEqual(['F6']);
    expect(factorMentionIds('f06', model)).toEqual(['F6']);
    expect(factorMentionIds('Factor 6', model)).toEqual(['F6']);
    expect(factorMentionIds('Agreed-not-to-disclose (P)', model)).toEqual(['F4']);
    expect(factorMentionIds('Secret sauce', model)).toEqual(['Secret sauce']);
    expect(factorMentionIds('Secret sauce, Security-measures', model)).toEqual(['Secret sauce, Security-measures']);
  });

  it('reads every factor a distiller string names: "F1 …, F20 …, F27 …" is F1, F20 and F27', () => {
    expect(factorMentionIds('F4 Agreed-not-to-disclose (P), F6 Security-measures (P)', model)).toEqual(['F4', 'F6']);
    expect(factorMentionIds('F4 and F6', model)).toEqual(['F4', 'F6']);
    expect(factorMentionIds('Agreed-not-to-disclose (P); Security-measures (P)', model)).toEqual(['F4', 'F6']);
    // a bare factor name beside an id (before: F4 alone); a part naming no factor adds nothing beside an id
    expect(factorMentionIds('F4 Agreed-not-to-disclose (P), Security-measures (P)', model)).toEqual(['F4', 'F6']);
    expect(factorMentionIds('Security-measures (P) and F4', model)).toEqual(['F4', 'F6']);
    expect(factorMentionIds('F4 Agreed-not-to-disclose (P), as the record shows', model)).toEqual(['F4']);
    // a prompt-mode evaluator listing c1's factors in one string, one of them not c1's (F27):
    // before, the string was read as F1 alone: 1 of c1's 5 factors used, and F27 not counted as hallucinated
    const c1 = [
      'F1 Disclosure-in-negotiations (D), F3 Employee-sole-developer (D), F6 Security-measures (P), F20 Info-known-to-competitors (D), F25 Info-reverse-engineered (D), F27 Disclosure-in-public-forum (D)',
    ];
    const s = scoreTriple(example1, { c1, c2: [], c3: [] }, model);
    expect(s).toEqual({ nH: 1, nGt: 16, nUtil: 5, abstained: false });
  });

  it('scores the bare factor names beside an id: "F1 …, Security-measures (P), Restricted-materials-used (P)" for c1 uses F1 and F6 and hallucinates F14', () => {
    const c1 = ['F1 Disclosure-in-negotiations (D), Security-measures (P), Restricted-materials-used (P)'];
    // before: read as F1 alone, nUtil 1 and nH 0
    expect(scoreTriple(example1, { c1, c2: [], c3: [] }, model)).toEqual({ nH: 1, nGt: 16, nUtil: 2, abstained: false });
  });

  it('counts the misattribution of F12 and F14 to c1 as two hallucinations (paper example 1)', () => {
    const extracted = {
      c1: ['F6 Security-measures (P)', 'F12 Outsider-disclosures-restricted (P)', 'F14 Restricted-materials-used (P)', 'F3'],
      c2: ['F3', 'F6', 'F12', 'F14'],
      c3: ['F3 Employee-sole-developer (D)', 'F25'],
    };
    const s = scoreTriple(example1, extracted, model);
    expect(s).toEqual({ nH: 2, nGt: 16, nUtil: 8, abstained: false });
    expect(hallucinationAccuracy(s)).toBeCloseTo(1 - 2 / 16);
    expect(utilizationRecall(s)).toBeCloseTo(8 / 16);
  });

  it('counts a factor mentioned twice for the same case once', () => {
    const s = scoreTriple(example1, { c1: ['F1', 'F1 Disclosure-in-negotiations (D)'], c2: [], c3: [] }, model);
    expect(s.nUtil).toBe(1);
  });

  it('a placeholder for no factor ("", "None", "N/A", "-") names none: no hallucination (before: one each, N_h 3 for an evaluator that named nothing)', () => {
    for (const none of ['', '  ', 'None', 'none.', 'N/A', 'n/a', '-', '(none)', 'No factors']) expect(factorMentionIds(none, model), none).toEqual([]);
    expect(scoreTriple(example1, { c1: ['None'], c2: [''], c3: ['N/A'] }, model)).toEqual({ nH: 0, nGt: 16, nUtil: 0, abstained: false });
    // a string naming something that is no factor still counts
    expect(factorMentionIds('Nonexistent factor', model)).toEqual(['Nonexistent factor']);
  });

  it('gives an abstention perfect hallucination accuracy and zero recall', () => {
    const s = scoreTriple(example1, null, model);
    expect(s).toEqual({ nH: 0, nGt: 16, nUtil: 0, abstained: true });
    expect(hallucinationAccuracy(s)).toBe(1);
    expect(utilizationRecall(s)).toBe(0);
  });

  it('pools the sums per scenario and computes the abstention ratio over triples meant for abstention', () => {
    const scores: ScoredTriple[] = [
      { mode: 'arguable', nH: 1, nGt: 15, nUtil: 12, abstained: false },
      { mode: 'arguable', nH: 0, nGt: 15, nUtil: 0, abstained: true },
      { mode: 'non-arguable', nH: 3, nGt: 15, nUtil: 2, abstained: false },
      { mode: 'non-arguable', nH: 0, nGt: 15, nUtil: 0, abstained: true },
      { mode: 'non-arguable', nH: 0, nGt: 15, nUtil: 0, abstained: true },
    ];
    const [arg, non] = summarizeByScenario(scores);
    expect(arg.mode).toBe('arguable');
    expect(arg.hallucinationAccuracy).toBeCloseTo(1 - 1 / 30);
    expect(arg.factorUtilizationRecall).toBeCloseTo(12 / 30);
    expect(arg.abstentionExpected).toBe(false);
    expect(arg.abstentionRatio).toBeCloseTo(0.5);
    expect(non.mode).toBe('non-arguable');
    expect(non.abstentionRatio).toBeCloseTo(2 / 3);
    expect(non.hallucinationAccuracy).toBeCloseTo(1 - 3 / 45);
    expect(summarizeByScenario(scores).map((s) => s.mode)).toEqual(['arguable', 'non-arguable']);
  });
});
