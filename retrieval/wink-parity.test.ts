/**
 * Parity with the reference engine: wink-bm25-text-search over the same 300 real passages, with our
 * analyzer as its prep task and the same k1/b, ranks the same top-10 for real bar-exam questions.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray, tempDir } from '../indexer/build-test-helpers.js';
import type { Passage } from '../corpora/types.js';
import { BAREXAM_QA, LEGAL_CORPUS_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import { createWinkRetriever } from './wink.js';
import type { Retriever } from './types.js';

const PASSAGES: Passage[] = bundledLines(LEGAL_CORPUS_PASSAGES)
  .filter(Boolean)
  .slice(1000, 1300)
  .map((l) => JSON.parse(l) as { id: string; text: string })
  .map((r) => ({ id: r.id, text: r.text, source: 'legal_corpus' }));
const QUERIES: string[] = bundledLines(BAREXAM_QA)
  .filter(Boolean)
  .slice(0, 40)
  .map((l) => JSON.parse(l) as { prompt: string; question: string })
  .map((q) => `${q.prompt} ${q.question}`);

const tmp = tempDir('lexcase-wink-');
let ours: Retriever;
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});
beforeAll(async () => {
  await buildIndex(fromArray(PASSAGES), { out: tmp.dir + '/i', corpusName: 'legal_corpus[1000:1300]', workers: 0 });
  ours = await openRetriever(tmp.dir + '/i', 'bm25');
});

it('same top-10 ids and scores (within wink’s 1e-9 rounding per term) as wink-bm25-text-search', async () => {
  expect(PASSAGES).toHaveLength(300);
  for (const [k1, b] of [
    [0.9, 0.4],
    [1.2, 0.75],
  ]) {
    const wink = await createWinkRetriever(PASSAGES, { k1, b });
    const mine = await openRetriever(tmp.dir + '/i', 'bm25', { k1, b });
    for (const q of QUERIES) {
      const a = await mine.search(q, { k: 10 });
      const w = await wink.search(q, { k: 10 });
      expect(a.length).toBe(10);
      expect(w.map((h) => h.id)).toEqual(a.map((h) => h.id));
      w.forEach((h, i) => expect(Math.abs(h.score - a[i].score)).toBeLessThan(1e-6));
    }
  }
  expect(ours.method).toBe('bm25');
});

it('openRetriever(dir, "wink") builds wink from the index’s own doc store and analyzer', async () => {
  const wink = await openRetriever(tmp.dir + '/i', 'wink');
  expect(wink.method).toBe('wink');
  for (const q of QUERIES.slice(0, 5)) expect((await wink.search(q)).map((h) => h.id)).toEqual((await ours.search(q)).map((h) => h.id));
});
