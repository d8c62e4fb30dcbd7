/**
 * The one way lexcase makes chat models: `createChatModel(cfg)` returns a ChatOpenAI
 * (@langchain/openai) pointed at any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp
 * server, ...) with a response cache, retries with backoff, a concurrency limit and token
 * accounting wrapped around it (see chat-openai.ts). Tests point it at the scripted local server
 * in tests/support, or use the fake chat model there.
 * Provider "local" (core/llm/local/): the same model class, its requests answered in-process by a
 * GGUF model file through llama.cpp instead of an endpoint; its `model` is the file's id
 * ("<name>@sha256:<16 hex>") and every request carries a seed (llm.seed, default 0).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { explicitLlmKeys, llmConfigured, type LlmConfig } from '../config.js';
import { errors } from '../errors.js';
import { registerSentKey } from '../secrets.js';
import { registerUrlSecrets } from '../url-credentials.js';
import { boundedFetch, DEFAULT_MAX_REPLY_BYTES } from './bounded-reply.js';
import { LexcaseChatOpenAI, type LlmStats } from './chat-openai.js';
import { DiskCache } from './disk-cache.js';
import { clientEndpoint, endpointIdentity } from './endpoint.js';
import { providerOf, strictFor } from './providers.js';
import { endpointLimit } from './request-limit.js';
import { serverIdentity } from './server-identity.js';
import { LocalCompletions } from './local/completions.js';
import { localRuntimeIdentity, localSettings, warnUnusedServer, withLocalModel } from './local/settings.js';
import type { UsageMeter } from './usage.js';
import { rememberModelConfig } from './model-record.js';

/** Throw LLM_NOT_CONFIGURED (with how to configure one) unless an endpoint and model are set. */
export function requireLlm(cfg: LlmConfig): void {
  if (providerOf(cfg) === 'local' && !cfg.modelFile) throw errors.localModelFileMissing();
  if (!llmConfigured(cfg)) throw errors.llmNotConfigured();
}

export interface CreateChatModelOptions {
  /** Run-level meter; per-item meters come from withUsageScope (see usage.ts). */
  usage?: UsageMeter;
  /**
   * Replay the run recorded in this run dir (record-replay.ts): the model answers from the
   * recording and never contacts an endpoint (cfg.baseUrl may be anything).
   */
  replayFrom?: string;
  /** Override the preset's `strict` on agent-loop tools (a replay takes the recorded value). */
  strictTools?: boolean;
}

/** Factory models made from loadConfig's own `llm` object: that config, how the model was made and the keys the user set. */
const madeFromLoaded = new WeakMap<object, { cfg: LlmConfig; opts: CreateChatModelOptions; explicit: readonly string[] }>();

/**
 * `model` with a system's published sampling where the user set none: when `model` came from
 * createChatModel(llm) with the `llm` loadConfig returned, `paper(llm, explicit)` gives the config to
 * use (agents/common/paper-settings.ts applyPaperSampling) and an equal model is made from it with the
 * same options; any other model (a CLI-resolved one, which already has the paper's values, a copy's,
 * a model from elsewhere) is returned as given.
 */
export function withPaperDefaults(model: BaseChatModel, paper: (llm: LlmConfig, explicit: readonly string[]) => LlmConfig): BaseChatModel {
  const made = madeFromLoaded.get(model);
  if (!made) return model;
  const llm = paper(made.cfg, made.explicit);
  return JSON.stringify(llm) === JSON.stringify(made.cfg) ? model : createChatModel({ ...llm }, made.opts);
}

export function createChatModel(cfg: LlmConfig, opts: CreateChatModelOptions = {}): BaseChatModel {
  const made = createModel(cfg, opts);
  rememberModelConfig(made, cfg);
  const explicit = explicitLlmKeys(cfg);
  if (explicit) madeFromLoaded.set(made, { cfg: { ...cfg }, opts, explicit });
  return made;
}

