/**
 * A retriever of your own (docs/library.md: any object with `method` and `search`) that returns one
 * passage twice in a ranking — a chunk retriever answering with each matching chunk's document id —
 * is refused with one INVALID_INPUT error naming the retriever, the question, the passage and its two
 * hits. Before, evalRetrieval counted the passage at both ranks: Recall@2 came out 1.5 (a question
 * with one gold passage scored 2.0), nDCG@10 1.315, both past their bound of 1, with exit 0 — and
 * `lexcase eval run` refuses the run file written from the same hits ("listed twice"), as trec_eval
 * does; hybrid fusion added the passage's RRF contribution twice.
 */
import { describe, expect, it } from 'vitest';
import type { Question } from '../corpora/types.js';
import { searchFiltered } from '../retrieval/filtered-search.js';
import { createHybridRetriever } from '../retrieval/hybrid.js';
import { LexcaseRetriever } from '../retrieval/langchain-retriever.js';
import type { Hit, Retriever } from '../retrieval/types.js';
import { evalRetrieval } from './retrieval-eval.js';

/** Chunks of two statutes; the retriever answers with each matching chunk's document id. */
const CHUNKS = [
  { doc: 'fre-801', text: 'hearsay means a statement that the declarant does not make while testifying' },
  { doc: 'fre-801', text: 'a party offers hearsay in evidence to prove the truth of the matter asserted' },
  { doc: 'fre-803', text: 'exceptions to the rule against hearsay regardless of whether the declarant is available' },
];

function chunkRetriever(): Retriever {
  return {
    method: 'my-chunks',
    async search(query: string, o: { k?: number } = {}): Promise<Hit[]> {
      const terms = query.toLowerCase().split(/\W+/).filter(Boolean);
      return CHUNKS.map((c) => ({ id: c.doc, score: terms.filter((t) => c.text.includes(t)).length }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, o.k ?? 10)
        .map((h, i) => ({ ...h, rank: i + 1 }));
    },
  } as Retriever;
}

const question = (id: string, q: string, gold: string[]): Question =>
  ({ id, prompt: '', question: q, choices: {}, answer: 'A', goldPassageIds: gold }) as unknown as Question;

describe('a retriever that returns one passage twice', () => {
  it('is refused by evalRetrieval, naming the retriever, question and passage, never scored past Recall 1', async () => {
    const questions = Array.from({ length: 10 }, (_, i) => question(`q${i}`, 'is the statement hearsay offered to prove the matter asserted', ['fre-801']));
    const run = evalRetrieval({ retriever: chunkRetriever(), questions, ks: [1, 2] });
    await expect(run).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(run).rejects.toThrow(/retriever my-chunks, question "q0": passage "fre-801" is returned twice in one ranking \(hits 1 and \d/);
  });

  it('is refused by hybrid fusion, never fused with its contribution counted twice', async () => {
    const other: Retriever = {
      method: 'other',
      async search() {
        return [{ id: 'fre-803', score: 1, rank: 1 }];
      },
    } as unknown as Retriever;
    const hybrid = createHybridRetriever([chunkRetriever(), other]);
    await expect(hybrid.search('hearsay offered to prove the matter asserted', { k: 3 })).rejects.toThrow(
      /retriever my-chunks: passage "fre-801" is returned twice/,
    );
  });

  it('is refused by the LangChain retriever and a filtered search (/v1, MCP), naming the retriever as evalRetrieval does', async () => {
    const query = 'hearsay offered to prove the matter asserted';
    // both cut through printedRun (retrieval/top-k.ts), which names the retriever; before, their error named no retriever
    await expect(new LexcaseRetriever({ index: chunkRetriever(), k: 2 }).invoke(query)).rejects.toThrow(
      /: retriever my-chunks: passage "fre-801" is returned twice in one ranking \(hits \d and \d/,
    );
    const ids = ['fre-801', 'fre-803'];
    await expect(searchFiltered(chunkRetriever(), query, 1, { size: 2, indexOf: (id) => ids.indexOf(id), keeps: () => true })).rejects.toThrow(
      /: retriever my-chunks: passage "fre-801" is returned twice/,
    );
  });

  it('leaves a ranking of distinct passages as it was', async () => {
    const questions = Array.from({ length: 10 }, (_, i) => question(`q${i}`, 'exceptions regardless available', ['fre-803']));
    const r = await evalRetrieval({ retriever: chunkRetriever(), questions, ks: [1, 2] });
    expect(r.metrics['recall@1'].estimate).toBe(1);
  });
});
