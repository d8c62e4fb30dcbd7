/**
 * The items whose counts (denseSearches, tokens.textOtherAnswer) a resumed older run dir lacks: its
 * answered items from before the first resume that found `itemCounts` unrecorded, and the failed ones
 * that resume kept as failed only while no later resume ran them again. Before, the first resume's
 * `skipped` was taken whole, so a later resume that ran the kept failed items again (and counted them)
 * left report.md saying they were not counted.
 */
import { describe, expect, it } from 'vitest';
import type { RunResume } from './run-resumes.js';
import { ITEM_COUNTS, ITEM_COUNTS_BEFORE_WIDENED, itemsUncounted, uncountedText } from './item-counts.js';
import { unrecordedText, withUnrecorded } from './resume-unrecorded.js';

const AT1 = '2026-12-02T10:00:00.000Z';
const AT2 = '2026-12-02T11:00:00.000Z';
const first: RunResume = { at: AT1, gitSha: 'e20a587e', datasetChecksum: 'x', items: 12, skipped: 8, keptFailed: 2, unchecked: ['itemCounts'] } as RunResume;

describe('itemsUncounted: the items an older lexcase wrote and no later resume ran again', () => {
  it('8 skipped by the resume that found itemCounts unrecorded, 2 of them failed and kept: 8 not counted, 2 of them failed', () => {
    const u = itemsUncounted({ resumes: [first] });
    expect(u).toEqual({ items: 8, failed: 2, at: AT1 });
    expect(uncountedText(u!)).toBe(
      'the 8 items run before the resume of 2026-12-02 (by an older lexcase; 2 of them failed and were kept as failed) were not counted',
    );
  });

  it('a later resume that ran the failed items again (the default) counted them: 6 not counted, not 8', () => {
    const later = { at: AT2, gitSha: 'e20a587e', datasetChecksum: 'x', items: 12, skipped: 10, retried: 2 } as RunResume;
    // before: { items: 8 }, the 2 items the later resume ran again (and counted) among them
    expect(itemsUncounted({ resumes: [first, later] })).toEqual({ items: 6, failed: 0, at: AT1 });
    expect(uncountedText(itemsUncounted({ resumes: [first, later] })!)).toBe(
      'the 6 items run before the resume of 2026-12-02 (by an older lexcase) were not counted',
    );
  });

  it('a later resume that kept them failed again (--no-retry-failed) leaves them uncounted', () => {
    const later = { at: AT2, gitSha: 'e20a587e', datasetChecksum: 'x', items: 12, skipped: 12, keptFailed: 2 } as RunResume;
    expect(itemsUncounted({ resumes: [first, later] })).toEqual({ items: 8, failed: 2, at: AT1 });
  });

  it('a resume that ran the failed items again itself: its skipped are the answered items, all uncounted', () => {
    const retried = { ...first, skipped: 6, keptFailed: undefined, retried: 2 } as RunResume;
    expect(itemsUncounted({ resumes: [retried] })).toEqual({ items: 6, failed: 0, at: AT1 });
  });

  it("a merged run: a shard whose kept failed items the merged dir's own resume ran again counts them", () => {
    const shard = (index: number, resumes: RunResume[]) => ({ shard: { index, count: 2 }, resumes }) as never;
    const mergedResume = { at: AT2, gitSha: 'e20a587e', datasetChecksum: 'x', items: 24, skipped: 22, retried: 2 } as RunResume;
    const u = itemsUncounted({ mergedFrom: [shard(1, [first]), shard(2, [{ ...first, keptFailed: undefined }])], resumes: [mergedResume] });
    // shard 1: 6 answered (its 2 kept failed run again by the merged dir's resume); shard 2: 8 answered
    expect(u).toEqual({ items: 14, failed: 0, at: AT1 });
  });
});

// before: config.json described textOtherAnswer as "forced-call replies" though it counted reasoning fields and prose too
describe('the recorded itemCounts text', () => {
  it('says what textOtherAnswer counts now: any reply whose text named another answer, not forced calls only', () => {
    expect(ITEM_COUNTS).not.toContain('forced-call');
    expect(ITEM_COUNTS).toContain('a reasoning field');
  });

  it('a run dir recording the 2026-12-02 text (the same fields) resumes with no word, as the new text; another text still differs', () => {
    const after = { system: 'mine', itemCounts: ITEM_COUNTS };
    expect(withUnrecorded({ system: 'mine', itemCounts: ITEM_COUNTS_BEFORE_WIDENED }, after, { lexcaseFields: false })).toEqual({
      config: after,
      unrecorded: [],
    });
    const other = { system: 'mine', itemCounts: 'denseSearches only' };
    expect(withUnrecorded(other, after, { lexcaseFields: false })).toEqual({ config: other, unrecorded: [] });
  });
});

describe("the resume's warning for a run dir without itemCounts", () => {
  it('describes the counts as item-counts.ts makes them: any reply whose text named another answer, and the older lines still in the run (failed ones kept named), not "the items this resume runs only"', () => {
    const { unrecorded } = withUnrecorded({ system: 'mine' }, { system: 'mine', itemCounts: ITEM_COUNTS }, { lexcaseFields: false });
    const text = unrecordedText(unrecorded);
    expect(text).toMatch(/^does not record itemCounts \(what each item's line counts/);
    // tokens.textOtherAnswer counts a reasoning field and the prose around a JSON object too (core/llm/text-beside-call.ts), not only a forced call's text
    expect(text).toContain('nor replies whose text named another answer than the one read (tokens.textOtherAnswer)');
    expect(text).not.toContain('forced-call');
    // a later resume that ran the kept failed items again counted them (6 not counted, not 8): report.md names the older lines still in the run
    const later = { at: AT2, gitSha: 'e20a587e', datasetChecksum: 'x', items: 12, skipped: 10, retried: 2 } as RunResume;
    expect(itemsUncounted({ resumes: [first, later] })?.items).toBe(6);
    expect(text).toContain("says how many of the older lexcase's lines are still in the run, not counted (its failed ones kept as failed named as such)");
    expect(text).not.toContain('for the items this resume runs only');
  });
});
