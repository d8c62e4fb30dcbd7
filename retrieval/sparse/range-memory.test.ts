/**
 * What a query thread holds for its doc range (issue 38, serving memory): the per-document arrays
 * it scores with (BM25 norms, QLD log-lengths) are computed over its range only — the rest of the
 * N-long array is never written, so it takes no resident memory — and the range's (length, index)
 * order is made only when textbook QLD asks for it (a BM25 server's threads never hold it). The
 * ranges still rank every query exactly as the whole index does (same docs, same scores, bit for
 * bit; merged as the query pool merges them).
 */
import { expect, it } from 'vitest';
import { scoringView, type ScoringData } from '../../indexer/sparse/scoring-view.js';
import { zipfIndexFixture } from './test-support/zipf-index.js';
import { queryTerms } from './query-terms.js';
import { mergeRanked, scoreTopK, type ScoreRequest, type Strategy } from './score-core.js';
import { bm25Norms, logLengths } from './doc-arrays.js';

const N = 5000;
const fx = zipfIndexFixture({ name: 'ranges', seed: 3838, n: N, queries: 25 });

/** The index's data with its (length, index) order counting the entries read from it. */
function countingByLen(data: ScoringData): { data: ScoringData; reads: () => number } {
  let n = 0;
  const byLen = new Proxy(data.byLen, {
    get(t, p) {
      if (typeof p === 'string' && /^\d+$/.test(p)) n++;
      return Reflect.get(t, p);
    },
  });
  return { data: { ...data, byLen }, reads: () => n };
}

const bm25 = (ids: number[], counts: number[]): ScoreRequest => ({ method: 'bm25', ids, counts, k: 10, k1: 0.9, b: 0.4 });
const qld = (ids: number[], counts: number[]): ScoreRequest => ({ method: 'qld', ids, counts, k: 50, mu: 1000, variant: 'textbook' });

it('two query ranges compute their per-document arrays over their own docs only, and rank every query as the whole index', () => {
  const cut = 2345;
  const whole = scoringView(fx.index);
  const ranges = [scoringView(fx.index, 0, cut), scoringView(fx.index, cut, N)];
  const strategies: Strategy[] = ['auto', 'blocked', 'maxscore', 'exhaustive'];
  let compared = 0;
  for (const q of fx.queries)
    for (const make of [bm25, qld])
      for (const strategy of strategies) {
        const { ids, counts } = queryTerms(fx.index, q);
        if (!ids.length) continue;
        const req = make(ids, counts);
        const want = scoreTopK(whole, req, strategy);
        const got = mergeRanked(
          ranges.map((v) => scoreTopK(v, req, strategy)),
          req.k,
        );
        expect(got.docs).toEqual(want.docs);
        expect(got.scores).toEqual(want.scores);
        compared++;
      }
  expect(compared).toBeGreaterThan(150);
  const fullNorms = bm25Norms(whole, 0.9, 0.4);
  const fullLnl = logLengths(whole, 1000);
  for (const v of ranges)
    for (const [a, full] of [
      [bm25Norms(v, 0.9, 0.4), fullNorms],
      [logLengths(v, 1000), fullLnl],
    ]) {
      expect(a.length).toBe(N);
      for (let d = 0; d < N; d++) {
        // inside the range the same values, bit for bit; outside, never written
        if (d >= v.lo && d < v.hi) expect(a[d]).toBe(full[d]);
        else expect(a[d]).toBe(0);
      }
    }
});

it("a BM25 query range never makes the range's (length, index) order; textbook QLD makes it on first use and ranks as the whole index", () => {
  const { data, reads } = countingByLen(fx.index);
  const whole = scoringView(fx.index);
  const ranges = [scoringView(data, 0, 2500), scoringView(data, 2500, N)];
  for (const q of fx.queries) {
    const { ids, counts } = queryTerms(fx.index, q);
    if (!ids.length) continue;
    for (const strategy of ['auto', 'blocked', 'maxscore'] as const)
      for (const v of ranges) {
        const r = scoreTopK(v, bm25(ids, counts), strategy);
        expect(r.docs.every((d) => d >= v.lo && d < v.hi)).toBe(true);
      }
  }
  expect(reads()).toBe(0);
  const { ids, counts } = queryTerms(fx.index, fx.queries[0]);
  const req = qld(ids, counts);
  const want = scoreTopK(whole, req);
  const got = mergeRanked(
    ranges.map((v) => scoreTopK(v, req)),
    req.k,
  );
  expect(got).toEqual(want);
  expect(reads()).toBe(2 * N);
  expect(Array.from(ranges[1].byLenRange)).toEqual(Array.from(fx.index.byLen).filter((d) => d >= 2500));
});
