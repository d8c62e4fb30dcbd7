import { readFileSync } from 'node:fs';
import { mkdtemp, cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from './create-embedder.js';
import type { Embedder } from './types.js';

const here = dirname(fileURLToPath(import.meta.url));
const modelDir = join(here, '../../tests/fixtures/tiny-embedder/tiny-bert');
const expected = JSON.parse(readFileSync(join(modelDir, 'expected.json'), 'utf8')) as { texts: { text: string; embedding: number[] }[] };

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('transformers embedder on the tiny random-weight BERT fixture (offline)', () => {
  let emb: Embedder;
  beforeAll(async () => {
    emb = await createEmbedder({ provider: 'transformers', modelDir, passagePrefix: '', queryPrefix: '' });
  });

  it('reports id, model and the fixture dimension (32)', () => {
    expect(emb.id).toBe('transformers:tiny-bert');
    expect(emb.dimension).toBe(32);
  });

  it('mean-pools and L2-normalises exactly like the torch reference in expected.json', async () => {
    const vecs = await emb.embed(
      expected.texts.map((t) => t.text),
      { kind: 'passage' },
    );
    expect(vecs).toHaveLength(expected.texts.length);
    vecs.forEach((v, i) => {
      expect(v).toBeInstanceOf(Float32Array);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
      const maxDiff = Math.max(...Array.from(v, (x, j) => Math.abs(x - expected.texts[i].embedding[j])));
      expect(maxDiff).toBeLessThan(1e-4);
    });
  });

  it('gives the same vectors whatever the batch size (padding does not leak into pooling)', async () => {
    const texts = [...expected.texts.map((t) => t.text), 'a short one', 'the defendant moved to suppress the evidence obtained in the search'];
    const progress: number[] = [];
    const small = await createEmbedder({ provider: 'transformers', modelDir, batchSize: 2 });
    const a = await small.embed(texts, { kind: 'passage', onProgress: (n) => progress.push(n) });
    const b = await emb.embed(texts, { kind: 'passage' });
    expect(progress).toEqual([2, 4, 5]);
    a.forEach((v, i) => expect(Math.max(...Array.from(v, (x, j) => Math.abs(x - b[i][j])))).toBeLessThan(1e-5));
  });

  it('applies the query prefix only to queries', async () => {
    const pref = await createEmbedder({ provider: 'transformers', modelDir, queryPrefix: 'hearsay hearsay ' });
    const [q] = await pref.embed(['the contract was void'], { kind: 'query' });
    const [p] = await pref.embed(['the contract was void'], { kind: 'passage' });
    const [plain] = await emb.embed(['the contract was void'], { kind: 'query' });
    expect(dot(p, plain)).toBeCloseTo(1, 5);
    expect(dot(q, plain)).toBeLessThan(0.999);
  });

  it('fails offline with a clear EMBEDDER_UNAVAILABLE error that says how to get a missing model', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'lexcase-nomodel-'));
    try {
      await expect(createEmbedder({ provider: 'transformers', modelDir: join(empty, 'bge-small-en-v1.5') })).rejects.toMatchObject({
        code: 'EMBEDDER_UNAVAILABLE',
        message: expect.stringMatching(/is missing[\s\S]*huggingface-cli download[\s\S]*--model-dir/),
      });
      // A hub id with remote downloads disabled: the library's own lookup fails, our message explains.
      await expect(createEmbedder({ provider: 'transformers', model: 'Xenova/definitely-not-here', offline: true, cacheDir: empty })).rejects.toMatchObject({
        code: 'EMBEDDER_UNAVAILABLE',
        message: expect.stringMatching(/offline[\s\S]*huggingface-cli/),
      });
      // A folder copied elsewhere loads by its folder name.
      await cp(modelDir, join(empty, 'copy-of-tiny'), { recursive: true });
      const copy = await createEmbedder({ provider: 'transformers', modelDir: join(empty, 'copy-of-tiny') });
      expect(copy.dimension).toBe(32);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
