/** MAD metric functions on hand-made data. */
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../eval/types.js';
import { checkCitations, lexicallySupports } from './citation-check.js';
import { itemCitationMetrics } from './citation-summary.js';
import { runMadSeeds, type MadExperimentOptions } from './experiment.js';
import { checkSeeds, madMetrics, madMetricsMarkdown, seedConsistency, seedConsistencyMarkdown } from './metrics.js';
import { visibleOpponents } from './topology.js';

const FRE402 =
  'Rule 402. General Admissibility of Relevant Evidence. Relevant evidence is admissible unless any of the following provides otherwise. Irrelevant evidence is not admissible.';

const rec = (id: string, prediction: string | null, gold: string, metrics: ResultRecord['metrics'] = {}): ResultRecord => ({
  id,
  prediction,
  gold,
  correct: prediction === gold,
  metrics,
  ms: 1,
  ...(prediction === null ? { error: 'x' } : {}),
});

describe('citation checks', () => {
  it('lexical support: a claim restating the rule is supported, an unrelated claim is not', () => {
    expect(lexicallySupports('Relevant evidence is generally admissible', FRE402).supportive).toBe(true);
    expect(lexicallySupports('A contract for land must be in writing under the statute of frauds', FRE402).supportive).toBe(false);
    // one shared term is not enough even when the claim is short
    expect(lexicallySupports('evidence', FRE402).supportive).toBe(false);
  });

  it('checkCitations: exists / seen / supportive per cited id, duplicates within a claim counted once', async () => {
    const get = async (id: string) => (id === 'fre402' ? { text: FRE402 } : undefined);
    const c = await checkCitations([{ text: 'Relevant evidence is admissible', cites: ['fre402', 'fre402', 'ghost'] }], new Set(['fre402']), get, 600);
    expect(c.map((x) => [x.id, x.exists, x.seen, x.supportive])).toEqual([
      ['fre402', true, true, true],
      ['ghost', false, false, false],
    ]);
  });

  it('checkCitations reads the passage as the prompt showed it: words past the cut support nothing (they made a claim "supported" by text the model never saw)', async () => {
    // the claim's words are only in the passage's last sentence, past the first 40 characters shown
    const long = `${FRE402} The statute of frauds requires a writing for a contract for the sale of land.`;
    const get = async () => ({ text: long });
    const claim = [{ text: 'A contract for land must be in writing under the statute of frauds', cites: ['p'] }];
    expect((await checkCitations(claim, new Set(['p']), get, long.length))[0].supportive).toBe(true);
    const cut = (await checkCitations(claim, new Set(['p']), get, FRE402.length))[0];
    expect(cut.supportive).toBe(false);
    expect(cut.overlap).toBe(0);
  });

  it('itemCitationMetrics: shares over the answer citations, judge flags, gold coverage', () => {
    const cites = [
      { id: 'a', claim: '', exists: true, seen: true, supportive: true, overlap: 1 },
      { id: 'b', claim: '', exists: true, seen: false, supportive: false, overlap: 0 },
      { id: 'c', claim: '', exists: false, seen: false, supportive: false, overlap: 0 },
      { id: 'g', claim: '', exists: true, seen: true, supportive: true, overlap: 0.5 },
    ];
    // the judge was shown a, b and g; c is no passage of the index (a hallucinated id)
    expect(itemCitationMetrics(cites, ['g'], ['a', 'g'], { unsupported: ['b'], shown: ['a', 'b', 'g'] })).toEqual({
      citations: 4,
      citationsExist: 0.75,
      citationsSupportive: 0.5,
      citationsJudgeSupportive: 0.5,
      citationsSeen: 0.5,
      goldCited: true,
      goldInPool: true,
    });
    // a citation of a passage whose text the judge was never shown cannot count as judge-supported,
    // whether or not the judge listed it (before: every cited id the judge did not list counted)
    const requested = [{ id: 'snippet_13', claim: 'the rule', exists: true, seen: true, supportive: true, overlap: 1 }];
    expect(itemCitationMetrics(requested, [], ['a'], { unsupported: [], shown: ['a'] }).citationsJudgeSupportive).toBe(0);
    expect(itemCitationMetrics(requested, [], ['a'], { unsupported: [], shown: ['a', 'snippet_13'] }).citationsJudgeSupportive).toBe(1);
    expect(itemCitationMetrics([], [], [])).toMatchObject({
      citations: 0,
      citationsExist: null,
      citationsJudgeSupportive: null,
      goldCited: null,
      goldInPool: null,
    });
  });
});

