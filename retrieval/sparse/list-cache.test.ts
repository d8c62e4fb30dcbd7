/**
 * The decoded-list cache under a byte budget (issue 38 item 3, list-cache.ts): a view whose budget
 * holds only a few lists ranks every query — every strategy, bm25 and QLD, lists dense and compact —
 * exactly as a view with room for all of them (same docs, same scores, bit for bit), while the
 * bytes its cache holds never exceed the budget, lists are evicted and come back, and the view's
 * kernel memory stays within the budget plus the per-document arrays it holds. A query never loses
 * a list it has touched to eviction; the query threads get the index's budget split between them.
 */
import { describe, expect, it } from 'vitest';
import { openRetriever } from '../open.js';
import { scoringView } from '../../indexer/sparse/scoring-view.js';
import { zipfIndexFixture } from './test-support/zipf-index.js';
import { queryTerms } from './query-terms.js';
import { scoreTopK, type ScoreRequest, type Strategy } from './score-core.js';
import { decodeStats, listCache, prewarmPostings, setCacheBudget } from './decoded-postings.js';
import { cacheBudgetBytes, DEFAULT_CACHE_MIB, ListCache } from './list-cache.js';
import { viewMemory } from './kernel/view-memory.js';

const N = 6000;
const fx = zipfIndexFixture({ name: 'cache', seed: 38, n: N, queries: 40 });

