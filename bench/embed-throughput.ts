/**
 * Embedding throughput per embedder (passages/s), on real legal passages: a seeded sample of the
 * bundled Bar Exam QA gold passages (corpora/data/barexam, ~117 words on average):
 *
 * - transformers on the tiny random-weight fixture (tests/fixtures/tiny-embedder): measures the
 *   pipeline overhead (tokenizer, ONNX session, pooling), not a real model's speed;
 * - use-lite (bundled Universal Sentence Encoder lite), in-thread and with the worker pool,
 *   at the demo's 128-word truncation;
 * - openai / transformers with a real model only when LEXCASE_EMBED_BASE_URL or
 *   LEXCASE_BENCH_MODEL_DIR is set (none of that is reachable here);
 * - issue 31 target 4, in the same run: `openaiLocal` (bench/embed-openai-local.ts: the openai
 *   client against instant local servers, and addDenseIndex end to end) and `useLiteBound`
 *   (bench/use-lite-bound.ts: use-lite's passages/s on 128-word Bar Exam passages beside its
 *   compute bound, the gemm kernel's measured multiply-adds/s ÷ multiply-adds per passage).
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
import { runOpenAiLocalBench } from './embed-openai-local.js';
import { runUseLiteBound } from './use-lite-bound.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), fileURLToPath(import.meta.url).endsWith('.ts') ? '..' : '../..');

export interface EmbedThroughputArgs {
  seed?: number;
  /** Passages timed per embedder (default 96; the tiny fixture uses 20×). */
  passages?: number;
  /** Restrict to these labels ('openai-local' and 'use-lite-bound' name the issue-31 parts). */
  only?: string[];
  /** Passages the openai client embeds per configuration (default 20,000). */
  openaiPassages?: number;
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
    {
      label: 'transformers (tiny fixture, random weights)',
      spec: { provider: 'transformers', modelDir: tiny },
      count: n * 20,
      note: 'pipeline overhead only: 2 layers, hidden 32',
    },
    { label: 'use-lite (in-thread)', spec: { provider: 'use-lite', workers: 0, maxWords: 128 }, count: n, note: 'first 128 words' },
    {
      label: `use-lite (${Math.min(2, availableParallelism())} workers)`,
      spec: { provider: 'use-lite', maxWords: 128 },
      count: n,
      note: 'first 128 words; the demo setting',
    },
  ];
  if (process.env.LEXCASE_BENCH_MODEL_DIR)
    configs.push({
      label: 'transformers (LEXCASE_BENCH_MODEL_DIR)',
      spec: { provider: 'transformers', modelDir: process.env.LEXCASE_BENCH_MODEL_DIR },
      count: n,
      note: process.env.LEXCASE_BENCH_MODEL_DIR,
    });
  if (process.env.LEXCASE_EMBED_BASE_URL)
    configs.push({ label: 'openai-compatible endpoint', spec: { provider: 'openai' }, count: n, note: 'LEXCASE_EMBED_BASE_URL' });

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
      rows.push({
        embedder: c.label,
        id: emb.id,
        dimension: emb.dimension,
        passages: batch.length,
        seconds: Math.round(s * 100) / 100,
        passagesPerS: Math.round((batch.length / s) * 10) / 10,
        loadMs: Math.round(loadMs),
        note: c.note,
      });
    } catch (e) {
      rows.push({ embedder: c.label, error: (e as Error).message.split('\n')[0] });
    }
  }
  const want = (label: string) => !args.only || args.only.some((o) => label.startsWith(o));
  let openaiLocal: Awaited<ReturnType<typeof runOpenAiLocalBench>> | { error: string } | undefined;
  if (want('openai-local')) {
    try {
      openaiLocal = await runOpenAiLocalBench({ passages: args.openaiPassages ?? 20_000 });
    } catch (e) {
      openaiLocal = { error: (e as Error).message.split('\n')[0] };
    }
  }
  let useLiteBound: Awaited<ReturnType<typeof runUseLiteBound>> | { error: string } | undefined;
  if (want('use-lite-bound')) {
    try {
      // 128-word passages: the Bar Exam gold passages of at least 128 words, cut to 128.
      const long = texts.filter((t) => t.split(/\s+/).filter(Boolean).length >= 128);
      useLiteBound = await runUseLiteBound({ texts: long.slice(0, n) });
    } catch (e) {
      useLiteBound = { error: (e as Error).message.split('\n')[0] };
    }
  }
  return { corpus, meanWords: Math.round(meanWords), cores: availableParallelism(), rows, openaiLocal, useLiteBound };
}
