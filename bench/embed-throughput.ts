/**
 * Embedding throughput per embedder (passages/s), on real legal passages: a seeded sample of the
 * bundled Bar Exam QA gold passages (corpora/data/barexam, ~117 words on average):
 *
 * - transformers on the tiny random-weight fixture (tests/fixtures/tiny-embedder): measures the
 *   pipeline overhead (tokenizer, ONNX session, pooling), not a real model's speed;
 * - use-lite (bundled Universal Sentence Encoder lite), in-thread and with the worker pool,
 *   at the demo's 128-word truncation;
 * - openai / transformers with a real model only when LEXCASE_EMBED_BASE_URL or
 *   LEXCASE_BENCH_MODEL_DIR is set (none of that is reachable here).
 *
 *   runEmbedThroughputBench({ seed: 42, passages: 96 }) → { corpus, rows: [{ embedder, passagesPerS, ... }] }
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { DATA_DIR } from '../corpora/registry.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import type { EmbedderSpec } from '../indexer/embed/types.js';
import { createRng } from '../core/rng.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), fileURLToPath(import.meta.url).endsWith('.ts') ? '..' : '../..');

export interface EmbedThroughputArgs {
  seed?: number;
  /** Passages timed per embedder (default 96; the tiny fixture uses 20×). */
  passages?: number;
  /** Restrict to these labels. */
  only?: string[];
}

function loadTexts(n: number, seed: number): { texts: string[]; corpus: string } {
  const rng = createRng(seed);
  const all = gunzipSync(readFileSync(join(DATA_DIR, 'barexam/passages.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const texts = rng.sample(all, Math.min(n, all.length));
  while (texts.length < n) texts.push(all[rng.int(0, all.length - 1)]);
  return { texts, corpus: `barexam_qa gold passages (random ${n}, seed ${seed})` };
}

export async function runEmbedThroughputBench(args: EmbedThroughputArgs = {}) {
  const seed = args.seed ?? 42;
  const n = args.passages ?? 96;
  const { texts, corpus } = loadTexts(n * 20, seed);
  const meanWords = texts.slice(0, n).reduce((s, t) => s + t.split(/\s+/).length, 0) / n;
  const tiny = join(ROOT, 'tests/fixtures/tiny-embedder/tiny-bert');
  const configs: Array<{ label: string; spec: EmbedderSpec; count: number; note: string }> = [
    { label: 'transformers (tiny fixture, random weights)', spec: { provider: 'transformers', modelDir: tiny }, count: n * 20, note: 'pipeline overhead only: 2 layers, hidden 32' },
    { label: 'use-lite (in-thread)', spec: { provider: 'use-lite', workers: 0, maxWords: 128 }, count: n, note: 'first 128 words' },
    { label: `use-lite (${Math.min(2, availableParallelism())} workers)`, spec: { provider: 'use-lite', maxWords: 128 }, count: n, note: 'first 128 words; the demo setting' },
  ];
  if (process.env.LEXCASE_BENCH_MODEL_DIR) configs.push({ label: 'transformers (LEXCASE_BENCH_MODEL_DIR)', spec: { provider: 'transformers', modelDir: process.env.LEXCASE_BENCH_MODEL_DIR }, count: n, note: process.env.LEXCASE_BENCH_MODEL_DIR });
  if (process.env.LEXCASE_EMBED_BASE_URL) configs.push({ label: 'openai-compatible endpoint', spec: { provider: 'openai' }, count: n, note: 'LEXCASE_EMBED_BASE_URL' });

  const rows = [];
  for (const c of configs) {
    if (args.only && !args.only.some((o) => c.label.startsWith(o))) continue;
    try {
      const t0 = performance.now();
      const emb = await createEmbedder(c.spec);
      await emb.embed(texts.slice(0, 2), { kind: 'passage' }); // warm-up (and worker start)
      const loadMs = performance.now() - t0;
      const batch = texts.slice(0, c.count);
      const t1 = performance.now();
      await emb.embed(batch, { kind: 'passage' });
      const s = (performance.now() - t1) / 1000;
      await emb.close?.();
      rows.push({ embedder: c.label, id: emb.id, dimension: emb.dimension, passages: batch.length, seconds: Math.round(s * 100) / 100, passagesPerS: Math.round((batch.length / s) * 10) / 10, loadMs: Math.round(loadMs), note: c.note });
    } catch (e) {
      rows.push({ embedder: c.label, error: (e as Error).message.split('\n')[0] });
    }
  }
  return { corpus, meanWords: Math.round(meanWords), cores: availableParallelism(), rows };
}
