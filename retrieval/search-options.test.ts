/**
 * Every retriever normalises a search's options the same way, once (search-options.ts): without k
 * it returns SEARCH_K hits (or all it has), a k that is not a non-negative integer is an
 * INVALID_INPUT naming k, approx is refused by methods without an approximate mode, and withText
 * adds the passage text. wink used to skip the k check (k = -1 gave [] and k = 2.5 went to the
 * engine as it was).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray, tempDir, texts } from '../indexer/build-test-helpers.js';
import { isExempt, readSources } from '../tests/support/import-layers.js';
import { SEARCH_K } from './default-k.js';
import { closeSparseIndexes } from './open-sparse.js';
import { openRetriever } from './open.js';
import { createHybridRetriever } from './hybrid.js';
import type { Retriever } from './types.js';
import { createWinkRetriever } from './wink.js';

const TOPICS = ['contract', 'tort', 'property', 'evidence', 'crimes', 'procedure'];
const passages = texts(Array.from({ length: 14 }, (_, i) => `the ${TOPICS[i % 6]} rule on ${TOPICS[(i + 1) % 6]} and a duty of care ${i}`));
const tmp = tempDir('lexcase-search-options-');
const retrievers: Record<string, Retriever> = {};

beforeAll(async () => {
  await buildIndex(fromArray(passages), { out: tmp.dir, corpusName: 'search-options', workers: 0 });
  retrievers.bm25 = await openRetriever(tmp.dir, 'bm25');
  retrievers.qld = await openRetriever(tmp.dir, 'qld');
  retrievers.wink = await createWinkRetriever(passages);
  retrievers.hybrid = createHybridRetriever([retrievers.bm25, retrievers.wink], { fusion: 'rrf' });
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('search options, resolved once for every retriever', () => {
  it('without k: SEARCH_K hits; k = 0: none; a k that is not a non-negative integer: INVALID_INPUT naming k', async () => {
    for (const [method, r] of Object.entries(retrievers)) {
      expect((await r.search('duty of care contract')).length, method).toBe(Math.min(SEARCH_K, passages.length));
      expect(await r.search('duty of care contract', { k: 0 }), method).toEqual([]);
      for (const k of [-1, 2.5, Number.NaN]) {
        await expect(r.search('duty of care contract', { k }), `${method} k=${k}`).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/\bk\b/),
        });
      }
    }
  });

  it('approx is checked by bm25 and qld and refused by the others; withText adds each hit’s text', async () => {
    for (const [method, r] of Object.entries(retrievers)) {
      const approx = r.search('duty of care', { k: 3, approx: { postingShare: 1 } });
      if (method === 'bm25' || method === 'qld') expect((await approx).length, method).toBe(3);
      else await expect(approx, method).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(method) });
      const hits = await r.search('duty of care', { k: 3, withText: true });
      expect(
        hits.map((h) => h.text),
        method,
      ).toEqual(hits.map((h) => passages.find((p) => p.id === h.id)!.text));
    }
  });

  it('no retriever but search-options.ts applies the k default itself (`?? SEARCH_K`)', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const files = [...readSources(root)].filter(([f, text]) => !isExempt(f) && /\?\?\s*SEARCH_K\b/.test(text)).map(([f]) => f);
    expect(files).toEqual(['retrieval/search-options.ts']);
    expect(readFileSync(new URL('./search-options.ts', import.meta.url), 'utf8')).toMatch(/export function resolveSearch/);
  });
});
