/**
 * A field an older lexcase recorded where this one records none for the same config
 * (resume-over-recorded.ts: `searchScoreDigits`, recorded by `run case` before 2026-12-01 for a hybrid
 * its --tools left out) is dropped from the recorded config by one rule, for every lexcase system:
 * not a difference, nothing to warn of; a run whose searches changed is still refused naming the
 * field that decides them, as before; a system of the caller's own compares it as it is.
 */
import { describe, expect, it } from 'vitest';
import { compareRecordedConfig } from './resume-compare.js';

const same = (c: Record<string, unknown>) => c;

describe('a field an older lexcase over-recorded', () => {
  it("CASE's searchScoreDigits for a hybrid its --tools left out: the same config, nothing unrecorded", () => {
    const now = { system: 'case', tools: ['bm25'], searchRanking: 'trec_eval, top k past ties', k: 10, index: '/idx' };
    const r = compareRecordedConfig({ ...now, searchScoreDigits: { hybrid: 10 } }, now, same);
    expect(r.difference).toBeUndefined();
    expect(r.unrecorded).toEqual([]);
    expect(r.recorded).toEqual(now);
  });

  it('a MAD run resumed with another --method is refused naming the method (the digits its hybrid recorded are not the difference)', () => {
    const mad = (method: string) => ({ system: 'mad/mad', k: 5, method, searchRanking: 'trec_eval, top k past ties' });
    const r = compareRecordedConfig({ ...mad('hybrid'), searchScoreDigits: { hybrid: 10 } }, mad('bm25'), same);
    expect(r.difference).toBe('field "method" differs: method "hybrid" recorded, "bm25" now');
  });

  it("a system of the caller's own compares a field of that name as it is", () => {
    const now = { system: 'mine', k: 10 };
    const r = compareRecordedConfig({ ...now, searchScoreDigits: { hybrid: 10 } }, now, same, undefined, { lexcaseFields: false });
    expect(r.difference).toBe('field "searchScoreDigits" differs: searchScoreDigits {"hybrid":10} recorded, (unset) now');
  });
});
