/**
 * The settings of an embedder spec that change the vectors it makes, beyond the provider, model and
 * dimension (which the embedder's id and dimension carry): the per-text word limit and, for the
 * providers that have them, the query/passage prefixes and the quantized weights. Each is taken
 * with its provider default filled in, so `{use-lite}` and `{use-lite, maxWords: 256}` are the same
 * vectors. Batch sizes, workers, engine, endpoint, timeouts and cache dirs are left out: they change
 * how the vectors are made, not what they are.
 *
 * add-dense.ts resumes or keeps a table only when these match (a table embedded with 256 words is
 * not the vectors of `--max-words 5`).
 */
import { prefixesFor } from './prefixes.js';
import type { EmbedderSpec } from './types.js';

/** use-lite's word limit when the spec sets none (use-lite.ts truncates there). */
export const USE_LITE_DEFAULT_MAX_WORDS = 256;

export type VectorSettings = Record<'maxWords' | 'queryPrefix' | 'passagePrefix' | 'quantized', string | number | boolean>;

/**
 * The settings of `spec` that change the vectors of `provider`/`model`, each with its provider
 * default filled in (maxWords 0: no limit). What an agent or reproduce run records of an index's
 * dense vectors (indexer/manifest.ts `indexContent`).
 */
export function vectorSettings(spec: Partial<EmbedderSpec>, provider: EmbedderSpec['provider'], model: string): VectorSettings {
  const maxWords = spec.maxWords ?? (provider === 'use-lite' ? USE_LITE_DEFAULT_MAX_WORDS : 0);
  if (provider === 'use-lite') return { maxWords, queryPrefix: '', passagePrefix: '', quantized: false };
  const p = prefixesFor(model);
  return {
    maxWords: maxWords > 0 ? maxWords : 0,
    queryPrefix: spec.queryPrefix ?? p.query,
    passagePrefix: spec.passagePrefix ?? p.passage,
    quantized: provider === 'transformers' ? (spec.quantized ?? false) : false,
  };
}

const show = (v: string | number | boolean) => (typeof v === 'string' ? JSON.stringify(v) : v === 0 ? 'unlimited' : String(v));

/** The vector settings in words, for `index info`: "maxWords 5", then any prefix and "quantized" that are set. */
export function describeVectorSettings(v: VectorSettings): string {
  return [
    `maxWords ${show(v.maxWords)}`,
    ...(v.queryPrefix ? [`queryPrefix ${show(v.queryPrefix)}`] : []),
    ...(v.passagePrefix ? [`passagePrefix ${show(v.passagePrefix)}`] : []),
    ...(v.quantized ? ['quantized'] : []),
  ].join(', ');
}

/**
 * How the vectors of `after` differ from those of `before` for one embedder (`provider`, `model`),
 * one entry per setting ("maxWords 256 → 5"); empty when they are the same vectors.
 */
export function vectorSpecChanges(
  before: Partial<EmbedderSpec> | undefined,
  after: Partial<EmbedderSpec>,
  embedder: { provider: EmbedderSpec['provider']; model: string },
): string[] {
  const a = vectorSettings(before ?? {}, embedder.provider, embedder.model);
  const b = vectorSettings(after, embedder.provider, embedder.model);
  return (Object.keys(a) as (keyof VectorSettings)[]).filter((k) => a[k] !== b[k]).map((k) => `${k} ${show(a[k])} → ${show(b[k])}`);
}
