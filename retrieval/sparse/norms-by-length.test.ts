/**
 * BM25 walked by doc length (walk.wat bm25Len; blocked-taat.ts takes it for every BM25 query but
 * sparseCandidates'): each doc's norm read from a table by its length. A doc longer than a u16 holds keeps the
 * walk by each doc's norm; both equal exhaustive scoring bit for bit.
 */
import { afterAll, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir, texts } from '../../indexer/build-test-helpers.js';
import { queryTerms } from './query-terms.js';
import { closeSparseIndexes, openSparseIndex } from '../open.js';
import { blockedStats } from './blocked-taat.js';
import { scoreTopK } from './score-core.js';
import { LENGTH_TABLE_MAX } from './doc-arrays.js';

const tmp = tempDir('lexcase-bylength-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

// 400 short docs over 60 words, and one long doc of `longest` tokens.
async function corpus(name: string, longest: number) {
  const docs = Array.from({ length: 400 }, (_, i) => Array.from({ length: 3 + (i % 17) }, (_, t) => `w${(i * 7 + t * 13) % 60}`).join(' '));
  docs.push(Array.from({ length: longest }, (_, t) => `w${t % 5}`).join(' '));
  const dir = `${tmp.dir}/${name}`;
  await buildIndex(fromArray(texts(docs)), { out: dir, corpusName: name, workers: 0 });
  return openSparseIndex(dir);
}

it('a doc as long as a u16 holds is walked by length, one token longer by each doc norm: the same top-k as exhaustive scoring either way', async () => {
  for (const [name, longest, byLength] of [
    ['u16', LENGTH_TABLE_MAX, 1],
    ['longer', LENGTH_TABLE_MAX + 1, 0],
  ] as const) {
    const index = await corpus(name, longest);
    expect(Math.max(...index.view.doclen)).toBe(longest);
    for (const q of ['w11 w23 w37', 'w1 w2 w40 w41 w59', 'w3']) {
      const { ids, counts } = queryTerms(index, q);
      for (const k of [1, 10, 401]) {
        const req = { method: 'bm25' as const, k1: 0.9, b: 0.4, ids, counts, k };
        const full = scoreTopK(index.view, req, 'exhaustive');
        const blocked = scoreTopK(index.view, req, 'blocked', 64);
        expect(blockedStats.byLength).toBe(byLength);
        expect(blocked.docs).toEqual(full.docs);
        expect(blocked.scores).toEqual(full.scores);
      }
    }
  }
}, 120_000);
