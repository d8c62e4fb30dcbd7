/**
 * The direct forward pass gives the tfjs graph's vectors: on real queries (the Bar Exam QA val
 * questions, as dense retrieval embeds them — the last 24 words — and whole, past the graph's
 * 128-token limit), on default-corpus passages as the index embeds them, and on edge texts, every
 * coordinate within 1e-5 of the tfjs engine's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../core/rng.js';
import { retrievalQuery } from '../../corpora/barexam.js';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { lastWords, truncateWords } from './batching.js';
import { passageEmbedText } from '../dense/add-dense.js';
import { createEmbedder } from './create-embedder.js';
import type { Embedder } from './types.js';
import { loadUseLiteDirect, type UseLiteDirect } from './use-lite-direct.js';
import { loadUseLiteModel, type UseLiteModel } from './use-lite-model.js';

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

describe('use-lite direct forward pass against the tfjs graph', () => {
  let tfjs: UseLiteModel;
  let direct: UseLiteDirect;
  beforeAll(async () => {
    [tfjs, direct] = await Promise.all([loadUseLiteModel('tfjs'), loadUseLiteDirect()]);
  });

  /** Each text's worst coordinate difference, and the texts' token counts. */
  const compare = async (texts: string[]) => {
    const diffs: number[] = [];
    const tokens: number[] = [];
    for (const t of texts) {
      const [ref] = await tfjs.embed([t]);
      const ids = direct.tokenize(t);
      tokens.push(ids.length);
      const got = direct.encode(ids);
      expect(got).toHaveLength(512);
      diffs.push(maxAbsDiff(ref, got));
    }
    return { worst: Math.max(...diffs), tokens };
  };

  it('matches on every val query as dense retrieval embeds it (last 24 words), and on 40 whole ones (past the 128-token limit)', {
    timeout: 180_000,
  }, async () => {
    const queries = (await loadQuestions('barexam', 'val')).map(retrievalQuery);
    expect(queries.length).toBeGreaterThan(100);
    const tails = await compare(queries.map((q) => lastWords(q, 24)));
    expect(tails.worst).toBeLessThanOrEqual(1e-5);
    const whole = await compare(createRng(24).sample(queries, 40));
    expect(whole.worst).toBeLessThanOrEqual(1e-5);
    expect(Math.max(...whole.tokens)).toBeGreaterThan(direct.maxTokens); // clipping is exercised
  });

  it('matches on a seeded sample of default-corpus passages as the index embeds them (128 words)', { timeout: 120_000 }, async () => {
    const texts: string[] = [];
    for await (const p of loadPassages('default')) texts.push(truncateWords(passageEmbedText(p), 128));
    const sample = createRng(16).sample(texts, 30);
    const { worst } = await compare(sample);
    expect(worst).toBeLessThanOrEqual(1e-5);
  });

  it('matches on short and unusual texts: one character, out-of-vocabulary symbols, repeated and non-Latin text', async () => {
    const { worst, tokens } = await compare(['a', '§ 1983 — “Miranda”… ¶¶ 3–4', 'hearsay '.repeat(40), 'Договор купли-продажи 契約法', '\u0000']);
    expect(worst).toBeLessThanOrEqual(1e-5);
    expect(tokens[0]).toBe(1);
  });

  it('gives an empty text the vector tfjs gives it inside a batch (alone, the graph refuses it)', async () => {
    const [empty] = await tfjs.embed(['', 'the court held']);
    expect(maxAbsDiff(empty, direct.encode(direct.tokenize('')))).toBeLessThanOrEqual(1e-5);
    await expect(tfjs.embed([''])).rejects.toThrow();
  });
});

describe('use-lite embedder engines', () => {
  let byDefault: Embedder;
  let reference: Embedder;
  beforeAll(async () => {
    byDefault = await createEmbedder({ provider: 'use-lite', workers: 0 });
    reference = await createEmbedder({ provider: 'use-lite', workers: 0, engine: 'tfjs' });
  });
  afterAll(async () => {
    await byDefault?.close?.();
    await reference?.close?.();
  });

  it('run the direct pass by default and give the tfjs engine’s unit vectors, same id', async () => {
    const texts = ['Is an out-of-court statement offered for its truth admissible?', 'Adverse possession requires open and notorious use.'];
    const [a, b] = [await byDefault.embed(texts, { kind: 'query' }), await reference.embed(texts, { kind: 'query' })];
    expect(byDefault.id).toBe(reference.id);
    a.forEach((v, i) => {
      expect(maxAbsDiff(v, b[i])).toBeLessThanOrEqual(1e-5);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    });
  });

  it('refuses an unknown engine with a usage error', async () => {
    await expect(createEmbedder({ provider: 'use-lite', workers: 0, engine: 'onnx' as never })).rejects.toThrow(/USAGE|unknown use-lite engine/);
  });
});
