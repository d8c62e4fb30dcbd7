/**
 * `createEmbedder(spec)` — the one factory. Providers load lazily so that using one never imports
 * the others (onnxruntime, tfjs wasm and the OpenAI client are each heavy).
 */
import { errors } from '../../core/errors.js';
import { recordedBaseURL } from './base-url.js';
import { EMBEDDER_PROVIDERS, type Embedder, type EmbedderProvider, type EmbedderSpec } from './types.js';

export function isEmbedderProvider(x: string): x is EmbedderProvider {
  return (EMBEDDER_PROVIDERS as readonly string[]).includes(x);
}

/** `signal` aborts what creating the embedder waits on (the openai embedder's dimension probe). */
export async function createEmbedder(spec: EmbedderSpec, opts: { signal?: AbortSignal } = {}): Promise<Embedder> {
  switch (spec.provider) {
    case 'use-lite':
      return (await import('./use-lite.js')).createUseLiteEmbedder(spec);
    case 'transformers':
      return (await import('./transformers.js')).createTransformersEmbedder(spec);
    case 'openai':
      return (await import('./openai.js')).createOpenAIEmbedder(spec, opts.signal);
    default:
      throw errors.usage(`unknown embedder "${String((spec as { provider: unknown }).provider)}"`, `use one of: ${EMBEDDER_PROVIDERS.join(', ')}`);
  }
}

/** Parse a CLI-ish spec: provider name plus optional model / model dir. */
export function parseEmbedderSpec(provider: string, extra: Omit<EmbedderSpec, 'provider'> = {}): EmbedderSpec {
  if (!isEmbedderProvider(provider)) throw errors.usage(`unknown embedder "${provider}"`, `use one of: ${EMBEDDER_PROVIDERS.join(', ')}`);
  return { provider, ...extra };
}

/**
 * The part of a spec that is safe to record in a manifest (never apiKey, nor the base URL's userinfo
 * and query values: base-url.ts; not use-lite's engine, nor openai's timeout and reply cap: none of
 * them changes the vectors).
 */
export function recordableSpec(spec: EmbedderSpec): Record<string, unknown> {
  const {
    apiKey: _k,
    signal: _s,
    engine: _e,
    timeoutMs: _t,
    maxReplyBytes: _m,
    baseURL: _b,
    baseURLRedacted: _r,
    ...rest
  } = spec as EmbedderSpec & {
    signal?: unknown;
  };
  return JSON.parse(JSON.stringify({ ...rest, ...recordedBaseURL(spec) }));
}
