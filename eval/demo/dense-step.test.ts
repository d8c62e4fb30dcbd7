import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndexStep } from './build-index-step.js';
import { denseStep, DEMO_DENSE_SPEC } from './dense-step.js';
import { retrievalEvalStep } from './retrieval-eval-step.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { DEMO_STEPS } from '../../src/demo/steps.js';
import { openRetriever } from '../../retrieval/open.js';
import { openDocStore } from '../../indexer/docstore.js';
import { CORPORA } from '../../corpora/registry.js';

const modelDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'tests/fixtures/tiny-embedder/tiny-bert');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('demo dense step', () => {
  it('is in the default demo, uses the offline use-lite embedder, and runs before the retrieval table', () => {
    const names = DEMO_STEPS.map((s) => s.name);
    expect(names.indexOf('dense')).toBeGreaterThan(names.indexOf('build-index'));
    expect(names.indexOf('dense')).toBeLessThan(names.indexOf('retrieval-eval'));
    expect(DEMO_DENSE_SPEC.provider).toBe('use-lite');
  });

  it('adds a dense index to the demo index once and puts dense and hybrid rows in the Recall@k table', { timeout: 300_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-demo-dense-'));
    dirs.push(dir);
    const steps = [buildIndexStep, denseStep, retrievalEvalStep];
    const said: string[] = [];
    // The tiny random-weight model stands in for use-lite to keep this fast; its dense recall is near chance.
    const opts = {
      dir,
      corpus: 'barexam',
      iterations: 50,
      steps,
      denseOptions: { embedder: { provider: 'transformers' as const, modelDir } },
      say: (l: string) => said.push(l),
    };
    const first = await runDemo(opts);
    expect(said.join('\n')).toMatch(/embedding 1,149 passages with transformers/);
    expect(first.markdown).toMatch(/\| dense +\| \d\.\d{3} \[/);
    expect(first.markdown).toMatch(/\| hybrid +\| \d\.\d{3} \[/);
    const results = (first.json.retrieval as { results: Array<{ method: string; metrics: Record<string, { estimate: number }> }> }).results;
    expect(results.map((r) => r.method)).toEqual(['bm25', 'qld', 'dense', 'hybrid']);
    // Every gold passage is among the 1,149: RRF(bm25, dense) over depth 1000 keeps bm25's hits.
    expect(results[3].metrics['recall@1000'].estimate).toBeGreaterThan(0.9);
    expect(first.json.dense).toMatchObject({ embedder: 'transformers:tiny-bert', dimension: 32, rows: 1149, built: true });
    said.length = 0;
    const again = await runDemo({ ...opts, steps: [buildIndexStep, denseStep] });
    expect(said.join('\n')).toMatch(/reusing the dense \(transformers:tiny-bert\) index/);
    expect(again.json.dense).toMatchObject({ built: false });
  });

  it('loads the shipped use-lite vectors for the default corpus instead of embedding, and dense search finds a passage by its own text', {
    timeout: 300_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-demo-prebuilt-'));
    dirs.push(dir);
    const said: string[] = [];
    const t0 = performance.now();
    const r = await runDemo({ dir, corpus: 'default', steps: [buildIndexStep, denseStep], say: (l: string) => said.push(l) });
    const seconds = (performance.now() - t0) / 1000;
    expect(said.join('\n')).toMatch(/loaded from the prebuilt use-lite vectors \(default-use-lite\)/);
    expect(said.join('\n')).not.toMatch(/embedding [\d,]+ passages/);
    expect(r.json.dense).toMatchObject({
      embedder: 'use-lite:universal-sentence-encoder-lite',
      dimension: 512,
      rows: CORPORA.default.passages,
      built: true,
      source: 'prebuilt (default-use-lite)',
    });
    expect(seconds).toBeLessThan(120); // embedding would take minutes on 2 cores
    const dense = await openRetriever(join(dir, 'index'), 'dense');
    const docs = await openDocStore(join(dir, 'index'));
    const p = await docs.get('mbe_0');
    await docs.close();
    expect(p).toBeDefined();
    // the passage embedded now by the installed model finds its shipped vector (cosine ≈ 1)
    const d = dense as unknown as {
      embedder: { embed(t: string[], o: { kind: 'passage' }): Promise<Float32Array[]> };
      searchVector(v: Float32Array, o: { k: number }): Promise<{ id: string; score: number }[]>;
    };
    const [v] = await d.embedder.embed([p!.text], { kind: 'passage' });
    const hits = await d.searchVector(v, { k: 3 });
    expect(hits[0].id).toBe(p!.id);
    expect(hits[0].score).toBeGreaterThan(0.99999);
    await (dense as { close?: () => Promise<void> }).close?.();

    // use-lite queries: the whole query by default (its sentences, retrieval/dense-query.ts); queryWords N: the last N words
    const seen: string[] = [];
    const recording = {
      id: 'use-lite:universal-sentence-encoder-lite',
      provider: 'use-lite' as const,
      model: 'universal-sentence-encoder-lite',
      dimension: 512,
      embed: async (t: string[]) => (seen.push(...t), t.map(() => v)),
    };
    const { openDenseRetriever } = await import('../../retrieval/dense.js');
    const whole = await openDenseRetriever(join(dir, 'index'), { embedder: recording });
    const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
    await whole.search(`${words.slice(0, 20).join(' ')}. ${words.slice(20).join(' ')}`, { k: 1 });
    expect(seen).toEqual([`${words.slice(0, 20).join(' ')}.`, words.slice(20).join(' ')]);
    const tail = await openDenseRetriever(join(dir, 'index'), { embedder: recording, queryWords: 24 });
    await tail.search(words.join(' '), { k: 1 });
    expect(seen[2]).toBe(words.slice(-24).join(' '));

    // the in-memory flat search (default for small flat tables) ranks and scores exactly like LanceDB's flat search
    const mem = await openDenseRetriever(join(dir, 'index'), { embedder: recording });
    const lance = await openDenseRetriever(join(dir, 'index'), { embedder: recording, inMemory: false });
    const picked: { text: string }[] = [];
    const store = await openDocStore(join(dir, 'index'));
    let i = 0;
    for await (const p of store.entries()) if ([3, 2000, 5000].includes(i++)) picked.push(p);
    await store.close();
    expect(picked).toHaveLength(3);
    for (const row of picked) {
      const [qv] = await d.embedder.embed([row.text.split(' ').slice(5, 40).join(' ')], { kind: 'passage' });
      const a = await mem.searchVector(qv, { k: 10 });
      const b = await lance.searchVector(qv, { k: 10 });
      expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
      a.forEach((h, i) => expect(Math.abs(h.score - b[i].score)).toBeLessThan(1e-5));
    }
  });
});
