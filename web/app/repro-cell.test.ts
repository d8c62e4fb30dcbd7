import { describe, expect, it } from 'vitest';
import { reproFlagText, reproNText } from './repro-cell.js';

describe("the explorer's reproduction cell", () => {
  // table.json's LLM-Only cell of a run where 4 of 10 items failed with HTTP 400
  const failedCell = {
    value: 10,
    n: 10,
    failed: 4,
    failedNote: 'counted as wrong',
    outsideCi: true,
    flagNote: 'may come from the 4 failed items (counted as wrong)',
  };
  it('shows the failed items beside n and says the ⚑ may come from them (before: "10" and "⚑ outside CI")', () => {
    expect(reproNText(failedCell)).toBe('10 (4 failed, counted as wrong)');
    expect(reproFlagText(failedCell, true)).toBe('⚑ outside CI — may come from the 4 failed items (counted as wrong)');
  });
  it('shows the topics without hits a trec cell leaves out of n, as table.md does (before: "51" of 52 topics)', () => {
    // anserini-cacm's BM25 MAP cell of a run that got no hit for topic 7
    expect(reproNText({ value: 0.3045, n: 51, noHits: { count: 1 }, outsideCi: false })).toBe('51 (1 without hits left out)');
  });
  it('says a trec cell past its run\'s hits counts only those, as table.md does (before: "40" beside a Recall@1000 of a 100-hit run)', () => {
    // a recipe's bm25 run with "hits": 100: its Recall@1000 cell
    expect(reproNText({ value: 0.65, n: 40, pastDepth: { depth: 100 }, outsideCi: null })).toBe("40 (the run's 100 hits only: see the notes)");
  });
  it('keeps a cell without failures as it was (a table.json from before `failed` included)', () => {
    const c = { value: 25, n: 12, outsideCi: true };
    expect(reproNText(c)).toBe('12');
    expect(reproFlagText(c, true)).toBe('⚑ outside CI');
    expect(reproFlagText({ value: 25, n: 5, outsideCi: null, flagNote: 'n < 10' }, true)).toBe('no flag: n < 10');
    expect(reproFlagText({ value: 25, n: 12, outsideCi: null }, false)).toBe('† not comparable');
  });
});
