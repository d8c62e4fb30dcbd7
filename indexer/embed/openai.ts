/**
 * `openai` provider: any OpenAI-compatible /v1/embeddings endpoint (OpenAI, vLLM,
 * text-embeddings-inference, Ollama, LM Studio) — the path to GPUs and to corpora too large to
 * embed on a laptop. Requests go out with Node's fetch and ask for base64 vectors
 * (openai-http.ts says why not LangChain's OpenAIEmbeddings); `concurrency` requests are in
 * flight at once, results in input order (batching.ts inBatches). Configuration: spec fields, else env
 * LEXCASE_EMBED_BASE_URL, LEXCASE_EMBED_MODEL, LEXCASE_EMBED_API_KEY, LEXCASE_EMBED_TIMEOUT_MS (each
 * attempt's deadline, default 120 s; `--embed-timeout`), LEXCASE_EMBED_MAX_REPLY_BYTES (default
 * 128 MiB). The key is registered as a secret so it never reaches a log, and it is never recorded in
 * the index manifest. Every request, the dimension probe included, ends when the caller's signal
 * aborts (Ctrl-C, SIGTERM).
 */
import { envNumber } from '../../core/env-number.js';
import { errors } from '../../core/errors.js';
import { endpointUrl } from '../../core/llm/endpoint.js';
import { redactUrl, registerUrlSecrets } from '../../core/url-credentials.js';
import { registerSentKey } from '../../core/secrets.js';
import { embedBaseURL } from './base-url.js';
import { inBatches, l2normalize, truncateWords } from './batching.js';
import { DEFAULT_EMBED_MAX_REPLY_BYTES, EMBED_REPLY_SETTING, httpStatusOf, inputText, requestEmbeddings, type EncodingFormat } from './openai-http.js';
import { prefixesFor, withPrefix } from './prefixes.js';
import type { EmbedOptions, Embedder, EmbedderSpec } from './types.js';

/** A positive integer from the spec, else from the environment variable `name`, else `fallback`. */
function setting(value: number | undefined, name: string, fallback: number): number {
  if (value !== undefined) return value;
  return envNumber(name, { integer: true, min: 0, aboveMin: true }) ?? fallback;
}

/**
 * The hint on a 413 (Payload Too Large): the endpoint refused a request of `n` passages. A request holds
 * at most --embed-batch passages (and `requestBatch`, the embedder's own cap): half as many; a single
 * passage too large for it: fewer words of each (--max-words).
 */
function tooLargeHint(status: number | undefined, n: number, requestBatch: number): string | undefined {
  if (status !== 413) return undefined;
  if (n > 1)
    return `the endpoint refused a request of ${n} passages as too large: pass a smaller --embed-batch, e.g. --embed-batch ${Math.floor(n / 2)} (a request holds at most --embed-batch and ${requestBatch} passages), or fewer words of each with --max-words`;
  return 'the endpoint refused one text as too large: embed fewer words of each passage with --max-words, or raise the request size limit of the server';
}

