/**
 * RM3 over bm25 and qld (retrieval/rm3.ts) on the bundled Bar Exam QA gold passages: the feedback
 * vectors are the index's own terms of each document, filtered and pruned by Anserini's rules with
 * the named tie rule; the expanded query is a distribution over the original and the feedback terms
 * whose extremes (originalQueryWeight 1 and 0) are the base query and the feedback terms alone;
 * textbook QLD weights feedback documents by their likelihood; bad parameters and other methods are
 * refused. The comparison with Lucene itself (Anserini's algorithm on Lucene's term vectors) is
 * tests/lucene/lucene-reference.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray, tempDir } from '../indexer/build-test-helpers.js';
import { BAREXAM_PASSAGES, BAREXAM_QA, bundledLines } from '../tests/support/bundled-data.js';
import { closeSparseIndexes, openRetriever, openSparseIndex } from './open.js';
import { feedbackVector, type Rm3Retriever } from './rm3.js';
import { withRm3Ties } from './rm3-params.js';
import { batchSearch } from '../eval/trec/batch-search.js';
import type { SparseRetriever } from './sparse-retriever.js';

const tmp = tempDir('lexcase-rm3-');
const dir = `${tmp.dir}/idx`;
const passages = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { id: string; text: string });
const queries = bundledLines(BAREXAM_QA)
  .filter(Boolean)
  .filter((_, i) => i % 40 === 0)
  .map((l) => JSON.parse(l) as { prompt: string; question: string })
  .map((q) => `${q.prompt} ${q.question}`);

beforeAll(async () => {
  await buildIndex(fromArray(passages.map((p) => ({ ...p, source: 'barexam' }))), { out: dir, corpusName: 'barexam', workers: 0 });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

const rm3 = async (method: string, opts: Record<string, unknown> = {}) =>
  (await openRetriever(dir, method, { ...opts, rm3: opts.rm3 ?? true })) as Rm3Retriever;

describe('RM3 feedback vectors', () => {
  it("are the index's terms of each document (their counts add up to its length), filtered and pruned by Anserini's rules", async () => {
    const index = await openSparseIndex(dir);
    let pruned = 0;
    for (let d = 0; d < index.N; d += 37) {
      const tokens = index.analyzer.tokens((await index.docs.at(d)).text);
      expect(tokens.length).toBe(index.doclen[d]);
      const v = feedbackVector(index, tokens, { fbTerms: 10, filterTerms: true });
      expect(v.length).toBeLessThanOrEqual(10);
      const counts = new Map<string, number>();
      for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
      const candidates = [...counts].filter(([t]) => /^[a-z0-9]{2,20}$/.test(t) && index.df[index.termId(t)] / index.N <= 0.1);
      expect(v.length).toBe(Math.min(10, candidates.length));
      if (candidates.length > 10) pruned++;
      for (const [t, c] of v) {
        expect(counts.get(t)).toBe(c);
        expect(t).toMatch(/^[a-z0-9]{2,20}$/);
        expect(index.df[index.termId(t)] / index.N).toBeLessThanOrEqual(0.1);
      }
      // The fbTerms largest counts; equal counts in ascending term order (lexcase's tie rule).
      for (let i = 1; i < v.length; i++) expect(v[i - 1][1] > v[i][1] || (v[i - 1][1] === v[i][1] && v[i - 1][0] < v[i][0])).toBe(true);
      const cut = v.length ? v[v.length - 1] : undefined;
      if (cut) for (const [t, c] of candidates) if (!v.some(([u]) => u === t)) expect(c < cut[1] || (c === cut[1] && t > cut[0])).toBe(true);
    }
    expect(pruned).toBeGreaterThan(10);
  });
});

describe('RM3 expanded queries', () => {
  it('bm25+rm3: the feedback documents are the base top fbDocs; the expansion is a distribution over the query terms and fbTerms feedback terms', async () => {
    const r = await rm3('bm25');
    const base = await openRetriever(dir, 'bm25');
    expect(r.method).toBe('bm25+rm3');
    let newTerms = 0;
    for (const q of queries) {
      const e = await r.expand(q);
      expect(e.feedback.map((d) => d.id)).toEqual((await batchSearch(base, [{ id: 'q', text: q }], { k: 10 })).run.get('q')!.map((d) => d.docid));
      expect(e.feedback.every((d) => d.weight === Math.fround(d.score))).toBe(true);
      const sum = e.terms.reduce((s, t) => s + t.weight, 0);
      expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
      const qTerms = new Set(r.base.index.analyzer.tokens(q));
      for (const t of qTerms)
        expect(e.terms.find((x) => x.term === t)!.weight).toBeGreaterThanOrEqual(Math.fround(0.5 / r.base.index.analyzer.tokens(q).length) - 1e-9);
      const fresh = e.terms.filter((t) => !qTerms.has(t.term));
      expect(fresh.length).toBeLessThanOrEqual(10);
      newTerms += fresh.length;
    }
    expect(newTerms).toBeGreaterThan(queries.length * 3);
  });

  it('originalQueryWeight 1 ranks as the base method (BM25 is linear in the weights); 0 searches the feedback terms alone', async () => {
    const base = await openRetriever(dir, 'bm25');
    const one = await rm3('bm25', { rm3: { originalQueryWeight: 1 } });
    const zero = await rm3('bm25', { rm3: { originalQueryWeight: 0, fbTerms: 5 } });
    let differ = 0;
    for (const q of queries) {
      const n = one.base.index.analyzer.tokens(q).length;
      const b = await base.search(q, { k: 20 });
      const o = await one.search(q, { k: 20 });
      expect(o.map((h) => h.id)).toEqual(b.map((h) => h.id));
      o.forEach((h, i) => expect(h.score).toBeCloseTo(b[i].score / n, 5));
      const z = await zero.expand(q);
      // The query's own terms stay in the expansion with weight 0 (as in Anserini) and are not searched.
      expect(z.terms.filter((t) => t.weight > 0).length).toBe(5);
      expect(z.terms.slice(5).every((t) => t.weight === 0)).toBe(true);
      expect(Math.abs(z.terms.reduce((s, t) => s + t.weight, 0) - 1)).toBeLessThan(1e-5);
      if ((await zero.search(q, { k: 20 })).map((h) => h.id).join() !== b.map((h) => h.id).join()) differ++;
    }
    expect(differ).toBe(queries.length);
  });

  it('textbook qld weighs a feedback document by its likelihood, exp(score − best); lucene-variant qld by its score', async () => {
    const textbook = await rm3('qld');
    expect((textbook.base as SparseRetriever).scoreKind).toBe('log-likelihood');
    const lucene = await rm3('qld', { variant: 'lucene' });
    for (const q of queries.slice(0, 8)) {
      const e = await textbook.expand(q);
      expect(e.feedback[0].weight).toBe(1);
      e.feedback.forEach((d) => {
        expect(d.score).toBeLessThan(0);
        expect(d.weight).toBeCloseTo(Math.exp(d.score - e.feedback[0].score), 6);
      });
      const l = await lucene.expand(q);
      l.feedback.forEach((d) => expect(d.weight).toBe(Math.fround(d.score)));
      expect((await textbook.search(q, { k: 5 })).length).toBe(5);
    }
  });

  it('explain gives the expanded query per term, and the score the search gave', async () => {
    for (const method of ['bm25', 'qld']) {
      const r = await rm3(method, { scorer: 'lucene' });
      const q = queries[3];
      const hits = await r.search(q, { k: 5 });
      const ex = await r.explainMany!(
        q,
        hits.map((h) => h.id),
      );
      ex.forEach((x, i) => {
        expect(x.method).toBe(`${method}+rm3`);
        expect(x.score).toBe(hits[i].score);
        expect((x.detail as { rm3: { terms: unknown[] } }).rm3.terms.length).toBeGreaterThan(r.base.index.analyzer.tokens(q).length / 2);
      });
    }
  });
});

describe('RM3 refuses', () => {
  it('other methods, bad parameters and approximate scoring, naming what is wrong', async () => {
    await expect(openRetriever(dir, 'wink', { rm3: true })).rejects.toThrow(/method "wink" takes no RM3 expansion \(bm25 and qld do\)/);
    await expect(openRetriever(dir, 'hybrid', { rm3: true })).rejects.toThrow(/method "hybrid" takes no RM3 expansion/);
    await expect(openRetriever(dir, 'bm25', { rm3: { fbDocs: 0 } })).rejects.toThrow(/rm3\.fbDocs.*expected an integer in \[1, 10000\], got 0/);
    await expect(openRetriever(dir, 'bm25', { rm3: { originalQueryWeight: 1.5 } })).rejects.toThrow(/rm3\.originalQueryWeight.*\[0, 1\], got 1\.5/);
    await expect(openRetriever(dir, 'qld', { rm3: { fbdocs: 5 } })).rejects.toThrow(
      /unknown field "fbdocs" \(known: fbDocs, fbTerms, originalQueryWeight, filterTerms, ties\)/,
    );
    await expect((await rm3('bm25')).search(queries[0], { approx: { postingShare: 0.5 } })).rejects.toThrow(/method "bm25\+rm3" has no approximate mode/);
  });
});

describe('RM3 feedback documents of tied first-stage scores', () => {
  // Three passages that score alike for "alpha", in the index in the order b, a, c (and filler so
  // "alpha" is in under 10 % of the documents). The feedback documents were the first in the index (b),
  // whatever the run printed: c first (trec_eval: docid descending), or a with --ties anserini.
  const tied = [
    { id: 'b', text: 'alpha bee bee bee' },
    { id: 'a', text: 'alpha ant ant ant' },
    { id: 'c', text: 'alpha cat cat cat' },
    ...Array.from({ length: 30 }, (_, i) => ({ id: `f${String(i).padStart(2, '0')}`, text: `filler${i} common words here` })),
  ];
  const tdir = `${tmp.dir}/tied`;
  const topics = [{ id: 'q1', text: 'alpha' }];
  beforeAll(async () => {
    await buildIndex(fromArray(tied.map((p) => ({ ...p, source: 'toy' }))), { out: tdir, workers: 0 });
  }, 60_000);

  it.each([
    ['none', 'c'],
    ['anserini', 'a'],
  ] as const)('with ties %s they are the first lines of the plain run as printed (%s), and the expansion is theirs', async (ties, first) => {
    const plain = await batchSearch(await openRetriever(tdir, 'bm25'), topics, { k: 3, ties });
    expect(plain.run.get('q1')![0].docid).toBe(first);
    const r = (await openRetriever(tdir, 'bm25', withRm3Ties({ rm3: { fbDocs: 1 } }, ties))) as Rm3Retriever;
    expect(r.params.ties).toBe(ties);
    expect(r.config?.rm3).toMatchObject({ fbDocs: 1, ties });
    const e = await r.expand('alpha');
    expect(e.feedback.map((d) => d.id)).toEqual([first]);
    const name = { a: 'ant', b: 'bee', c: 'cat' }[first];
    expect(e.terms.map((t) => t.term)).toContain(name);
    // the expanded run ranks the feedback document first
    expect((await batchSearch(r, topics, { k: 3, ties })).run.get('q1')![0].docid).toBe(first);
  });

  it('rm3.ties other than none | anserini is refused, naming the field', async () => {
    await expect(openRetriever(tdir, 'bm25', { rm3: { ties: 'lucene' } })).rejects.toThrow(/rm3\.ties.*expected one of none, anserini, got "lucene"/);
  });
});
