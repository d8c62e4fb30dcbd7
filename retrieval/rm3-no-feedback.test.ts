/**
 * RM3 topics that gained no feedback term (retrieval/rm3-no-feedback.ts). Anserini's rule keeps a
 * feedback term only if it is in at most 10 % of the documents; on a toy corpus of 34 passages
 * (tests/support/rm3-filler-corpus.ts), four "filler" passages hold only terms in more than that share, so a topic that finds only them
 * gains no term and its expanded query ranks as bm25 does. Before, `search --topics --rm3` and
 * `eval retrieval --rm3` gave such topics the base figures with no word; now a batch (on the calling
 * thread or on worker threads), a question-set evaluation and one query each name them. A topic
 * with no hit at all is not counted (it has no feedback document); topics that gained a term are not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray, tempDir } from '../indexer/build-test-helpers.js';
import { batchSearch } from '../eval/trec/batch-search.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import type { Question } from '../corpora/types.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import type { Rm3Retriever } from './rm3.js';
import { queryNoFeedbackNote } from './rm3-no-feedback.js';
import { FILLER_PASSAGES, FILLER_TOPICS } from '../tests/support/rm3-filler-corpus.js';

const tmp = tempDir('lexcase-rm3-nofb-');
const dir = `${tmp.dir}/idx`;
// one topic finds only the four filler passages, whose terms are each in more than 10 % of the documents
const topics = [...FILLER_TOPICS.slice(0, 2), { id: 't-none', text: 'nothinghere' }, FILLER_TOPICS[2]];

beforeAll(async () => {
  await buildIndex(fromArray(FILLER_PASSAGES.map((p) => ({ ...p, source: 'toy' }))), { out: dir, corpusName: 'toy', workers: 0 });
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

const NOTE =
  /^1 of 4 topics gained no RM3 feedback term \(e\.g\. t-filler\): every term of the feedback documents is in more than 10% of the documents \(Anserini's rule\)/;

describe('RM3 topics that gained no feedback term', () => {
  it('one query: the expansion says it (feedbackTerms 0), and its ranking is the base method’s', async () => {
    const r = (await openRetriever(dir, 'bm25', { rm3: true })) as Rm3Retriever;
    const e = await r.expand('filler');
    expect(e.feedback.map((d) => d.id).sort()).toEqual(['f0', 'f1', 'f2', 'f3']);
    expect(e.feedbackTerms).toBe(0);
    expect(e.terms.map((t) => t.term)).toEqual(['filler']);
    expect(queryNoFeedbackNote(e)).toMatch(/^the query gained no RM3 feedback term: /);
    const base = await openRetriever(dir, 'bm25');
    expect((await r.search('filler', { k: 10 })).map((h) => h.id)).toEqual((await base.search('filler', { k: 10 })).map((h) => h.id));
    // a topic that gained terms: not said
    const u = await r.expand('shared even');
    expect(u.feedbackTerms).toBeGreaterThan(0);
    expect(queryNoFeedbackNote(u)).toBeUndefined();
    // no hit, so no feedback document: not counted here (the run says the topic got no hit)
    expect(queryNoFeedbackNote(await r.expand('nothinghere'))).toBeUndefined();
  });

  it.each([1, 2])('a batch on %i thread(s) names the topic in rm3NoFeedback; bm25 alone has no such note', async (threads) => {
    const options = { rm3: true };
    const r = await openRetriever(dir, 'bm25', options);
    const b = await batchSearch(r, topics, { k: 10, threads, source: { index: dir, method: 'bm25', retrieverOptions: options } });
    expect(b.threads).toBe(threads);
    expect(b.empty).toEqual(['t-none']);
    expect(b.rm3NoFeedback).toMatch(NOTE);
    const plain = await batchSearch(await openRetriever(dir, 'bm25'), topics, { k: 10, threads, source: { index: dir, method: 'bm25' } });
    expect(plain.rm3NoFeedback).toBeUndefined();
    expect(b.run.get('t-filler')!.map((d) => d.docid)).toEqual(plain.run.get('t-filler')!.map((d) => d.docid));
  });

  it('a question-set evaluation says it in its warnings', async () => {
    const questions = topics.map((t) => ({ id: t.id, prompt: '', question: t.text, choices: ['a', 'b'], answer: 'A', goldPassageIds: ['f0'] }) as Question);
    const r = await openRetriever(dir, 'bm25', { rm3: true });
    const e = await evalRetrieval({ retriever: r, questions, queryOf: (q) => q.question, iterations: 50 });
    expect(e.warnings?.some((w) => /^1 of 4 questions gained no RM3 feedback term \(e\.g\. t-filler\)/.test(w))).toBe(true);
    const plain = await evalRetrieval({ retriever: await openRetriever(dir, 'bm25'), questions, queryOf: (q) => q.question, iterations: 50 });
    expect(plain.warnings ?? []).not.toContainEqual(expect.stringMatching(/RM3 feedback/));
  });
});
