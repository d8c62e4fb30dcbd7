/** Shared helpers for embedders: batching with progress, truncation, L2 normalisation. */
import { errors } from '../../core/errors.js';
import type { EmbedOptions } from './types.js';

/**
 * Run `fn` over consecutive slices of `texts` of at most `batchSize`, reporting cumulative progress
 * (in order). With `concurrency` > 1 up to that many slices are in flight at once (requests to an
 * embedding server), never more: a slow server holds the rest back. Results keep the input order;
 * the first failure is thrown once the slices in flight have settled.
 */
export async function inBatches(
  texts: string[],
  batchSize: number,
  opts: EmbedOptions,
  fn: (batch: string[]) => Promise<Float32Array[]>,
  concurrency = 1,
): Promise<Float32Array[]> {
  const starts: number[] = [];
  for (let i = 0; i < texts.length; i += batchSize) starts.push(i);
  const results: (Float32Array[] | undefined)[] = new Array(starts.length);
  let next = 0;
  let reported = 0;
  let done = 0;
  let failure: unknown;
  const report = () => {
    while (reported < starts.length && results[reported]) {
      done += results[reported]!.length;
      reported++;
      opts.onProgress?.(done);
    }
  };
  const lane = async () => {
    while (next < starts.length && failure === undefined) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
      const b = next++;
      const batch = texts.slice(starts[b], starts[b] + batchSize);
      const vecs = await fn(batch);
      if (vecs.length !== batch.length) {
        throw errors.embedderUnavailable(`embedder returned ${vecs.length} vectors for ${batch.length} texts`);
      }
      results[b] = vecs;
      report();
    }
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, starts.length)) }, () =>
    lane().catch((e: unknown) => {
      failure ??= e;
    }),
  );
  await Promise.all(lanes);
  if (failure !== undefined) throw failure;
  const out: Float32Array[] = [];
  for (const r of results) out.push(...r!);
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
