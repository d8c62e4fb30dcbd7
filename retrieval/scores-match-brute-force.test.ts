/**
 * Property tests: BM25, textbook QLD and Lucene LMDirichlet scores from the on-disk index equal a
 * brute-force computation over raw term counts within 1e-4, for random corpora and queries; textbook
 * QLD ranks every document. The lucene scorer (float32 on 1-byte norms) equals the brute-force
 * Lucene formulas in double within 1e-4 relative. Explanations sum to the score.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { BruteForce, fromArray, tempDir, texts } from '../indexer/build-test-helpers.js';
import { createAnalyzer } from '../indexer/analyzer.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import type { Hit } from './types.js';
import { BAREXAM_QA, LEGAL_CORPUS_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';

const WORDS = [
  'contract',
  'tort',
  'the',
  'of',
  'negligence',
  'duty',
  'breach',
  'offer',
  'acceptance',
  'consideration',
  'plaintiff',
  'defendant',
  'court',
  'held',
  'damages',
  'a',
  'is',
  'estoppel',
];
const tmp = tempDir('lexcase-prop-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

const doc = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 40 }).map((w) => w.join(' '));
const corpus = fc.array(doc, { minLength: 1, maxLength: 25 });
const query = fc.array(fc.constantFrom(...WORDS, 'unseenword', 'zebra'), { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));

let run = 0;
async function build(ts: string[]): Promise<string> {
  const out = `${tmp.dir}/i${run++}`;
  await buildIndex(fromArray(texts(ts)), { out, corpusName: 'prop', workers: 0, segmentPostings: 7, batchPassages: 4 });
  return out;
}

function expectMatches(hits: Hit[], expected: Map<string, number>, relative = false): void {
  expect(hits.length).toBe(expected.size);
  const sortedExpected = [...expected.values()].sort((a, b) => b - a);
  const tol = (x: number) => (relative ? 1e-4 * Math.max(1, Math.abs(x)) : 1e-4);
  hits.forEach((h, i) => {
    expect(h.rank).toBe(i + 1);
    expect(expected.has(h.id)).toBe(true);
    expect(Math.abs(h.score - expected.get(h.id)!)).toBeLessThan(tol(h.score));
    // Ranking: the i-th hit has the i-th best reference score (ties may swap equal scores only).
    expect(Math.abs(h.score - sortedExpected[i])).toBeLessThan(tol(h.score));
    if (i > 0) expect(hits[i - 1].score).toBeGreaterThanOrEqual(h.score);
  });
}

describe('sparse scorers equal the brute-force reference', () => {
  it('BM25 (default and custom k1/b), textbook QLD over all docs, Lucene QLD, the lucene scorer (bm25, qld)', async () => {
    await fc.assert(
      fc.asyncProperty(
        corpus,
        fc.array(query, { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 5000 }),
        async (ts, queries, k1, b, mu) => {
          const dir = await build(ts);
          const ref = new BruteForce(createAnalyzer(), texts(ts));
          const N = ts.length;
          const bm25 = await openRetriever(dir, 'bm25');
          const bm25c = await openRetriever(dir, 'bm25', { k1, b });
          const qld = await openRetriever(dir, 'qld', { mu });
          const lucene = await openRetriever(dir, 'qld', { mu, variant: 'lucene' });
          const lbm25 = await openRetriever(dir, 'bm25', { k1, b, scorer: 'lucene' });
          const llmd = await openRetriever(dir, 'qld', { mu, scorer: 'lucene' });
          for (const q of queries) {
            expectMatches(await lbm25.search(q, { k: N }), ref.luceneBm25(q, k1, b), true);
            expectMatches(await llmd.search(q, { k: N }), ref.luceneLmd(q, mu), true);
            expectMatches(await bm25.search(q, { k: N }), ref.bm25(q));
            expectMatches(await bm25c.search(q, { k: N }), ref.bm25(q, k1, b));
            const textbook = await qld.search(q, { k: N });
            expectMatches(textbook, ref.qld(q, mu));
            if (ref.query(q).size) expect(textbook).toHaveLength(N);
            expectMatches(await lucene.search(q, { k: N }), ref.luceneQld(q, mu));
            // A smaller k returns the head of the full ranking.
            const k = Math.max(1, Math.floor(N / 2));
            expect((await qld.search(q, { k })).map((h) => h.score)).toEqual(textbook.slice(0, k).map((h) => h.score));
            for (const r of [bm25, qld, lucene, lbm25, llmd]) {
              const top = (await r.search(q, { k: 1 }))[0];
              if (!top) continue;
              const ex = await r.explain!(q, top.id);
              expect(Math.abs(ex.score - top.score)).toBeLessThan(1e-6);
              expect(Math.abs(ex.terms.reduce((s, t) => s + t.score, 0) - top.score)).toBeLessThan(1e-6);
            }
            // bm25 explainMany (query analysed once) = explain per passage
            const some = (await bm25.search(q, { k: 3 })).map((h) => h.id);
            expect(await bm25.explainMany!(q, some)).toEqual(await Promise.all(some.map((id) => bm25.explain!(q, id))));
          }
        },
      ),
      { numRuns: 40, seed: 20261123 },
    );
  });
});

describe('on real legal text (long posting lists, long bar-exam queries)', () => {
  it('all scorers (the lucene scorer too) equal the reference over 300 passages for 10 real questions', async () => {
    const ts = bundledLines(LEGAL_CORPUS_PASSAGES)
      .slice(2000, 2300)
      .map((l) => (JSON.parse(l) as { text: string }).text);
    const qs = bundledLines(BAREXAM_QA)
      .slice(100, 110)
      .map((l) => {
        const q = JSON.parse(l) as { prompt: string; question: string };
        return `${q.prompt} ${q.question}`;
      });
    const dir = await build(ts);
    const ref = new BruteForce(createAnalyzer(), texts(ts));
    const [bm25, qld, lucene, lbm25, llmd] = await Promise.all([
      openRetriever(dir, 'bm25'),
      openRetriever(dir, 'qld'),
      openRetriever(dir, 'qld', { variant: 'lucene' }),
      openRetriever(dir, 'bm25', { scorer: 'lucene' }),
      openRetriever(dir, 'qld', { scorer: 'lucene', mu: 1000 }),
    ]);
    for (const q of qs) {
      expectMatches(await lbm25.search(q, { k: 300 }), ref.luceneBm25(q), true);
      expectMatches(await llmd.search(q, { k: 300 }), ref.luceneLmd(q, 1000), true);
      expectMatches(await bm25.search(q, { k: 300 }), ref.bm25(q));
      expectMatches(await qld.search(q, { k: 300 }), ref.qld(q));
      expectMatches(await lucene.search(q, { k: 300 }), ref.luceneQld(q));
    }
  });
});
