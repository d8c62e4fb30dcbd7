import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from './create-embedder.js';
import type { Embedder } from './types.js';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

const query = 'Is an out-of-court statement offered to prove the truth of the matter asserted admissible?';
const related = [
  'Hearsay is a statement, other than one made by the declarant while testifying at trial, offered in evidence to prove the truth of the matter asserted, and it is generally inadmissible.',
  'A witness may not repeat what another person said outside of court to prove that it is true, unless an exception to the hearsay rule applies.',
];
const unrelated = [
  'Adverse possession requires open, notorious, continuous and hostile possession of land for the statutory period.',
  'The recipe calls for two cups of flour, a pinch of salt and three eggs beaten until fluffy.',
];

describe('use-lite embedder (bundled Universal Sentence Encoder, offline)', () => {
  let emb: Embedder;
  beforeAll(async () => {
    emb = await createEmbedder({ provider: 'use-lite', workers: 1 });
  });
  afterAll(() => emb.close?.());

  it('produces 512-dim unit vectors and ranks related legal sentences above unrelated ones', async () => {
    const [q] = await emb.embed([query], { kind: 'query' });
    const vecs = await emb.embed([...related, ...unrelated], { kind: 'passage' });
    expect(emb.id).toBe('use-lite:universal-sentence-encoder-lite');
    expect(q).toHaveLength(512);
    for (const v of vecs) expect(Math.sqrt(cos(v, v))).toBeCloseTo(1, 4);
    const s = vecs.map((v) => cos(q, v));
    expect(Math.min(s[0], s[1])).toBeGreaterThan(Math.max(s[2], s[3]));
    // hearsay passages agree with each other more than with the recipe
    expect(cos(vecs[0], vecs[1])).toBeGreaterThan(cos(vecs[0], vecs[3]) + 0.2);
  });

  it('gives the same vectors in the worker pool and in-thread, in input order, with progress', async () => {
    const local = await createEmbedder({ provider: 'use-lite', workers: 0, batchSize: 2 });
    const texts = [...related, ...unrelated, query];
    const progress: number[] = [];
    const a = await local.embed(texts, { kind: 'passage', onProgress: (n) => progress.push(n) });
    const b = await emb.embed(texts, { kind: 'passage' });
    expect(progress).toEqual([2, 4, 5]);
    a.forEach((v, i) => expect(cos(v, b[i])).toBeCloseTo(1, 4));
  });
});