function createModel(cfg: LlmConfig, opts: CreateChatModelOptions): BaseChatModel {
  requireLlm(cfg);
  // a replay of a local run answers from its recording: no model file is needed
  const local = providerOf(cfg) === 'local' && !opts.replayFrom;
  if (local) {
    const given = cfg;
    cfg = withLocalModel(cfg);
    warnUnusedServer(given, cfg);
  }
  registerSentKey(cfg.apiKey);
  registerUrlSecrets(cfg.baseUrl);
  const stats: LlmStats = { requests: 0, retries: 0, cacheHits: 0, maxInFlight: 0, inFlight: 0 };
  const { strict, strictTools: presetTools } = strictFor(cfg);
  const strictTools = opts.strictTools ?? presetTools;
  const fields = {
    model: cfg.model!,
    // Local servers need no key, but the client insists on one.
    apiKey: cfg.apiKey ?? 'no-key',
    temperature: cfg.temperature,
    ...(cfg.maxTokens !== undefined ? { maxTokens: cfg.maxTokens } : {}),
    ...(cfg.topP !== undefined ? { topP: cfg.topP } : {}),
    timeout: cfg.timeoutMs,
    // Every reply's body is counted as it is read, decompressed: past maxReplyBytes the request fails (bounded-reply.ts).
    configuration: { ...clientEndpoint(cfg.baseUrl), fetch: boundedFetch(cfg.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES) },
    ...(strictTools ? { supportsStrictToolCalling: true } : {}),
  };
  const endpoint = endpointIdentity(cfg, local ? localRuntimeIdentity(localSettings(cfg)) : undefined);
  const model = new LexcaseChatOpenAI(
    local
      ? ({ ...fields, completions: new LocalCompletions({ ...fields, maxRetries: 0, disableStreaming: true }, localSettings(cfg)) } as typeof fields)
      : fields,
    {
      usage: opts.usage,
      cache: cfg.cacheDir && !opts.replayFrom ? new DiskCache(cfg.cacheDir) : undefined,
      endpoint,
      // what the server says about the model (GET /models, once per process unless heard again): a swapped model behind the
      // same name misses the cache; asked with the cache off only where every reply's is recorded (server-identity.ts hearForEveryModel)
      ...(!opts.replayFrom && !local ? { serverIdentity: () => serverIdentity(cfg) } : {}),
      // one limit per endpoint in this process, shared by every model made for it (request-limit.ts)
      limit: endpointLimit(endpoint, cfg.concurrency),
      retry: { maxRetries: cfg.maxRetries, baseMs: cfg.retryBaseMs, maxMs: cfg.retryMaxMs },
      stats,
      structuredOutput: cfg.structuredOutput ?? 'json_schema',
      strict,
      strictTools,
      ...(opts.replayFrom ? { replayFrom: opts.replayFrom } : {}),
    },
  );
  // llm.seed goes with every request that sets none (a call's own seed, e.g. MAD's per debater, wins)
  return (cfg.seed !== undefined ? model.withConfig({ seed: cfg.seed }) : model) as unknown as BaseChatModel;
}

/** The recorded run a factory model replays (undefined for a live model or another model). */
export function replaySourceOf(model: unknown): string | undefined {
  return model instanceof LexcaseChatOpenAI ? model.lexcase.replayFrom : undefined;
}

/** The settings of a factory model a recording keeps (what the replay model is made with). */
export function recordedModelSettings(model: unknown): Record<string, unknown> | undefined {
  if (!(model instanceof LexcaseChatOpenAI)) return undefined;
  const m = model as LexcaseChatOpenAI & { topP?: number; maxTokens?: number; defaultOptions?: { seed?: number } };
  return JSON.parse(
    JSON.stringify({
      model: m.model,
      temperature: m.temperature,
      topP: m.topP,
      maxTokens: m.maxTokens === -1 ? undefined : m.maxTokens,
      seed: m.defaultOptions?.seed,
      structuredOutput: m.lexcase.structuredOutput,
      strict: m.lexcase.strict,
      strictTools: m.supportsStrictToolCalling === true,
    }),
  ) as Record<string, unknown>;
}

/**
 * The temperature a chat model samples at, as the model holds it (a factory model, also through a
 * bound copy such as its `withConfig({ seed })`; any model with a numeric `temperature`), else undefined.
 */
export function modelTemperature(model: unknown): number | undefined {
  for (let m = model as { temperature?: unknown; bound?: unknown } | undefined, i = 0; m && i < 5; m = m.bound as typeof m, i++)
    if (typeof m.temperature === 'number') return m.temperature;
  return undefined;
}

/** Request/retry/cache counters of a factory-made model (undefined for other models). */
export function llmStats(model: unknown): LlmStats | undefined {
  return model instanceof LexcaseChatOpenAI ? { ...model.lexcase.stats } : undefined;
}