/** `signal` aborts the dimension probe (the one request made here). */
export async function createOpenAIEmbedder(spec: EmbedderSpec, signal?: AbortSignal): Promise<Embedder> {
  const base = embedBaseURL(spec);
  const named = !!(spec.baseURL || spec.baseURLRedacted || process.env.LEXCASE_EMBED_BASE_URL);
  const model = spec.model ?? process.env.LEXCASE_EMBED_MODEL;
  const apiKey = spec.apiKey ?? process.env.LEXCASE_EMBED_API_KEY ?? (named ? 'not-needed' : undefined);
  if (!model) {
    throw errors.embedderUnavailable(
      'the openai embedder needs a model',
      'pass --model NAME or set LEXCASE_EMBED_MODEL (and LEXCASE_EMBED_BASE_URL for a non-OpenAI server)',
    );
  }
  if (!apiKey) {
    throw errors.embedderUnavailable(
      'the openai embedder needs an endpoint or an API key',
      'set LEXCASE_EMBED_BASE_URL (any OpenAI-compatible server) and/or LEXCASE_EMBED_API_KEY',
    );
  }
  registerSentKey(spec.apiKey ?? process.env.LEXCASE_EMBED_API_KEY); // the user's key, whatever its length (core/secrets.ts); the placeholder lexcase sends to a local server is no secret
  const timeoutMs = setting(spec.timeoutMs, 'LEXCASE_EMBED_TIMEOUT_MS', 120_000);
  const maxReplyBytes = setting(spec.maxReplyBytes, EMBED_REPLY_SETTING, DEFAULT_EMBED_MAX_REPLY_BYTES);
  const batchSize = spec.batchSize ?? 64;
  const concurrency = Math.max(1, spec.concurrency ?? 4);
  // a key may be in the userinfo or the query: masked wherever it would appear, and in the errors here
  registerUrlSecrets(base);
  const where = named ? redactUrl(base) : 'api.openai.com';
  if (URL.canParse(base) && (new URL(base).username || new URL(base).password))
    throw errors.embedderUnavailable(
      `the embedding base URL ${where} carries a user name or password, which a request cannot send in its URL`,
      'give the base URL without them; an API key goes in LEXCASE_EMBED_API_KEY (sent as Authorization: Bearer …)',
    );
  // the path under the base URL, its query kept (`…/v1?api-version=…` → `…/v1/embeddings?api-version=…`)
  const url = endpointUrl(base, '/embeddings');
  // base64 unless the server rejected it once (then float for the rest of this embedder's life).
  const format: { value: EncodingFormat } = { value: 'base64' };
  const prefixes = {
    ...prefixesFor(model),
    ...(spec.queryPrefix !== undefined ? { query: spec.queryPrefix } : {}),
    ...(spec.passagePrefix !== undefined ? { passage: spec.passagePrefix } : {}),
  };

  let dimension = spec.dimensions ?? 0;
  // the model names the replies gave, first first (a server embedding with the model it has loaded names it)
  const served: string[] = [];
  const onServed = (name: string) => {
    if (!served.includes(name)) served.push(name);
  };
  // vectors taken in the order they came (replies of several inputs without `index` fields)
  let arrivalOrder = 0;
  const onArrivalOrder = (n: number) => {
    arrivalOrder += n;
  };
  const run = async (batch: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> => {
    let vecs: Float32Array[];
    try {
      vecs = await requestEmbeddings(
        {
          url,
          apiKey,
          model,
          input: batch,
          dimensions: spec.dimensions,
          maxRetries: spec.maxRetries ?? 2,
          timeoutMs,
          maxReplyBytes,
          signal,
          onServed,
          onArrivalOrder,
        },
        format,
      );
    } catch (e) {
      if (signal?.aborted) throw e;
      throw errors.embedderUnavailable(
        `embedding request to ${where} failed: ${(e as Error).message.replace(/^LLM request failed: /, '')}`,
        tooLargeHint(httpStatusOf(e), batch.length, batchSize),
      );
    }
    for (const [i, v] of vecs.entries()) {
      if (!dimension) dimension = v.length;
      // which vector, and the start of the text it stands for (as the reply's other checks name them)
      if (v.length !== dimension)
        throw errors.dimensionMismatch(dimension, v.length, `openai embedder ${model}, the vector for input ${i} of ${batch.length}${inputText(batch[i])}`);
      l2normalize(v);
    }
    return vecs;
  };
  if (!dimension) await run(['dimension'], signal);

  return {
    id: `openai:${model}`,
    provider: 'openai',
    model,
    get dimension() {
      return dimension;
    },
    servedModels: () => served.slice(),
    arrivalOrderVectors: () => arrivalOrder,
    embed(texts: string[], opts: EmbedOptions) {
      const prepared = withPrefix(
        texts.map((t) => truncateWords(t, spec.maxWords)),
        opts.kind,
        prefixes,
      );
      return inBatches(prepared, batchSize, opts, (b) => run(b, opts.signal), concurrency);
    },
  };
}