describe('a decoded-list cache under a tiny budget', () => {
  it('ranks every query exactly as an unbounded cache, its bytes never above the budget, lists evicted and decoded again', () => {
    const budget = 20_000; // a few compact lists (3 bytes a posting) or dense ones (1 byte a doc): far less than the fx.queries use
    const full = scoringView(fx.index, 0, N);
    const tiny = scoringView(fx.index, 0, N);
    setCacheBudget(full, 2 ** 30);
    setCacheBudget(tiny, budget);
    // prewarming fills the tiny cache up to its budget, not past it
    prewarmPostings(full);
    prewarmPostings(tiny);
    expect(listCache(tiny).bytes).toBeLessThanOrEqual(budget);
    expect(listCache(tiny).size).toBeGreaterThan(0);
    const strategies: Strategy[] = ['auto', 'blocked', 'maxscore', 'blockmax', 'exhaustive'];
    let compared = 0;
    for (const q of fx.queries)
      for (const strategy of strategies)
        for (const method of ['bm25', 'qld'] as const) {
          const { ids, counts } = queryTerms(fx.index, q);
          if (!ids.length) continue;
          const req: ScoreRequest =
            method === 'bm25' ? { method, ids, counts, k: 10, k1: 0.9, b: 0.4 } : { method, ids, counts, k: 50, mu: 1000, variant: 'textbook' };
          const want = scoreTopK(full, req, strategy);
          const got = scoreTopK(tiny, req, strategy);
          expect(got.docs).toEqual(want.docs);
          expect(got.scores).toEqual(want.scores);
          const c = listCache(tiny);
          expect(c.bytes).toBeLessThanOrEqual(budget);
          // the resident part of the kernel memory: the cache's budget plus the per-document arrays held (BM25 norms, QLD log-lengths)
          const vm = viewMemory(tiny);
          expect(vm.used).toBeLessThanOrEqual(64 + budget + vm.heldBytes + 16);
          compared++;
        }
    const c = listCache(tiny);
    expect(compared).toBeGreaterThan(300);
    expect(c.peakBytes).toBeLessThanOrEqual(budget);
    expect(c.evictions).toBeGreaterThan(20);
    // the unbounded view kept everything it decoded; the tiny one held a fraction of that
    expect(listCache(full).evictions).toBe(0);
    expect(listCache(full).bytes).toBeGreaterThan(5 * budget);
  });

  it('never evicts a list the running query has touched: when nothing else can go, the new list is not cached', () => {
    const c = new ListCache(100);
    const evicted: number[] = [];
    const entry = (key: number, bytes: number) => c.add(key, { bytes, evict: () => evicted.push(key) });
    c.beginQuery();
    expect(c.makeRoom(60)).toBe(true);
    entry(1, 60);
    // the same query: 1 is pinned, so 50 more bytes cannot be had
    expect(c.makeRoom(50)).toBe(false);
    expect(evicted).toEqual([]);
    c.beginQuery();
    expect(c.makeRoom(30)).toBe(true);
    entry(2, 30);
    c.touch(1); // 1 used again by this query: 2 is now the least recently used, but pinned too
    expect(c.makeRoom(20)).toBe(false);
    c.beginQuery();
    c.touch(1);
    expect(c.makeRoom(20)).toBe(true); // 2 (least recently used, not touched by this query) goes
    expect(evicted).toEqual([2]);
    expect(c.bytes).toBe(60);
    // a list over the whole budget is never cached
    expect(c.makeRoom(101)).toBe(false);
    // retired while pinned: released at the next query
    c.retire(1);
    expect(evicted).toEqual([2]);
    c.beginQuery();
    expect(evicted).toEqual([2, 1]);
    expect(c.bytes).toBe(0);
  });

  it("counts this thread's decodes, hits and evictions: a query run again on a roomy view decodes nothing, on a tiny one its lists come back decoded", () => {
    const roomy = scoringView(fx.index, 0, N);
    const tiny = scoringView(fx.index, 0, N);
    setCacheBudget(roomy, 2 ** 30);
    setCacheBudget(tiny, 20_000);
    // the query's terms with lists long enough to cache (≥ 64 postings): a second run finds them all
    const long = fx.queries.map((q) => queryTerms(fx.index, q)).find((t) => t.ids.length >= 3 && t.ids.every((id) => fx.index.df[id] >= 64))!;
    const req: ScoreRequest = { method: 'bm25', ids: long.ids, counts: long.counts, k: 10, k1: 0.9, b: 0.4 };
    const run = (view: ReturnType<typeof scoringView>) => {
      const before = { ...decodeStats };
      scoreTopK(view, req, 'blocked');
      return Object.fromEntries(Object.entries(decodeStats).map(([k, v]) => [k, v - before[k as keyof typeof decodeStats]]));
    };
    const cold = run(roomy);
    expect(cold.decodes).toBe(long.ids.length);
    expect(cold.decodedPostings).toBe(long.ids.reduce((a, id) => a + fx.index.df[id], 0));
    expect(cold.decodedBytes).toBeGreaterThan(0);
    const warm = run(roomy);
    expect(warm).toMatchObject({ decodes: 0, decodedPostings: 0, evictions: 0 });
    expect(warm.hits).toBeGreaterThanOrEqual(long.ids.length);
    // the tiny view: every other query evicts what this one used, so it decodes its lists again
    run(tiny);
    for (const q of fx.queries.slice(0, 10)) {
      const t = queryTerms(fx.index, q);
      if (t.ids.length) scoreTopK(tiny, { ...req, ids: t.ids, counts: t.counts }, 'blocked');
    }
    const again = run(tiny);
    expect(again.decodes).toBeGreaterThan(0);
    expect(listCache(tiny).evictions).toBeGreaterThan(0);
  });

  it('takes the budget from cacheMib, else LEXCASE_CACHE_MIB, else the default', () => {
    expect(cacheBudgetBytes(undefined, {})).toBe(DEFAULT_CACHE_MIB * 2 ** 20);
    expect(cacheBudgetBytes(undefined, { LEXCASE_CACHE_MIB: '64' })).toBe(64 * 2 ** 20);
    expect(cacheBudgetBytes(8, { LEXCASE_CACHE_MIB: '64' })).toBe(8 * 2 ** 20);
    expect(() => cacheBudgetBytes(undefined, { LEXCASE_CACHE_MIB: 'lots' })).toThrow(/MiB/);
  });
});

it('query threads rank with a tiny cacheMib exactly as with the default (the budget split over the threads)', async () => {
  const roomy = await openRetriever(fx.dir, 'bm25', { threads: 2 });
  const tiny = await openRetriever(fx.dir, 'bm25', { threads: 2, cacheMib: 0.02 });
  for (const q of fx.queries.slice(0, 12)) {
    const a = await roomy.search(q, { k: 10 });
    const b = await tiny.search(q, { k: 10 });
    expect(b.map((h) => [h.id, h.score])).toEqual(a.map((h) => [h.id, h.score]));
  }
}, 60_000);
