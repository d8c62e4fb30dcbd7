import { describe, expect, it } from 'vitest';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import { buildScenarios, classifyTriple, intersect, modeOfId, SCENARIO_MODES } from './scenarios.js';

const model = loadTradeSecretModel();
const side = (id: string) => model.byId.get(id)!.side;

describe('scenario builder (synthetic, the paper’s complexity 5)', () => {
  for (const mode of SCENARIO_MODES) {
    it(`builds 90 ${mode} triples that all satisfy the ${mode} definition`, () => {
      const triples = buildScenarios({ mode, n: 90, seed: 7 }, model);
      expect(triples).toHaveLength(90);
      for (const t of triples) {
        expect(classifyTriple(t, model), t.id).toBe(mode);
        expect(modeOfId(t.id)).toBe(mode);
        for (const c of [t.c1, t.c2, t.c3]) {
          expect(c.factors.length).toBeGreaterThanOrEqual(4);
          expect(c.factors.length).toBeLessThanOrEqual(6);
          expect(new Set(c.factors).size).toBe(c.factors.length);
          for (const f of c.factors) expect(model.byId.has(f)).toBe(true);
        }
      }
      // sizes actually vary over the whole complexity range
      expect(new Set(triples.map((t) => t.c1.factors.length))).toEqual(new Set([4, 5, 6]));
    });
  }

  it('non-arguable triples share no factor at all between c1 and either precedent', () => {
    for (const t of buildScenarios({ mode: 'non-arguable', n: 90, seed: 3 }, model)) {
      expect(intersect(t.c1.factors, t.c2.factors)).toEqual([]);
      expect(intersect(t.c1.factors, t.c3.factors)).toEqual([]);
      expect([t.c2.outcome, t.c3.outcome]).toEqual(['P', 'D']);
    }
  });

  it('arguable triples share a pro-plaintiff factor with the plaintiff-won c2 and a pro-defendant factor with the defendant-won c3', () => {
    for (const t of buildScenarios({ mode: 'arguable', n: 90, seed: 3 }, model)) {
      expect(t.c2.outcome).toBe('P');
      expect(t.c3.outcome).toBe('D');
      expect(intersect(t.c1.factors, t.c2.factors).some((f) => side(f) === 'P')).toBe(true);
      expect(intersect(t.c1.factors, t.c3.factors).some((f) => side(f) === 'D')).toBe(true);
    }
  });

  it('mismatched triples have the overlaps of arguable ones but each precedent was won by the other side', () => {
    for (const t of buildScenarios({ mode: 'mismatched', n: 90, seed: 3 }, model)) {
      expect(t.c2.outcome).toBe('D');
      expect(t.c3.outcome).toBe('P');
      expect(intersect(t.c1.factors, t.c2.factors).some((f) => side(f) === 'P')).toBe(true);
    }
  });

  it('is reproducible from the seed and differs across seeds', () => {
    const a = buildScenarios({ mode: 'arguable', n: 10, seed: 42 }, model);
    expect(buildScenarios({ mode: 'arguable', n: 10, seed: 42 }, model)).toEqual(a);
    expect(buildScenarios({ mode: 'arguable', n: 10, seed: 43 }, model)).not.toEqual(a);
  });

  it('honours another complexity (k-1..k+1 factors per case)', () => {
    for (const t of buildScenarios({ mode: 'non-arguable', n: 30, seed: 1, complexity: 3 }, model)) {
      for (const c of [t.c1, t.c2, t.c3]) expect(c.factors.length).toBeGreaterThanOrEqual(2), expect(c.factors.length).toBeLessThanOrEqual(4);
    }
  });

  it('rejects a complexity that cannot produce disjoint non-arguable cases', () => {
    expect(() => buildScenarios({ mode: 'arguable', n: 1, seed: 1, complexity: 13 }, model)).toThrow(/complexity/);
    expect(() => buildScenarios({ mode: 'arguable', n: 0, seed: 1 }, model)).toThrow(/invalid n/);
  });
});

describe('scenario builder (real CATO case base)', () => {
  for (const mode of SCENARIO_MODES) {
    it(`draws ${mode} triples from real cases that satisfy the definition`, () => {
      const triples = buildScenarios({ mode, n: 20, seed: 5, source: 'casebase' }, model);
      const names = new Set(model.cases.map((c) => c.name));
      for (const t of triples) {
        expect(classifyTriple(t, model), t.id).toBe(mode);
        for (const c of [t.c1, t.c2, t.c3]) expect(names.has(c.name!)).toBe(true);
        expect(new Set([t.c1.name, t.c2.name, t.c3.name]).size).toBe(3);
      }
      // no triple repeats while the case base has unused ones
      const keys = buildScenarios({ mode, n: 90, seed: 5, source: 'casebase' }, model).map((t) => [t.c1.name, t.c2.name, t.c3.name].join('|'));
      expect(new Set(keys).size).toBe(90);
    });
  }

  it('refuses more triples than the case base holds (before: copies repeated, each counted as another item)', () => {
    const err = (() => {
      try {
        buildScenarios({ mode: 'non-arguable', n: 100_000, seed: 5, source: 'casebase' }, model);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    const holds = Number(/the case base holds (\d+) distinct non-arguable triples/.exec(err?.message ?? '')?.[1]);
    expect(holds).toBeGreaterThan(90);
    const all = buildScenarios({ mode: 'non-arguable', n: holds, seed: 5, source: 'casebase' }, model);
    expect(new Set(all.map((t) => [t.c1.name, t.c2.name, t.c3.name].join('|'))).size).toBe(holds);
    expect(() => buildScenarios({ mode: 'non-arguable', n: holds + 1, seed: 5, source: 'casebase' }, model)).toThrow(
      `the case base holds ${holds} distinct non-arguable triples; ${holds + 1} would repeat 1 of them`,
    );
    // the triples drawn for a given seed are those drawn before the refusal existed: the first 90 of the same order
    expect(all.slice(0, 90)).toEqual(buildScenarios({ mode: 'non-arguable', n: 90, seed: 5, source: 'casebase' }, model));
  });
});

describe('classifyTriple', () => {
  it('classifies the paper’s Table 1 examples', () => {
    const c1 = { factors: ['F4', 'F5', 'F23'] };
    expect(classifyTriple({ c1, c2: { factors: ['F2', 'F4', 'F16'], outcome: 'P' }, c3: { factors: ['F2', 'F5', 'F12'], outcome: 'D' } }, model)).toBe(
      'arguable',
    );
    expect(classifyTriple({ c1, c2: { factors: ['F2', 'F4', 'F16'], outcome: 'D' }, c3: { factors: ['F2', 'F5', 'F12'], outcome: 'P' } }, model)).toBe(
      'mismatched',
    );
    expect(
      classifyTriple({ c1: { factors: ['F6', 'F22'] }, c2: { factors: ['F1', 'F27'], outcome: 'P' }, c3: { factors: ['F16', 'F24'], outcome: 'D' } }, model),
    ).toBe('non-arguable');
    // one shared factor with c3 only: neither arguable nor non-arguable
    expect(classifyTriple({ c1: { factors: ['F6', 'F16'] }, c2: { factors: ['F1'], outcome: 'P' }, c3: { factors: ['F16'], outcome: 'D' } }, model)).toBe(
      'other',
    );
  });
});
