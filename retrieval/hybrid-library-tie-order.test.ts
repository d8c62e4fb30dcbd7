/**
 * docs/library.md: a hybrid retriever made by createHybridRetriever keeps its own order at a tie —
 * fused score descending, a tie by id ascending (retrieval/fusion.ts) — the reverse of the order
 * `lexcase search --method hybrid` prints (trec_eval's: a tie by id descending).
 */
import { describe, expect, it } from 'vitest';
import { createHybridRetriever } from './hybrid.js';
import type { Retriever } from './types.js';

/** A component that ranks `ids` in that order with distinct scores. */
const component = (method: string, ids: string[]): Retriever => ({
  method,
  async search() {
    return ids.map((id, i) => ({ id, score: ids.length - i, rank: i + 1 }));
  },
});

describe('createHybridRetriever at a fused tie', () => {
  it('returns the lower id first (two components ranking mbe_126 and mbe_2644 the opposite ways: equal RRF scores)', async () => {
    const hybrid = createHybridRetriever([component('bm25', ['mbe_126', 'mbe_2644']), component('qld', ['mbe_2644', 'mbe_126'])]);
    const hits = await hybrid.search('hearsay', { k: 2 });
    expect(hits[0].score).toBe(hits[1].score);
    expect(hits.map((h) => h.id)).toEqual(['mbe_126', 'mbe_2644']);
  });
});
