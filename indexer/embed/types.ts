/**
 * The embedder seam: every provider (transformers, use-lite, openai) turns texts into unit-length
 * Float32Array vectors of a fixed dimension. `kind` lets a provider add the model's query or
 * passage prefix (bge's search instruction, e5's "query: "/"passage: ").
 */

export type EmbedKind = 'query' | 'passage';

export interface EmbedOptions {
  kind: EmbedKind;
  /** Called with the number of texts finished so far (cumulative) as batches complete. */
  onProgress?(done: number): void;
  signal?: AbortSignal;
}

export interface Embedder {
  /** "provider:model", e.g. "transformers:Xenova/bge-small-en-v1.5" or "use-lite:universal-sentence-encoder-lite". */
  readonly id: string;
  readonly provider: EmbedderProvider;
  readonly model: string;
  readonly dimension: number;
  embed(texts: string[], opts: EmbedOptions): Promise<Float32Array[]>;
  /**
   * The most tokens the model reads of one passage, where the embedder itself sees the tokenizer
   * (transformers: its tokenizer's model_max_length), with a test of whether it reads a passage's
   * text (or, with kind 'query', a query's) before the word limit and prefix, which the test
   * applies, only in part. Absent where
   * lexcase cannot tell (an OpenAI-compatible server) or knows it otherwise (use-lite:
   * model-token-limit.ts).
   */
  readonly tokenLimit?: { maxTokens: number; readsInPart(text: string, kind?: EmbedKind): boolean };
  /**
   * openai: the model names the endpoint's replies gave so far (distinct, first first; the dimension
   * probe at creation is one), where they name one. A server that embeds with the model it has
   * loaded (LM Studio, a proxy) names it whatever was asked for: the index records its passages'
   * names (dense section `servedModels`), and a search whose replies name another says so
   * (retrieval/dense-query-source.ts).
   */
  servedModels?(): readonly string[];
  /**
   * openai: vectors so far that came in replies of several inputs without `index` fields, taken in
   * the order they came (a server that reorders them gives passages each other's vectors, which
   * nothing can see): the index records their count (dense section `vectorsInArrivalOrder`).
   */
  arrivalOrderVectors?(): number;
  /** Release workers / sessions (optional). */
  close?(): Promise<void>;
}

export const EMBEDDER_PROVIDERS = ['use-lite', 'transformers', 'openai'] as const;
export type EmbedderProvider = (typeof EMBEDDER_PROVIDERS)[number];

/** What `createEmbedder` needs; also what the manifest records (minus secrets). */
export interface EmbedderSpec {
  provider: EmbedderProvider;
  /** Model id (provider-specific). transformers: HF id or folder name under modelDir's parent. */
  model?: string;
  /** transformers: a local copy of the model (folder with config.json, tokenizer.json, onnx/). */
  modelDir?: string;
  /** transformers: never fetch from the hub (default when LEXCASE_OFFLINE=1 or modelDir is given). */
  offline?: boolean;
  /** transformers: use onnx/model_quantized.onnx (default false: fp32 onnx/model.onnx). */
  quantized?: boolean;
  /** transformers: where downloaded models are cached. */
  cacheDir?: string;
  /** openai: endpoint (default env LEXCASE_EMBED_BASE_URL); a manifest records it with userinfo and query values masked (base-url.ts). */
  baseURL?: string;
  /** openai, in a recorded spec: `baseURL` was recorded with its userinfo or query values masked, so it must be given again (base-url.ts). */
  baseURLRedacted?: boolean;
  /** openai: API key (default env LEXCASE_EMBED_API_KEY); never recorded or logged. */
  apiKey?: string;
  /** openai: retries per request on connection errors / 429 / 5xx (default 2). */
  maxRetries?: number;
  /** openai: each request attempt's deadline in ms (default env LEXCASE_EMBED_TIMEOUT_MS, else 120000); not recorded. */
  timeoutMs?: number;
  /** openai: most bytes of one reply read, decompressed (default env LEXCASE_EMBED_MAX_REPLY_BYTES, else 128 MiB); not recorded. */
  maxReplyBytes?: number;
  /** openai: requested output dimension (for models that support it). */
  dimensions?: number;
  /** Texts per model call (provider default when absent). */
  batchSize?: number;
  /** openai: requests in flight at once (default 4). */
  concurrency?: number;
  /** Truncate each text to this many whitespace-separated words before embedding (0 = no limit). */
  maxWords?: number;
  /** use-lite: worker threads (default min(2, cores)); 0 = run in this thread. */
  workers?: number;
  /**
   * use-lite: how the model runs — 'direct' (default: the encoder's forward pass in WebAssembly +
   * TypeScript, use-lite-direct.ts) or 'tfjs' (the package's tfjs graph, the reference). Same
   * vectors within 1e-5, so it is not recorded in manifests.
   */
  engine?: 'direct' | 'tfjs';
  /** Override the per-model query/passage prefixes. */
  queryPrefix?: string;
  passagePrefix?: string;
}
