/**
 * LexcaseRetriever through LangChain.js itself: `invoke` on the BaseRetriever, LangChain callbacks,
 * and a RunnableSequence (retriever → formatDocs → PromptTemplate) over a real index built from the
 * bundled Bar Exam QA passages.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document } from '@langchain/core/documents';
import { PromptTemplate } from '@langchain/core/prompts';
import { BaseRetriever } from '@langchain/core/retrievers';
import { RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { LexcaseRetriever } from './langchain-retriever.js';
import { closeSparseIndexes, openRetriever } from './open.js';

const modelDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'tests/fixtures/tiny-embedder/tiny-bert');
const tmp = tempDir('lexcase-langchain-');
const dir = join(tmp.dir, 'barexam-80');
const passages: Passage[] = [];
const textOf = new Map<string, string>();
const sourceOf = new Map<string, string>();
const question = 'Is an out-of-court statement offered to prove the truth of the matter asserted admissible?';

beforeAll(async () => {
  for await (const p of loadPassages('barexam')) {
    passages.push(p);
    if (passages.length === 80) break;
  }
  for (const p of passages) {
    textOf.set(p.id, p.text);
    sourceOf.set(p.id, p.source);
  }
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld', 'dense'], workers: 0, dense: { embedder: { provider: 'transformers', modelDir } } });
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('LexcaseRetriever (LangChain BaseRetriever)', () => {
  it.each([['bm25'], ['qld'], ['dense'], ['hybrid']] as const)(
    '%s: invoke() returns Documents with the passage text and {id, source, score, rank, method}, in lexcase order',
    async (method) => {
      const retriever = new LexcaseRetriever({ index: dir, method, k: 4, options: method === 'hybrid' ? { methods: 'bm25,dense' } : {} });
      expect(retriever).toBeInstanceOf(BaseRetriever);
      const docs = await retriever.invoke(question);
      const want = await (await openRetriever(dir, method, method === 'hybrid' ? { methods: 'bm25,dense' } : {})).search(question, { k: 4 });
      expect(docs).toHaveLength(4);
      expect(docs.map((d) => d.metadata)).toEqual(want.map((h) => ({ id: h.id, source: sourceOf.get(h.id), score: h.score, rank: h.rank, method })));
      for (const d of docs) expect(d.pageContent).toBe(textOf.get(d.metadata.id));
    },
  );

  it('bm25 puts the hearsay passages on top for a hearsay question', async () => {
    const docs = await new LexcaseRetriever({ index: dir, k: 3 }).invoke(question);
    expect(docs[0].pageContent.toLowerCase()).toMatch(/hearsay|truth of the matter/);
  });

  it.each([['bm25'], ['qld']] as const)(
    '%s with the rm3 option: metadata.method is "<method>+rm3", as openRetriever and the CLI label that ranking',
    async (method) => {
      const docs = await new LexcaseRetriever({ index: dir, method, k: 3, options: { rm3: true } }).invoke(question);
      const want = await (await openRetriever(dir, method, { rm3: true })).search(question, { k: 3 });
      expect(docs.map((d) => [d.metadata.id, d.metadata.method])).toEqual(want.map((h) => [h.id, `${method}+rm3`]));
    },
  );

  it('fires LangChain retriever callbacks with the documents it returns', async () => {
    const seen: { query?: string; docs?: Document[] } = {};
    const retriever = new LexcaseRetriever({ index: dir, method: 'qld', k: 2 });
    const docs = await retriever.invoke('adverse possession', {
      callbacks: [{ handleRetrieverStart: (_s: unknown, q: string) => void (seen.query = q), handleRetrieverEnd: (d: Document[]) => void (seen.docs = d) }],
    });
    expect(seen.query).toBe('adverse possession');
    expect(seen.docs?.map((d) => d.metadata.id)).toEqual(docs.map((d) => d.metadata.id));
  });

  it('plugs into a chain: RunnableSequence of retriever.pipe(formatDocs) and a PromptTemplate', async () => {
    const retriever = new LexcaseRetriever({ index: dir, method: 'bm25', k: 2 });
    const formatDocs = (docs: Document[]) => docs.map((d) => `[${d.metadata.id}] ${d.pageContent}`).join('\n\n');
    const chain = RunnableSequence.from([
      { context: retriever.pipe(formatDocs), question: new RunnablePassthrough() },
      PromptTemplate.fromTemplate('Answer from the passages.\n\n{context}\n\nQuestion: {question}'),
    ]);
    const prompt = (await chain.invoke(question)).toString();
    const top = await retriever.invoke(question);
    expect(prompt).toContain(`[${top[0].metadata.id}] ${top[0].pageContent}`);
    expect(prompt).toContain(`[${top[1].metadata.id}] ${top[1].pageContent}`);
    expect(prompt.endsWith(`Question: ${question}`)).toBe(true);
  });

  it('wraps an opened Retriever as well, and rejects a mismatched method and a bad k', async () => {
    const qld = await openRetriever(dir, 'qld');
    const docs = await new LexcaseRetriever({ index: qld, k: 1 }).invoke('easement');
    expect(docs[0].metadata.method).toBe('qld');
    expect(() => new LexcaseRetriever({ index: qld, method: 'bm25' })).toThrow(/"qld", not "bm25"/);
    expect(() => new LexcaseRetriever({ index: dir, k: 0 })).toThrow(/k.*positive integer/);
  });

  it('an index without the method rejects on invoke with METHOD_UNAVAILABLE', async () => {
    const sparseOnly = join(tmp.dir, 'sparse-only');
    await buildIndex(passages.slice(0, 10), { out: sparseOnly, workers: 0 });
    await expect(new LexcaseRetriever({ index: sparseOnly, method: 'dense' }).invoke('x')).rejects.toMatchObject({ code: 'METHOD_UNAVAILABLE' });
  });
});
