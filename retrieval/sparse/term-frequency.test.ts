/**
 * Explanations read each query term's list once (term-frequency.ts): bm25 and qld explain every
 * passage a query matches — as the offline CASE advocate explains its candidates — with one read of
 * each term's postings, where 59fa04c decoded the list up to the passage for every (term, passage)
 * pair (a positional read of the list each time for an on-disk index). The explanations are exact:
 * over every matching passage of 400 bundled legal passages, each term's tf equals the brute-force
 * count, each explanation's score the brute-force BM25 / QLD score and the search's own score, and a
 * passage without a query term explains to tf 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { createAnalyzer } from '../../indexer/analyzer.js';
import { BruteForce, tempDir } from '../../indexer/build-test-helpers.js';
import { buildIndex } from '../../indexer/build.js';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../../tests/support/bundled-data.js';
import { closeSparseIndexes, openRetriever } from '../open.js';
import { scanTf, termFrequency, termFrequencyStats } from './term-frequency.js';
import { openSparseIndex } from '../open-sparse.js';

/** Posting lists termFrequency read since the last `mark()`. */
let marked = 0;
const mark = () => {
  marked = termFrequencyStats.listReads;
};
const reads = () => termFrequencyStats.listReads - marked;

const passages: Passage[] = bundledLines(LEGAL_CORPUS_PASSAGES)
  .filter(Boolean)
  .slice(0, 400)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'legal_corpus' }));
// A Bar Exam-style question: common and rare terms, one repeated.
const QUERY = 'Is the contract enforceable when the buyer relied on the seller’s promise and the statute of frauds requires a writing?';

const tmp = tempDir('lexcase-tf-');
let dir: string;
beforeAll(async () => {
  dir = `${tmp.dir}/idx`;
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: dir, corpusName: 'tf', workers: 0, segmentPostings: 20_000 },
  );
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('explain reads each list once and is exact', () => {
  const ref = new BruteForce(createAnalyzer(), passages);
  const ids = passages.map((p) => p.id);

  it('bm25: every matching passage explained, tfs and scores equal the brute force and the search', async () => {
    const bm25 = await openRetriever(dir, 'bm25');
    const want = ref.bm25(QUERY);
    const hits = await bm25.search(QUERY, { k: passages.length });
    expect(hits).toHaveLength(want.size);
    expect(want.size).toBeGreaterThan(200);
    const terms = ref.query(QUERY);
    mark();
    const ex = await bm25.explainMany!(QUERY, ids);
    // one read of each query term's list for 400 explanations (59fa04c: one per term per passage)
    expect(reads()).toBe(terms.size);
    const score = new Map(hits.map((h) => [h.id, h.score]));
    ex.forEach((e, i) => {
      const counts = ref.docs[i];
      for (const t of e.terms) expect(t.tf, `${e.id} ${t.term}`).toBe(counts.get(t.term) ?? 0);
      if (!want.has(e.id)) {
        expect(e.score).toBe(0);
        return;
      }
      expect(Math.abs(e.score - want.get(e.id)!)).toBeLessThan(1e-4);
      expect(Math.abs(e.score - score.get(e.id)!)).toBeLessThan(1e-6);
    });
    // explain one at a time: the same explanations, and no list read again
    mark();
    for (const i of [0, 57, 399]) expect(await bm25.explain!(QUERY, ids[i])).toEqual(ex[i]);
    expect(reads()).toBe(0);
  });

  it('qld: every passage explained one at a time, each list read at most once, tfs and scores equal the brute force and the search', async () => {
    const qld = await openRetriever(dir, 'qld');
    const want = ref.qld(QUERY);
    const hits = await qld.search(QUERY, { k: passages.length });
    const score = new Map(hits.map((h) => [h.id, h.score]));
    mark();
    for (const [i, id] of ids.entries()) {
      const e = await qld.explain!(QUERY, id);
      for (const t of e.terms) expect(t.tf, `${id} ${t.term}`).toBe(ref.docs[i].get(t.term) ?? 0);
      expect(Math.abs(e.score - want.get(id)!)).toBeLessThan(1e-4);
      expect(Math.abs(e.score - score.get(id)!)).toBeLessThan(1e-6);
    }
    // 400 explanations one at a time: each query term's list read at most once (none when bm25's explanations above read them)
    expect(reads()).toBeLessThanOrEqual(ref.query(QUERY).size);
  });
});

it('a list too long to cache, scanned a chunk at a time, gives every (term, passage) the tf of the decoded list', async () => {
  const index = await openSparseIndex(dir);
  const { view } = index;
  let pairs = 0;
  for (let t = 0; t < index.df.length; t++) {
    if (index.df[t] < 2) continue; // the long lists: every doc of each list with df ≥ 2, and docs between
    for (let doc = 0; doc < index.N; doc += 7) {
      expect(scanTf(view, t, doc), `term ${t} doc ${doc}`).toBe(termFrequency(view, t, doc));
      pairs++;
    }
  }
  expect(pairs).toBeGreaterThan(10_000);
});
