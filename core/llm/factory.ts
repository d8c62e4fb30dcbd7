/**
 * The one way lexcase makes chat models: `createChatModel(cfg)` returns a ChatOpenAI
 * (@langchain/openai) pointed at any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp
 * server, ...) with a response cache, retries with backoff, a concurrency limit and token
 * accounting wrapped around it (see chat-openai.ts). Tests point it at the scripted local server
 * in tests/support, or use the fake chat model there.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import pLimit from 'p-limit';
import { llmConfigured, type LlmConfig } from '../config.js';
import { errors } from '../errors.js';
import { registerSecret } from '../log.js';
import { registerUrlSecrets } from '../url-credentials.js';
import { LexcaseChatOpenAI, type LlmStats } from './chat-openai.js';
import { DiskCache } from './disk-cache.js';
import { clientEndpoint, endpointIdentity } from './endpoint.js';
import { strictFor } from './providers.js';
import type { UsageMeter } from './usage.js';

/** Throw LLM_NOT_CONFIGURED (with how to configure one) unless an endpoint and model are set. */
export function requireLlm(cfg: LlmConfig): void {
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

export function createChatModel(cfg: LlmConfig, opts: CreateChatModelOptions = {}): BaseChatModel {
  requireLlm(cfg);
  registerSecret(cfg.apiKey);
  registerUrlSecrets(cfg.baseUrl);
  const stats: LlmStats = { requests: 0, retries: 0, cacheHits: 0, maxInFlight: 0, inFlight: 0 };
  const { strict, strictTools: presetTools } = strictFor(cfg);
  const strictTools = opts.strictTools ?? presetTools;
  return new LexcaseChatOpenAI(
    {
      model: cfg.model!,
      // Local servers need no key, but the client insists on one.
      apiKey: cfg.apiKey ?? 'no-key',
      temperature: cfg.temperature,
      ...(cfg.maxTokens !== undefined ? { maxTokens: cfg.maxTokens } : {}),
      ...(cfg.topP !== undefined ? { topP: cfg.topP } : {}),
      timeout: cfg.timeoutMs,
      configuration: clientEndpoint(cfg.baseUrl),
      ...(strictTools ? { supportsStrictToolCalling: true } : {}),
    },
    {
      usage: opts.usage,
      cache: cfg.cacheDir && !opts.replayFrom ? new DiskCache(cfg.cacheDir) : undefined,
      endpoint: endpointIdentity(cfg),
      limit: pLimit(cfg.concurrency),
      retry: { maxRetries: cfg.maxRetries, baseMs: cfg.retryBaseMs, maxMs: cfg.retryMaxMs },
      stats,
      structuredOutput: cfg.structuredOutput ?? 'json_schema',
      strict,
      strictTools,
      ...(opts.replayFrom ? { replayFrom: opts.replayFrom } : {}),
    },
  );
}

/** The recorded run a factory model replays (undefined for a live model or another model). */
export function replaySourceOf(model: unknown): string | undefined {
  return model instanceof LexcaseChatOpenAI ? model.lexcase.replayFrom : undefined;
}

/** The settings of a factory model a recording keeps (what the replay model is made with). */
export function recordedModelSettings(model: unknown): Record<string, unknown> | undefined {
  if (!(model instanceof LexcaseChatOpenAI)) return undefined;
  const m = model as LexcaseChatOpenAI & { topP?: number; maxTokens?: number };
  return JSON.parse(
    JSON.stringify({ model: m.model, temperature: m.temperature, topP: m.topP, maxTokens: m.maxTokens === -1 ? undefined : m.maxTokens, structuredOutput: m.lexcase.structuredOutput, strict: m.lexcase.strict, strictTools: m.supportsStrictToolCalling === true }),
  ) as Record<string, unknown>;
}

/** Request/retry/cache counters of a factory-made model (undefined for other models). */
export function llmStats(model: unknown): LlmStats | undefined {
  return model instanceof LexcaseChatOpenAI ? { ...model.lexcase.stats } : undefined;
}
