/**
 * Provider presets (`--llm-provider`, `llm.provider`, LEXCASE_LLM_PROVIDER): what each
 * OpenAI-compatible server lexcase is used with supports, so a user names the server instead of
 * tuning five settings. A preset fills the settings the config file and the environment leave
 * unset (an explicit setting always wins):
 *
 *   provider  endpoint                      structured output   strict  tools strict  timeout
 *   openai    https://api.openai.com/v1     json_schema         yes     yes           120 s
 *   vllm      http://localhost:8000/v1      json_schema         yes     no            300 s
 *   ollama    http://localhost:11434/v1     json_schema         no      no            600 s
 *   llamacpp  http://localhost:8080/v1      json_schema         no      no            600 s
 *   generic   (none: set llm.baseUrl)       json_schema         no      no            120 s
 *   local     (none: in-process, llm.modelFile) json_schema       no      no            1800 s
 *
 * `strict`: `strict: true` in response_format.json_schema and in a forced tool's function (OpenAI
 * then guarantees the schema; without it the schema only advises). vLLM accepts the field and
 * enforces every schema by guided decoding anyway; Ollama and llama.cpp ignore it and always
 * enforce the schema through a grammar. `tools strict`: `strict: true` on the search tools of the
 * agent loops (LangChain's supportsStrictToolCalling), which only OpenAI reads — also when a
 * structured request carries them (structured.ts passes it as the `strict` call option, which
 * LangChain would otherwise set for every json_schema request with tools).
 * Usage: all five report `usage.prompt_tokens` / `usage.completion_tokens` on a non-streamed
 * reply, which is what lexcase reads. Local servers get longer timeouts: the first request loads
 * the model (Ollama, llama.cpp) and long CASE advocate contexts take minutes on one GPU.
 * docs/llm.md has the start command of each server.
 * `local` is no server: a GGUF model file run in this process by llama.cpp (node-llama-cpp, an
 * optional dependency; core/llm/local/), which enforces every schema and tool call through a
 * grammar. Its timeout is long: one CPU answers one request at a time.
 */
import type { StructuredOutputMode } from './structured.js';

/** The presets of OpenAI-compatible servers (every provider but `local`). */
export const SERVER_PROVIDERS = ['openai', 'vllm', 'ollama', 'llamacpp', 'generic'] as const;
export const LLM_PROVIDERS = [...SERVER_PROVIDERS, 'local'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export interface ProviderPreset {
  id: LlmProvider;
  /** The server's usual OpenAI-compatible base URL (used when llm.baseUrl is unset). */
  baseUrl?: string;
  structuredOutput: StructuredOutputMode;
  /** Send `strict: true` with json_schema response formats and forced tool calls. */
  strict: boolean;
  /** Send `strict: true` on the function tools of agent loops (search tools). */
  strictTools: boolean;
  timeoutMs: number;
}

export const PROVIDER_PRESETS: Record<LlmProvider, ProviderPreset> = {
  openai: { id: 'openai', baseUrl: 'https://api.openai.com/v1', structuredOutput: 'json_schema', strict: true, strictTools: true, timeoutMs: 120_000 },
  vllm: { id: 'vllm', baseUrl: 'http://localhost:8000/v1', structuredOutput: 'json_schema', strict: true, strictTools: false, timeoutMs: 300_000 },
  ollama: { id: 'ollama', baseUrl: 'http://localhost:11434/v1', structuredOutput: 'json_schema', strict: false, strictTools: false, timeoutMs: 600_000 },
  llamacpp: { id: 'llamacpp', baseUrl: 'http://localhost:8080/v1', structuredOutput: 'json_schema', strict: false, strictTools: false, timeoutMs: 600_000 },
  generic: { id: 'generic', structuredOutput: 'json_schema', strict: false, strictTools: false, timeoutMs: 120_000 },
  local: { id: 'local', structuredOutput: 'json_schema', strict: false, strictTools: false, timeoutMs: 1_800_000 },
};

/** The provider of a config: the one set, else openai for an api.openai.com endpoint, local for a model file without an endpoint, else generic. */
export function providerOf(cfg: { provider?: LlmProvider; baseUrl?: string; modelFile?: string }): LlmProvider {
  if (cfg.provider) return cfg.provider;
  if (cfg.modelFile && !cfg.baseUrl) return 'local';
  try {
    if (cfg.baseUrl && new URL(cfg.baseUrl).hostname === 'api.openai.com') return 'openai';
  } catch {
    /* not a URL: the config schema reports it */
  }
  return 'generic';
}

/** The settings a preset fills: those not set explicitly (`explicit`: config file, environment or a flag such as --endpoint). */
export function applyProviderPreset<
  C extends { provider?: LlmProvider; baseUrl?: string; modelFile?: string; structuredOutput?: StructuredOutputMode; timeoutMs?: number; strict?: boolean },
>(cfg: C, explicit: readonly string[]): C {
  const p = PROVIDER_PRESETS[providerOf(cfg)];
  const out = { ...cfg };
  if (!explicit.includes('baseUrl')) out.baseUrl = p.baseUrl;
  if (!explicit.includes('structuredOutput')) out.structuredOutput = p.structuredOutput;
  if (!explicit.includes('timeoutMs')) out.timeoutMs = p.timeoutMs;
  return out;
}

/** Whether requests of this config carry `strict: true` (llm.strict, else the provider's preset). */
export function strictFor(cfg: { provider?: LlmProvider; baseUrl?: string; strict?: boolean }): { strict: boolean; strictTools: boolean } {
  const p = PROVIDER_PRESETS[providerOf(cfg)];
  return { strict: cfg.strict ?? p.strict, strictTools: cfg.strict ?? p.strictTools };
}