describe('run metrics', () => {
  it('accuracy with a 95% CI (failures count as wrong) and citation means over the items where defined', () => {
    const rs = [
      rec('1', 'A', 'A', { citations: 2, citationsExist: 1, citationsSupportive: 0.5, goldCited: true, checklist: 5 }),
      rec('2', 'B', 'A', { citations: 0, citationsExist: null, citationsSupportive: null, goldCited: false, checklist: 3 }),
      rec('3', 'C', 'C', { citations: 1, citationsExist: 0, citationsSupportive: 0, goldCited: null, checklist: 4 }),
      rec('4', null, 'D', {}),
    ];
    const m = madMetrics(rs, 13);
    expect(m.items).toBe(4);
    expect(m.failed).toBe(1);
    expect(m.accuracy.estimate).toBe(0.5);
    expect(m.accuracy.lo).toBeLessThan(0.5);
    expect(m.accuracy.hi).toBeGreaterThan(0.5);
    expect(m.citations.exist).toEqual({ mean: 0.5, n: 2 });
    expect(m.citations.supportive).toEqual({ mean: 0.25, n: 2 });
    expect(m.citations.goldCited).toEqual({ mean: 0.5, n: 2 });
    expect(m.citations.perAnswer).toEqual({ mean: 1, n: 3 });
    expect(m.checklist).toEqual({ mean: 4, n: 3 });
    expect(m.citations.judgeSupportive).toEqual({ mean: null, n: 0 });
  });

  it('answer citations are over the answered items: a failed item recorded with 0 citations is left out and the table says of how many', () => {
    // the audit's MAD run: 6 items, 2 failed with HTTP 400 (recorded, by older runs, with citations 0)
    const none = { citationsExist: null, citationsSupportive: null, citationsJudgeSupportive: null, citationsSeen: null, goldInIndex: true };
    const failed = (id: string, gold: string, goldInPool: boolean) => ({
      ...rec(id, null, gold, { citations: 0, ...none, goldCited: false, goldInPool, checklist: null, forfeits: 0 }),
      error: 'LLM_REQUEST_FAILED: LLM request failed: HTTP 400: 400 bad request',
    });
    const rs = [
      failed('mbe_137', 'C', false),
      failed('mbe_581', 'B', true),
      rec('mbe_222', 'A', 'C', { citations: 0, ...none, goldCited: false, goldInPool: true, checklist: 1, forfeits: 0 }),
      rec('mbe_682', 'C', 'C', {
        citations: 2,
        citationsExist: 1,
        citationsSupportive: 0,
        citationsJudgeSupportive: 0.5,
        citationsSeen: 1,
        goldCited: false,
        goldInPool: false,
        goldInIndex: true,
        checklist: 2,
        forfeits: 0,
      }),
      rec('mbe_847', 'D', 'C', { citations: 0, ...none, goldCited: false, goldInPool: true, checklist: 4, forfeits: 0 }),
      rec('mbe_1030', 'D', 'C', { citations: 0, ...none, goldCited: false, goldInPool: true, checklist: 3, forfeits: 0 }),
    ];
    const m = madMetrics(rs);
    expect(m).toMatchObject({ items: 6, failed: 2, answered: 4 });
    expect(m.citations.perAnswer).toEqual({ mean: 0.5, n: 4 });
    expect(m.citations.goldCited).toEqual({ mean: 0, n: 4 });
    expect(m.citations.goldInPool).toEqual({ mean: 4 / 6, n: 6 });
    const md = madMetricsMarkdown(m);
    expect(md).toMatch(/\| citations per answer \(of 4 answered\) +\| +0\.50 \| +4 \|/);
    expect(md).toContain('Answer citations are over the 4 answered of 6 items (the 2 failed have no answer)');
  });

  it('accuracy per round from the correctAfterRound flags over every item (an item that failed before a judgment counts wrong)', () => {
    const rs = [
      rec('1', 'A', 'A', { correctAfterRound1: false, correctAfterRound2: true }),
      rec('2', 'B', 'B', { correctAfterRound1: true, correctAfterRound2: true }),
      rec('3', 'C', 'A', { correctAfterRound1: false, correctAfterRound2: false }),
      rec('4', null, 'C', {}),
    ];
    const m = madMetrics(rs, 13);
    expect(m.byRound.map((r) => [r.round, r.accuracy.estimate, r.accuracy.n])).toEqual([
      [1, 1 / 4, 4],
      [2, 2 / 4, 4],
    ]);
    expect(madMetrics([rec('1', 'A', 'A')]).byRound).toEqual([]);
    // with a cross-examination (read by the final judgment only) the last row says so, and a note that the step into it
    // is not the round's alone (before: "2 | 50.0%" read as round 2's effect)
    const x = madMetricsMarkdown(m, 'MAD', { crossExaminer: true });
    expect(x).toMatch(/\| 2 \(the final judgment, after the cross-examination\) +\| +50\.0%/);
    expect(x).toContain("Round 2's verdict is the final judgment, which reads the cross-examination; the rounds before it were judged without one");
    expect(madMetricsMarkdown(m, 'MAD')).not.toMatch(/cross-examination/);
  });

  it('says how many verdicts went to a debater whose final brief was forfeited (in accuracy, in no citation figure or checklist)', () => {
    const rs = [rec('1', 'A', 'A', { winnerForfeited: true, citations: null, checklist: null }), rec('2', 'B', 'B', { citations: 1, checklist: 4 })];
    const m = madMetrics(rs, 13);
    expect(m.winnerForfeited).toBe(1);
    expect(madMetricsMarkdown(m)).toContain(
      '**1 verdict went to a debater whose final brief was forfeited** (its replies unparseable twice): that item is in accuracy',
    );
    expect(madMetrics([rs[1]], 13).winnerForfeited).toBeUndefined();
  });

  it('consistency across seeds: pairwise agreement and unanimity over items answered in every run', () => {
    const r1 = new Map<string, string | null>([
      ['q1', 'A'],
      ['q2', 'B'],
      ['q3', 'C'],
      ['q4', 'A'],
    ]);
    const r2 = new Map<string, string | null>([
      ['q1', 'A'],
      ['q2', 'C'],
      ['q3', 'C'],
      ['q4', null],
    ]);
    const r3 = new Map<string, string | null>([
      ['q1', 'A'],
      ['q2', 'D'],
      ['q3', 'B'],
      ['q4', 'A'],
    ]);
    const c = seedConsistency([r1, r2, r3]);
    // q4 failed in run 2 → excluded. q1: 3/3 pairs agree; q2: 0/3; q3: 1/3
    expect(c.items).toBe(3);
    expect(c.total).toBe(4);
    expect(seedConsistencyMarkdown(c)).toBe('Consistency across 3 seeds (3 of 4 items answered in every run): pairwise agreement 44.4%, unanimous 33.3%');
    expect(c.pairwiseAgreement).toBeCloseTo((1 + 0 + 1 / 3) / 3, 10);
    expect(c.unanimous).toBeCloseTo(1 / 3, 10);
    expect(seedConsistency([r1])).toMatchObject({ pairwiseAgreement: null });
    expect(seedConsistency([r1, r1]).pairwiseAgreement).toBe(1);
  });

  it('seeds for consistency must be distinct: 13,13 and 13,013 are refused naming the seed, before any run (it read 100% agreement)', async () => {
    expect(() => checkSeeds([13, 13], '--seeds', ['13', '13'])).toThrow(/invalid --seeds: 13 is given twice: .*give distinct seeds/);
    expect(() => checkSeeds([13, 14, 13], '--seeds', ['13', '14', '013'])).toThrow(/invalid --seeds: "13" and "013" are both seed 13/);
    expect(() => checkSeeds([13])).toThrow(/need at least two seeds/);
    expect(() => checkSeeds([13, 14, 15])).not.toThrow();
    // the library refuses too, before it opens an index or sends a request (the options are never read)
    await expect(runMadSeeds({} as MadExperimentOptions, [13, 13])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/13 is given twice/),
    });
  });

  it('seeds outside 0..4294967295 are refused: runMadSeeds([1, 1.5]) ran the same draws twice and read 100% agreement', async () => {
    await expect(runMadSeeds({} as MadExperimentOptions, [1, 1.5])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/invalid seeds: a seed must be an integer from 0 to 4294967295 .*got 1\.5/),
    });
    expect(() => checkSeeds([1, 4294967297], '--seeds')).toThrow(/invalid --seeds: a seed must be an integer from 0 to 4294967295/);
  });

  it('topology: full sees n−1 opponents, sparse the ring predecessor, two debaters coincide', () => {
    expect(visibleOpponents('full', 1, 4)).toEqual([0, 2, 3]);
    expect(visibleOpponents('sparse', 0, 4)).toEqual([3]);
    expect(visibleOpponents('sparse', 3, 10)).toEqual([2]);
    expect(visibleOpponents('sparse', 0, 2)).toEqual(visibleOpponents('full', 0, 2));
  });
});

