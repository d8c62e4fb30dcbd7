import { describe, expect, it } from 'vitest';
import { goldRate, mrr, recall } from './headline-metrics.js';
import { meanInterval, proportionInterval } from './stats/index.js';
import type { ResultRecord } from './types.js';

/** A retrieval run's records: the first gold passage's rank per query (null: not retrieved). */
const records = (ranks: (number | null)[]): ResultRecord[] =>
  ranks.map((firstRank, i) => ({ id: `q${i}`, metrics: { firstRank, 'recall@1': firstRank === 1 ? 1 : 0 } }) as unknown as ResultRecord);

describe('a retrieval run’s MRR figure', () => {
  it('is a proportion (Wilson, as Recall@1 of the same queries) when every gold is first or missed — not a [1, 1] bootstrap', () => {
    const rs = records([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, null]);
    const [m] = mrr.compute(rs, { config: {} });
    const [r1] = recall.compute(rs, { config: {} });
    const w = proportionInterval(11, 12);
    expect(m).toMatchObject({ estimate: w.estimate, lo: w.lo, hi: w.hi, interval: 'wilson', method: '95% Wilson', unit: 'decimal' });
    expect([m.lo, m.hi, m.method]).toEqual([r1.lo, r1.hi, r1.method]);
  });

  it('is a bootstrapped mean when some gold is below rank 1', () => {
    const ranks = [1, 2, 1, 3, null, 1, 1, 4, 1, 1, 2, 1];
    const [m] = mrr.compute(records(ranks), { config: {} });
    const b = meanInterval(ranks.map((r) => (r ? 1 / r : 0)));
    expect(m).toMatchObject({ estimate: b.estimate, lo: b.lo, hi: b.hi, interval: 'bootstrap', method: '95% bootstrap' });
  });
});

describe('a gold-evidence figure over failed items', () => {
  it('says that the failed items count as misses (an all-failed CASE run: 0.0% [0.0, 24.2] reads as measured otherwise)', () => {
    // `lexcase run case --limit 12` against a server answering HTTP 500: every item failed before any tool call
    const failed = Array.from({ length: 12 }, (_, i) => ({
      id: `mbe_${i}`,
      prediction: null,
      gold: 'C',
      correct: false,
      ms: 1,
      error: 'LLM_REQUEST_FAILED: HTTP 500',
      metrics: { goldInCorrectEvidence: false, goldInAnyEvidence: false, goldEverReturned: false, goldInIndex: true },
    })) as ResultRecord[];
    const [f] = goldRate('gold-in-evidence', "gold in any advocate's evidence", 'goldInAnyEvidence').compute(failed, { config: {} });
    // before: no note
    expect(f).toMatchObject({ estimate: 0, n: 12, note: '12 failed items count as misses' });
    // one answered, one failed: "1 failed item counts as a miss"
    const [g] = goldRate('g', 'g', 'goldInAnyEvidence').compute(
      [{ ...failed[0], prediction: 'C', correct: true, error: undefined, metrics: { ...failed[0].metrics, goldInAnyEvidence: true } }, failed[1]],
      { config: {} },
    );
    expect(g).toMatchObject({ estimate: 0.5, note: '1 failed item counts as a miss' });
    // a failed item whose advocates had found the gold before it failed counts as a hit, and the note says so (before: "a miss")
    const [h] = goldRate('g', 'g', 'goldInAnyEvidence').compute([{ ...failed[1], metrics: { ...failed[1].metrics, goldInAnyEvidence: true } }, failed[2]], {
      config: {},
    });
    expect(h).toMatchObject({ estimate: 0.5, note: '2 failed items count with what was found before they failed: 1 as a hit' });
  });
});
