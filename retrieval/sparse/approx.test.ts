/**
 * The opt-in approximate mode (approx.ts): with a budget covering every posting it is exact scoring
 * bit for bit; with a smaller budget it scores exactly the plan's longest prefix that fits (at least
 * one term) — BM25 and Lucene QLD equal exact scoring of a query made of those terms only, bit for
 * bit; textbook QLD equals it once the length penalty and Σ c·ln(μP) of ALL query terms are put back
 * (a skipped term counts as matched nowhere) — for every strategy, on whole and split doc ranges,
 * and 2 query threads return what one does. Exact stays the default.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir, texts } from '../../indexer/build-test-helpers.js';
import { zipfText } from './test-support/zipf-text.js';
import { queryTerms } from './query-terms.js';
import { createRng } from '../../core/rng.js';
import { closeSparseIndexes, openRetriever, openSparseIndex } from '../open.js';
import { approxLabel, approxPrefix, checkApprox } from './approx.js';
import { collectionProb, scoreTopK, termPlan, type Ranked, type ScoreRequest, type Strategy } from './score-core.js';
import { scoringView, type ScoringView } from '../../indexer/sparse/scoring-view.js';
import { createWinkRetriever } from '../wink.js';
import { SPARSE_SCORERS } from './test-support/sparse-scorers.js';

const tmp = tempDir('lexcase-approx-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

const STRATEGIES: Strategy[] = ['auto', 'maxscore', 'blocked', 'exhaustive'];

/** Textbook QLD's query-wide part Σ c·ln(μP) and |q| of a request, computed from the index. */
function qldConstants(view: ScoringView, req: ScoreRequest & { method: 'qld' }): { base: number; qlen: number } {
  let base = 0;
  let qlen = 0;
  req.ids.forEach((id, i) => {
    base += req.counts[i] * Math.log(req.mu * collectionProb('textbook', view.cf[id], view.totalTokens));
    qlen += req.counts[i];
  });
  return { base, qlen };
}