describe('MAD metrics: the same items in another results.jsonl order give the same figures', () => {
  it('citation shares: a run at --concurrency 4 (items listed as they finished) reports the run at 1 to the last bit', () => {
    // answer citations that exist: 0 of 2, 0 of 3, 1 of 3, 5 of 6, 3 of 4, 3 of 5, 5 of 6, 0 of 1
    const shares = [0, 0, 1 / 3, 5 / 6, 3 / 4, 3 / 5, 5 / 6, 0];
    const records = shares.map((s, i) => rec(`mbe_${100 + i}`, 'A', 'A', { citations: 1, citationsExist: s }));
    const a = madMetrics(records);
    const b = madMetrics([...records].reverse());
    // before: 0.41875 in one order, 0.41875000000000007 in the other
    expect(b.citations.exist.mean).toBe(a.citations.exist.mean);
    expect(madMetricsMarkdown(b)).toBe(madMetricsMarkdown(a));
  });

  it('seed consistency: one pairwise agreement whatever order the first seed run listed its items in', () => {
    // 3 seeds; per item the share of the 3 pairs that agree: mbe_855 1, mbe_137 1, mbe_581 0, mbe_222 1/3
    const preds: Record<string, [string, string, string]> = {
      mbe_855: ['B', 'B', 'B'],
      mbe_137: ['C', 'C', 'C'],
      mbe_581: ['A', 'C', 'D'],
      mbe_222: ['A', 'A', 'D'],
    };
    const runsIn = (ids: string[]) => [0, 1, 2].map((s) => new Map<string, string | null>(ids.map((id) => [id, preds[id][s]])));
    const asFinished = seedConsistency(runsIn(['mbe_855', 'mbe_137', 'mbe_581', 'mbe_222']));
    const byId = seedConsistency(runsIn(['mbe_137', 'mbe_222', 'mbe_581', 'mbe_855']));
    // before: 0.5833333333333334 beside 0.5833333333333333
    expect(asFinished.pairwiseAgreement).toBe(byId.pairwiseAgreement);
  });
});
