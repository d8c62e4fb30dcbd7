/**
 * The OpenAI-compatible embedder's base URL: where its requests go (`embedBaseURL`), what an index
 * manifest records of it (`recordedBaseURL`) and how a caller's base URL replaces a recorded one
 * (`overRecorded`).
 *
 * A base URL with userinfo or a query (`http://me:pw@host/v1`, `…/v1?api-key=…`) may carry a
 * credential: the manifest records it masked as run configs record an LLM endpoint (core/url-credentials.ts
 * `redactUrl`: `http://***:***@host/v1?api-key=***`) and `baseURLRedacted: true`. Such a
 * recorded URL is never requested: the caller gives the whole base URL again (the retriever's
 * `baseURL` option, or LEXCASE_EMBED_BASE_URL), else one EMBEDDER_UNAVAILABLE saying so. A base URL
 * without either is recorded as given and used as recorded.
 */
import { errors } from '../../core/errors.js';
import { PROVIDER_PRESETS } from '../../core/llm/providers.js';
import { redactUrl } from '../../core/url-credentials.js';
import type { EmbedderSpec } from './types.js';

/** Where the openai embedder sends requests when neither the spec nor LEXCASE_EMBED_BASE_URL names a base URL. */
export const OPENAI_DEFAULT_BASE = PROVIDER_PRESETS.openai.baseUrl as string; // the openai preset always names one

/** The base URL requests go to: the spec's (unless recorded redacted), else LEXCASE_EMBED_BASE_URL, else the default. */
export function embedBaseURL(spec: Pick<EmbedderSpec, 'baseURL' | 'baseURLRedacted'>): string {
  const env = process.env.LEXCASE_EMBED_BASE_URL || undefined;
  if (!spec.baseURLRedacted) return spec.baseURL ?? env ?? OPENAI_DEFAULT_BASE;
  if (env) return env;
  throw errors.embedderUnavailable(
    `the index records its embedding endpoint with its userinfo and query values masked, and lexcase sends no request to it as recorded: ${spec.baseURL}`,
    'set LEXCASE_EMBED_BASE_URL to the whole base URL the index was built with (library: the baseURL option of the retriever or embedder spec)',
  );
}

/** What a manifest records of `spec`'s base URL: as given, or redacted with `baseURLRedacted: true`. */
export function recordedBaseURL(spec: Pick<EmbedderSpec, 'baseURL' | 'baseURLRedacted'>): Pick<EmbedderSpec, 'baseURL' | 'baseURLRedacted'> {
  if (spec.baseURL === undefined) return {};
  if (spec.baseURLRedacted) return { baseURL: spec.baseURL, baseURLRedacted: true }; // recorded so before: kept
  const masked = redactUrl(spec.baseURL);
  return masked === spec.baseURL ? { baseURL: masked } : { baseURL: masked, baseURLRedacted: true };
}

/** A recorded spec with a caller's fields over it: a base URL given again replaces a redacted one. */
export function overRecorded(recorded: Partial<EmbedderSpec>, over: Partial<EmbedderSpec> = {}): Partial<EmbedderSpec> {
  const { baseURLRedacted, ...rest } = recorded;
  return { ...rest, ...(baseURLRedacted && over.baseURL === undefined ? { baseURLRedacted } : {}), ...over };
}