/** Expected textbook-QLD approximate top-k: the sub-query's sparse part + the full query's length penalty. */
function expectedQld(
  view: ScoringView,
  full: ScoreRequest & { method: 'qld' },
  sub: ScoreRequest & { method: 'qld' },
  k: number,
): { ranked: Ranked; byDoc: Map<number, number> } {
  const all = scoreTopK(view, { ...sub, k: view.hi - view.lo }, 'exhaustive'); // every doc of the range
  const f = qldConstants(view, full);
  const s = qldConstants(view, sub);
  const byDoc = new Map<number, number>();
  all.docs.forEach((d, i) => {
    const lnl = Math.log(view.doclen[d] + full.mu);
    byDoc.set(d, all.scores[i] - (s.base - s.qlen * lnl) + (f.base - f.qlen * lnl));
  });
  const order = [...byDoc.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
  return { ranked: { docs: order.map((x) => x[0]), scores: order.map((x) => x[1]) }, byDoc };
}

describe('approxPrefix: the longest prefix of the plan that fits the budget', () => {
  it('stops at the first term that does not fit, keeps at least one, takes the smaller of two budgets', () => {
    const dfs = [5, 3, 10, 2]; // 20 postings
    expect(approxPrefix(dfs, { postingShare: 1 })).toBe(4);
    expect(approxPrefix(dfs, { postingShare: 0.5 })).toBe(2); // budget 10: 5 + 3 = 8, + 10 > 10; the last 2 would fit but is past the cut
    expect(approxPrefix(dfs, { postingShare: 0.9 })).toBe(3); // budget 18: 5 + 3 + 10 = 18
    expect(approxPrefix(dfs, { postingShare: 0.05 })).toBe(1); // budget 1 < 5: the first term anyway
    expect(approxPrefix(dfs, { postingShare: 1, maxPostings: 9 })).toBe(2);
    expect(approxPrefix(dfs, { maxPostings: 1000 })).toBe(4);
    expect(approxPrefix([], { postingShare: 0.5 })).toBe(0);
  });

  it('rejects budgets out of range with one message naming the field; labels for run tags', () => {
    for (const bad of [
      { postingShare: 0 },
      { postingShare: 1.5 },
      { postingShare: Number.NaN },
      { maxPostings: 0 },
      { maxPostings: 2.5 },
      {},
      { share: 0.5 },
      0.5,
    ]) {
      expect(() => checkApprox(bad), JSON.stringify(bad)).toThrow(/invalid approx/);
    }
    expect(checkApprox(undefined)).toBeUndefined();
    expect(checkApprox({ postingShare: 0.25, maxPostings: 10 })).toEqual({ postingShare: 0.25, maxPostings: 10 });
    expect(approxLabel({ postingShare: 0.3 })).toBe('approx0.3');
    expect(approxLabel({ maxPostings: 5000 })).toBe('approx-max5000');
  });
});

let run = 0;
let cut = 0;
let compared = 0;

it('share 1 is exact bit for bit; a smaller budget scores exactly the plan prefix (bm25, Lucene QLD identical to the prefix query; textbook QLD with the full length penalty)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 60, max: 300 }),
      fc.integer({ min: 20, max: 200 }),
      fc.double({ min: 0.02, max: 0.95, noNaN: true }),
      fc.integer({ min: 1, max: 4000 }),
      async (seed, n, vocab, share, mu) => {
        const rng = createRng(seed);
        const ts = Array.from({ length: n }, () => zipfText(rng, vocab, rng.int(1, 80)));
        const dir = `${tmp.dir}/p${run++}`;
        await buildIndex(fromArray(texts(ts)), { out: dir, corpusName: 'approx', workers: 0 });
        const index = await openSparseIndex(dir);
        const views = [index.view, scoringView(index, 0, n >> 1), scoringView(index, n >> 1, n)];
        for (let qi = 0; qi < 2; qi++) {
          const { ids, counts } = queryTerms(index, zipfText(rng, vocab, rng.int(3, 64)));
          for (const k of [1, 10, n]) {
            const reqs: ScoreRequest[] = [
              { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k },
              { method: 'qld', variant: 'textbook', mu, ids, counts, k },
              { method: 'qld', variant: 'lucene', mu, ids, counts, k },
            ];
            for (const view of views) {
              for (const req of reqs) {
                const exact = scoreTopK(view, req, 'exhaustive');
                const total = ids.reduce((s, id) => s + index.df[id], 0);
                // The prefix, derived here from the plan order: cumulative df ≤ share · total, at least one term.
                const plan = termPlan(view, req);
                let used = 0;
                let keep = 0;
                while (keep < plan.length && (keep === 0 || used + plan[keep].df <= share * total)) used += plan[keep++].df;
                const kept = new Set(plan.slice(0, keep).map((t) => t.id));
                const subIds = ids.filter((id) => kept.has(id));
                const sub = { ...req, ids: subIds, counts: subIds.map((id) => counts[ids.indexOf(id)]) } as ScoreRequest;
                if (keep < plan.length) cut++;
                compared++;
                const viaSub = req.method === 'qld' && req.variant === 'textbook' ? undefined : scoreTopK(view, sub, 'exhaustive');
                const qld =
                  req.method === 'qld' && req.variant === 'textbook'
                    ? expectedQld(view, req, sub as ScoreRequest & { method: 'qld' }, Math.min(k, view.hi - view.lo))
                    : undefined;
                for (const strategy of STRATEGIES) {
                  // A budget that covers every posting: exact, bit for bit.
                  for (const approx of [{ postingShare: 1 }, { maxPostings: total }]) {
                    const a = scoreTopK(view, { ...req, approx }, strategy, 1 + (seed % 37));
                    expect(a.docs).toEqual(exact.docs);
                    expect(a.scores).toEqual(exact.scores);
                  }
                  const a = scoreTopK(view, { ...req, approx: { postingShare: share } }, strategy, 1 + (seed % 37));
                  if (viaSub) {
                    expect(a.docs).toEqual(viaSub.docs);
                    expect(a.scores).toEqual(viaSub.scores);
                  } else {
                    // Same scores up to rounding (the penalty is added in another order), same ranking up to near-ties.
                    const e = qld!;
                    expect(a.docs.length).toBe(e.ranked.docs.length);
                    a.docs.forEach((d, i) => {
                      const tol = 1e-9 * (1 + Math.abs(a.scores[i]));
                      expect(Math.abs(a.scores[i] - e.byDoc.get(d)!)).toBeLessThan(tol);
                      expect(Math.abs(a.scores[i] - e.ranked.scores[i])).toBeLessThan(tol);
                    });
                  }
                }
              }
            }
          }
        }
      },
    ),
    { numRuns: 10, seed: 20261123 },
  );
  // Meaningful only if the budget really cut the plan on a good share of the requests.
  expect(cut).toBeGreaterThan(compared / 3);
}, 120_000);

it('2 query threads return what one returns, approximate results differ from exact ones, share 1 is exact; other methods refuse approx', async () => {
  const rng = createRng(77);
  const ts = Array.from({ length: 3000 }, () => zipfText(rng, 400, rng.int(20, 120)));
  const dir = `${tmp.dir}/threads`;
  await buildIndex(fromArray(texts(ts)), { out: dir, corpusName: 'approx', workers: 0 });
  const queries = Array.from({ length: 6 }, () => zipfText(rng, 400, 60));
  let differ = 0;
  for (const [method, opts] of SPARSE_SCORERS) {
    const one = await openRetriever(dir, method, { ...opts, threads: 0 });
    const two = await openRetriever(dir, method, { ...opts, threads: 2 });
    for (const q of queries) {
      for (const k of [10, 1000]) {
        const exact = await one.search(q, { k });
        expect(await one.search(q, { k, approx: { postingShare: 1 } })).toEqual(exact);
        for (const approx of [{ postingShare: 0.5 }, { postingShare: 0.25 }, { maxPostings: 5000 }]) {
          const a = await one.search(q, { k, approx });
          expect(a.length).toBeGreaterThan(0);
          expect(await two.search(q, { k, approx })).toEqual(a);
          if (JSON.stringify(a) !== JSON.stringify(exact)) differ++;
        }
      }
    }
    await expect(one.search('w1x', { approx: { postingShare: 2 } })).rejects.toThrow(/invalid approx\.postingShare: expected a number > 0 and ≤ 1/);
  }
  expect(differ).toBeGreaterThan(0);
  const wink = await createWinkRetriever(texts(ts.slice(0, 50)));
  await expect(wink.search('w1x', { approx: { postingShare: 0.5 } })).rejects.toThrow(/method "wink" has no approximate mode/);
}, 120_000);
