/**
 * BM25 walked by doc length (walk.wat bm25Len; blocked-taat.ts takes it for every BM25 query but
 * sparseCandidates'): each doc's norm read from a table by its length. A doc longer than a u16 holds keeps the
 * walk by each doc's norm; a range whose longest doc is ≤ 255 tokens holds its lengths as u8 (walk.wat
 * bm25Len8), a longer one as u16; all equal exhaustive scoring bit for bit.
 */
import { afterAll, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir, texts } from '../../indexer/build-test-helpers.js';
import { queryTerms } from './query-terms.js';
import { closeSparseIndexes, openSparseIndex } from '../open.js';
import { blockedPruning, blockedStats } from './blocked-taat.js';
import { scoreTopK } from './score-core.js';
import { scoringView } from '../../indexer/sparse/scoring-view.js';
import { LENGTH_TABLE_MAX, LENGTH_U8_MAX } from './doc-arrays.js';

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
    expectBlockedExact(index, byLength);
  }
}, 120_000);

it('a range whose longest doc is 255 tokens walks u8 lengths, 256 u16 (and u8 turned off, or read in place, the same): top-k equal to exhaustive scoring bit for bit', async () => {
  try {
    for (const [name, longest, byLength] of [
      ['u8', LENGTH_U8_MAX, 2],
      ['u16-256', LENGTH_U8_MAX + 1, 1],
    ] as const) {
      const index = await corpus(name, longest);
      expect(Math.max(...index.view.doclen)).toBe(longest);
      expectBlockedExact(index, byLength);
      blockedPruning.lengthsInPlace = true;
      expectBlockedExact(index, byLength);
      blockedPruning.lengthsInPlace = false;
      blockedPruning.u8Lengths = false;
      expectBlockedExact(index, 1);
      blockedPruning.u8Lengths = true;
      // Each half of the range holds its own lengths: the half without the long doc is u8 either way.
      const first = scoringView(index, 0, 200);
      expectBlockedExact(index, 2, first);
      const second = scoringView(index, 200, 401);
      expectBlockedExact(index, byLength, second);
    }
  } finally {
    blockedPruning.u8Lengths = true;
    blockedPruning.lengthsInPlace = false;
  }
}, 120_000);

function expectBlockedExact(index: Awaited<ReturnType<typeof openSparseIndex>>, byLength: number, view = index.view) {
  for (const q of ['w11 w23 w37', 'w1 w2 w40 w41 w59', 'w3', 'w0 w4']) {
    const { ids, counts } = queryTerms(index, q);
    for (const k of [1, 10, 401]) {
      for (const [k1, b] of [
        [0.9, 0.4],
        [1.7, 0.95],
      ]) {
        const req = { method: 'bm25' as const, k1, b, ids, counts, k };
        const full = scoreTopK(view, req, 'exhaustive');
        const blocked = scoreTopK(view, req, 'blocked', 64);
        expect(blockedStats.byLength).toBe(byLength);
        expect(blocked.docs).toEqual(full.docs);
        expect(blocked.scores).toEqual(full.scores);
      }
    }
  }
}
