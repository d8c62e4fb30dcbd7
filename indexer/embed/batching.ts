/** Shared helpers for embedders: batching with progress, truncation, L2 normalisation. */
import { errors } from '../../core/errors.js';
import type { EmbedOptions } from './types.js';

/** Run `fn` over consecutive slices of `texts` of at most `batchSize`, reporting cumulative progress. */
export async function inBatches(
  texts: string[],
  batchSize: number,
  opts: EmbedOptions,
  fn: (batch: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += batchSize) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
    const batch = texts.slice(i, i + batchSize);
    const vecs = await fn(batch);
    if (vecs.length !== batch.length) {
      throw errors.embedderUnavailable(`embedder returned ${vecs.length} vectors for ${batch.length} texts`);
    }
    out.push(...vecs);
    opts.onProgress?.(out.length);
  }
  return out;
}

/** Keep the first `maxWords` whitespace-separated words (0 or undefined = unchanged). */
export function truncateWords(text: string, maxWords?: number): string {
  if (!maxWords || maxWords <= 0) return text;
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= maxWords ? text : words.slice(0, maxWords).join(' ');
}

/** The last `n` whitespace-separated words of `text` (all of it when n is 0/undefined or it is shorter). */
export function lastWords(text: string, n?: number): string {
  if (!n || n <= 0) return text;
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= n ? text : words.slice(-n).join(' ');
}

/** L2-normalise in place and return the vector (a zero vector stays zero). */
export function l2normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function toFloat32(values: ArrayLike<number>, expectedDim: number | undefined, context: string): Float32Array {
  if (expectedDim !== undefined && values.length !== expectedDim) throw errors.dimensionMismatch(expectedDim, values.length, context);
  return Float32Array.from(values as ArrayLike<number>);
}
