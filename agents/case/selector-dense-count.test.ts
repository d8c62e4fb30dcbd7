/**
 * CASE's learned evidence selector embeds six signal queries per question (each option's hypothesis,
 * the facts, the question sentence) through the index's dense retriever (`similarities()`): they are
 * feature look-ups, not searches. An item's `denseSearches` (results.jsonl, report.md's "X of Y dense
 * searches were cut") counted them as searches: one advocate search and one question's signals read
 * "1 of 7 dense searches were cut" where the one search was not cut and the cut text was the facts
 * the selector embedded. Now `searches` counts the searches and `similarityQueries` the selector's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCaseIndex, type AgentIndex } from '../../retrieval/open-index.js';
import { countingDenseSearches, denseSearchesCutLine, searchesCutNote } from '../../retrieval/dense-query-cut.js';
import { buildTinyBertIndex, tinyBertPassages } from '../../tests/support/tiny-bert-index.js';
import { exactDense, gatherCandidateSignals } from './evidence-signals.js';

const passages = tinyBertPassages();
// a fact pattern past the tiny BERT fixture's 512 tokens (ten passages' legal English), and a short search
const facts = passages
  .slice(20, 30)
  .map((p) => p.text)
  .join(' ');
const search = 'Is a statement offered for the truth of the matter asserted hearsay?';

let tmp: string;
let idx: AgentIndex;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-selector-count-'));
  await buildTinyBertIndex(join(tmp, 'ix'), passages.slice(0, 20));
  idx = await openCaseIndex(join(tmp, 'ix'), ['bm25', 'qld', 'dense']);
}, 120_000);
afterAll(async () => {
  await idx?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('the dense-search count of an item where the learned selector reads dense signals', () => {
  it('counts the advocate’s searches as searches and the selector’s six signal queries apart, each with its own cut count', async () => {
    const exact = exactDense(idx.retrievers.dense, 0)!;
    const { count } = await countingDenseSearches(async () => {
      await idx.retrievers.dense!.search(search, { k: 5 });
      await gatherCandidateSignals(
        { dense: exact.dense, passageText: async (id) => (await idx.getPassage(id))?.text },
        { facts, question: 'Which is correct?', hypotheses: ['A', 'B', 'C', 'D'], ids: passages.slice(0, 3).map((p) => p.id) },
      );
    });
    // before: { searches: 7, cut: 1 } — the selector's facts query counted as a cut search
    expect(count).toEqual({ searches: 1, cut: 0, provider: 'transformers', maxTokens: 512, similarityQueries: { embedded: 6, cut: 1 } });
    const line = denseSearchesCutLine([count]);
    expect(line?.line).toBe(
      "0 of 1 dense search was cut to the transformers model's 512 tokens (their rest not read); apart from them, 1 of 6 similarity queries (the learned evidence selector's dense signals, not searches) was cut: the selector read their start only",
    );
    expect(line).toMatchObject({ searches: 1, cut: 0, similarityQueries: { embedded: 6, cut: 1 } });
    // lexcase evidence's queryCut: no search was cut; the selector's query was
    expect(searchesCutNote(count)).toBe(
      "1 of 6 similarity queries (the learned evidence selector's dense signals, not searches) was longer than the transformers model's 512 tokens: embedded from their first 512",
    );
  }, 60_000);
});
