/**
 * A search option no search reads is refused (INVALID_INPUT naming it, with the option meant), by
 * every method and by the library's openRetriever: before, search(q, { k: 3, withtext: true })
 * returned the hits without their texts, and { kk: 5 } the default k, without a word. Real index:
 * bundled Bar Exam QA gold passages + legal_corpus distractors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallBarexamIndex } from '../tests/support/small-barexam-index.js';
import { openRetriever as openLibraryRetriever } from './open-printed.js';
import { closeSparseIndexes, openRetriever } from './open.js';

const QUERY = 'the court held that the evidence was admissible';
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-search-unknown-'));
  await buildSmallBarexamIndex(join(dir, 'idx'), { items: 2 });
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('search options: a key no search reads is refused', () => {
  it('withtext, kk and approxx are refused by bm25, qld and a hybrid, opened by the library or not; withText still returns the texts', async () => {
    const index = join(dir, 'idx');
    for (const [method, opts] of [
      ['bm25', {}],
      ['qld', {}],
      ['hybrid', { methods: 'bm25,qld' }],
    ] as const) {
      for (const open of [openLibraryRetriever, openRetriever]) {
        const r = await open(index, method, opts);
        await expect(r.search(QUERY, { k: 3, withtext: true } as never), method).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: 'invalid search option "withtext": no search takes it; did you mean "withText"? the options are k, withText, approx',
        });
        await expect(r.search(QUERY, { kk: 5 } as never)).rejects.toThrow(/search option "kk": no search takes it; did you mean "k"\?/);
        await expect(r.search(QUERY, { k: 3, approxx: { postingShare: 0.5 } } as never)).rejects.toThrow(/did you mean "approx"\?/);
        const hits = await r.search(QUERY, { k: 3, withText: true });
        expect(hits).toHaveLength(3);
        for (const h of hits) expect(typeof h.text).toBe('string');
      }
    }
  });
});
