/**
 * lexcase configuration: an optional `lexcase.config.json` (cwd, or the file given with --config)
 * overlaid by environment variables. Validated with zod; a bad value stops with CONFIG_INVALID
 * naming the file (or the env variable) and the field.
 *
 * Precedence, lowest first: built-in defaults < config file < environment.
 * Nothing is ignored silently: an unknown key at the top of the file or in `llm`, and an unknown
 * `LEXCASE_LLM_*` variable (a typo such as LEXCASE_LLM_TEMPRATURE), stop with CONFIG_INVALID naming it
 * and the closest known name; a number must be written in decimal (`0x10` or a blank value is refused).
 *
 * ```json
 * { "llm": { "baseUrl": "http://localhost:8000/v1", "model": "meta-llama/Llama-3.3-70B-Instruct",
 *            "temperature": 0, "timeoutMs": 60000, "concurrency": 4 } }
 * ```
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { errors } from './errors.js';
import { readRegularFile } from './read-regular.js';
import { log } from './log.js';
import { registerSentKey } from './secrets.js';
import { redactUrl, registerUrlSecrets } from './url-credentials.js';
import { applyProviderPreset, LLM_PROVIDERS, providerOf } from './llm/providers.js';
import { deploymentQueryDigest } from './llm/endpoint.js';
import { DEFAULT_MAX_REPLY_BYTES } from './llm/bounded-reply.js';
import { closestName } from './did-you-mean.js';
import { parseDecimal, parseDecimalInt } from './decimal-number.js';

export const CONFIG_FILE_NAME = 'lexcase.config.json';

/** A cacheDir that turns the response cache off, in LEXCASE_CACHE_DIR and the config file alike. */
const CACHE_OFF = /^(off|false|0|none|no)$/i;

export const llmConfigSchema = z
  .object({
    /**
     * Which server this is (core/llm/providers.ts, docs/llm.md): openai | vllm | ollama | llamacpp |
     * generic, or local (a GGUF model file run in-process: llm.modelFile). Fills baseUrl,
     * structuredOutput, timeoutMs and strict where they are unset. Default: openai for an
     * api.openai.com endpoint, local for a model file without an endpoint, else generic.
     */
    provider: z.enum(LLM_PROVIDERS).optional(),
    /** OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://localhost:8000/v1. */
    baseUrl: z.url().optional(),
    model: z.string().min(1).optional(),
    /** Not needed by most local servers (vLLM, Ollama, llama.cpp). Never logged. */
    apiKey: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).default(0),
    /** Nucleus sampling; left to the server's default when unset. */
    topP: z.number().gt(0).max(1).optional(),
    maxTokens: z.number().int().positive().optional(),
    /** Per request (each retry gets a fresh one); a request that times out is retried like a 5xx. */
    timeoutMs: z.number().int().positive().default(120_000),
    /** Most bytes of one reply read (decompressed); a larger reply fails that request, not the run (core/llm/bounded-reply.ts). */
    maxReplyBytes: z.number().int().positive().default(DEFAULT_MAX_REPLY_BYTES),
    /**
     * How structured outputs (votes, judgements, arguments) are requested: json_schema
     * (response_format, the default), tool (a forced tool call) or prompt (JSON asked for in the
     * prompt only, for servers without either). Validation and one repair retry apply to all three.
     */
    structuredOutput: z.enum(['json_schema', 'tool', 'prompt']).default('json_schema'),
    /** Send `strict: true` with structured-output schemas (and tools); default: the provider's preset. */
    strict: z.boolean().optional(),
    /** Retries after the first attempt on 429, 5xx, timeouts, connection errors and malformed bodies. */
    maxRetries: z.number().int().min(0).max(20).default(4),
    /** First backoff delay; doubles per retry (with jitter), capped at retryMaxMs. */
    retryBaseMs: z.number().int().min(0).default(1000),
    retryMaxMs: z.number().int().min(0).default(30_000),
    /** Most requests in flight at once (per chat model and its bound copies). */
    concurrency: z.number().int().positive().max(256).default(4),
    /**
     * Response cache directory; false disables the cache, and so do "off", "false", "0", "none" and "no" in the config
     * file as in LEXCASE_CACHE_DIR (before 2026-12-05 the file's "off" was a cache folder named off). Default:
     * ~/.cache/lexcase/llm. In the config file a relative path is relative to its folder; in LEXCASE_CACHE_DIR to the working directory.
     */
    cacheDir: z.preprocess((v) => (typeof v === 'string' && CACHE_OFF.test(v.trim()) ? false : v), z.union([z.string().min(1), z.literal(false)])).optional(),
    /** provider "local" (core/llm/local/): the GGUF model file run in-process (in the config file: relative to its folder; in LEXCASE_LLM_MODEL_FILE: to the working directory). */
    modelFile: z.string().min(1).optional(),
    /** Sampling seed, sent with every request that sets none (the local provider's default: 0). */
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    /** provider "local": CPU threads (default: half the logical CPUs, 1 to 8). Results can depend on it: keep it fixed to reproduce a run. */
    threads: z.number().int().positive().max(256).optional(),
    /** provider "local": context window in tokens (default: the model's, at most 8192). */
    contextSize: z.number().int().min(256).optional(),
  })
  .strict();

export type LlmConfig = z.infer<typeof llmConfigSchema>;

export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    llm: llmConfigSchema.partial().strict().optional(),
  })
  // no area reads another top-level section: a misspelt `"LLM": {…}` or a key put beside `llm` was dropped silently
  .strict();

export interface LexcaseConfig {
  llm: LlmConfig;
  /** The config file that was read, if any. */
  file?: string;
  /** Always empty: a top-level key other than `llm` and `$schema` is refused (kept for callers that read it). */
  extra: Record<string, unknown>;
  /** The llm keys the config file or the environment set (the rest are defaults a system may replace with its paper's). */
  explicit?: (keyof LlmConfig)[];
}

/** Default cache dir: $XDG_CACHE_HOME/lexcase/llm or ~/.cache/lexcase/llm. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'lexcase', 'llm');
}

type EnvSpec = { key: keyof LlmConfig; vars: string[]; kind: 'string' | 'number' | 'int' | 'cache' };

const ENV: EnvSpec[] = [
  { key: 'provider', vars: ['LEXCASE_LLM_PROVIDER'], kind: 'string' },
  { key: 'baseUrl', vars: ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL'], kind: 'string' },
  { key: 'model', vars: ['LEXCASE_LLM_MODEL'], kind: 'string' },
  { key: 'apiKey', vars: ['LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY'], kind: 'string' },
  { key: 'temperature', vars: ['LEXCASE_LLM_TEMPERATURE'], kind: 'number' },
  { key: 'maxTokens', vars: ['LEXCASE_LLM_MAX_TOKENS'], kind: 'int' },
  { key: 'topP', vars: ['LEXCASE_LLM_TOP_P'], kind: 'number' },
  { key: 'timeoutMs', vars: ['LEXCASE_LLM_TIMEOUT_MS'], kind: 'int' },
  { key: 'maxReplyBytes', vars: ['LEXCASE_LLM_MAX_REPLY_BYTES'], kind: 'int' },
  { key: 'maxRetries', vars: ['LEXCASE_LLM_MAX_RETRIES'], kind: 'int' },
  { key: 'retryBaseMs', vars: ['LEXCASE_LLM_RETRY_BASE_MS'], kind: 'int' },
  { key: 'concurrency', vars: ['LEXCASE_LLM_CONCURRENCY'], kind: 'int' },
  { key: 'cacheDir', vars: ['LEXCASE_CACHE_DIR'], kind: 'cache' },
  { key: 'structuredOutput', vars: ['LEXCASE_LLM_STRUCTURED_OUTPUT'], kind: 'string' },
  { key: 'modelFile', vars: ['LEXCASE_LLM_MODEL_FILE'], kind: 'string' },
  { key: 'seed', vars: ['LEXCASE_LLM_SEED'], kind: 'int' },
  { key: 'threads', vars: ['LEXCASE_LLM_THREADS'], kind: 'int' },
  { key: 'contextSize', vars: ['LEXCASE_LLM_CONTEXT_SIZE'], kind: 'int' },
];

/** LEXCASE_LLM_* variables read elsewhere (LEXCASE_LLM_PREFLIGHT=0: src/cli/llm-options.ts and reproduce skip the preflight). */
const OTHER_LLM_VARS = ['LEXCASE_LLM_PREFLIGHT'];

/** Every LEXCASE_LLM_* variable lexcase reads. */
export const LLM_ENV_VARS: readonly string[] = [...ENV.flatMap((s) => s.vars.filter((v) => v.startsWith('LEXCASE_LLM_'))), ...OTHER_LLM_VARS];

/** The variable of `spec` that `env` sets (non-empty), the first in its list. */
const setVar = (spec: EnvSpec, env: NodeJS.ProcessEnv): string | undefined => spec.vars.find((v) => env[v] !== undefined && env[v] !== '');

/** The environment variable that sets `key` of the LLM config in `env` ("LEXCASE_LLM_TEMPERATURE"), if one does. */
export function llmEnvVar(key: keyof LlmConfig, env: NodeJS.ProcessEnv): string | undefined {
  const spec = ENV.find((s) => s.key === key);
  return spec && setVar(spec, env);
}

/** The LEXCASE_LLM_* variable `name` was likely meant as: the same name in upper case, or with the LLM_ part left out; undefined for any other name. */
function meantLlmVar(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (!upper.startsWith('LEXCASE_')) return undefined;
  if (upper !== name) return LLM_ENV_VARS.includes(upper) ? upper : meantLlmVar(upper);
  if (upper.startsWith('LEXCASE_LLM_')) return undefined;
  const withLlm = `LEXCASE_LLM_${upper.slice('LEXCASE_'.length)}`;
  return LLM_ENV_VARS.includes(withLlm) ? withLlm : undefined;
}

/**
 * Env values as a partial llm config; names the variable when a value is not a number (decimal: a
 * blank value read as 0, `0x10` as 16), and refuses a LEXCASE_LLM_* variable lexcase does not read
 * (a misspelt LEXCASE_LLM_TEMPRATURE left the run at the default temperature, exit 0).
 */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv): Partial<LlmConfig> {
  const unknown = Object.keys(env)
    .filter((v) => v.startsWith('LEXCASE_LLM_') && env[v] !== undefined && !LLM_ENV_VARS.includes(v))
    .sort();
  // a setting of ours under a name lexcase does not read: the LLM prefix left out (LEXCASE_TEMPERATURE,
  // LEXCASE_SEED) or the name in lower case (lexcase_llm_temperature); before, ignored with exit 0 (helper audit)
  const misplaced = Object.keys(env)
    .filter((v) => env[v] !== undefined && !LLM_ENV_VARS.includes(v) && meantLlmVar(v) !== undefined)
    .sort();
  if (misplaced.length)
    throw errors.configInvalid(
      undefined,
      misplaced[0],
      `lexcase reads no such variable — did you mean ${meantLlmVar(misplaced[0])}? (known: ${LLM_ENV_VARS.join(', ')}); unset it`,
    );
  if (unknown.length) {
    const near = closestName(unknown[0], LLM_ENV_VARS);
    throw errors.configInvalid(
      undefined,
      unknown[0],
      `lexcase reads no such variable${near ? ` — did you mean ${near}?` : ''} (known: ${LLM_ENV_VARS.join(', ')}); unset it`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const spec of ENV) {
    const name = setVar(spec, env);
    if (!name) continue;
    const raw = env[name]!.trim();
    if (spec.kind === 'string') out[spec.key] = raw;
    else if (spec.kind === 'cache') out[spec.key] = CACHE_OFF.test(raw) ? false : raw;
    else {
      const n = spec.kind === 'int' ? parseDecimalInt(raw) : parseDecimal(raw);
      if (!Number.isFinite(n)) throw errors.configInvalid(undefined, name, `expected ${spec.kind === 'int' ? 'an integer' : 'a number'}, got "${raw}"`);
      out[spec.key] = n;
    }
  }
  return out as Partial<LlmConfig>;
}

/** The keys an object of the config file takes: the llm section's, or the top level's. */
const knownKeys = (path: readonly string[]): string[] => (path[0] === 'llm' ? Object.keys(llmConfigSchema.shape) : Object.keys(configFileSchema.shape));

function zodIssueToError(file: string | undefined, prefix: string, issue: z.core.$ZodIssue): Error {
  const path = [prefix, ...issue.path.map(String)].filter(Boolean);
  const field = path.join('.') || '(root)';
  const near = issue.code === 'unrecognized_keys' ? closestName(issue.keys[0], knownKeys(path)) : undefined;
  const message =
    issue.code === 'unrecognized_keys'
      ? `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}${near ? ` — did you mean "${near}"?` : ''} (known: ${knownKeys(path).join(', ')})`
      : issue.message;
  const fieldName = issue.code === 'unrecognized_keys' ? [field, issue.keys[0]].filter((s) => s !== '(root)').join('.') : field;
  return errors.configInvalid(file, fieldName, message);
}

/** Find the config file: the explicit one (must exist) or ./lexcase.config.json if present. */
export function findConfigFile(file?: string, cwd = process.cwd()): string | undefined {
  if (file) {
    const p = resolve(cwd, file);
    if (!existsSync(p)) throw errors.configInvalid(p, '(file)', 'config file not found');
    return p;
  }
  const p = join(cwd, CONFIG_FILE_NAME);
  return existsSync(p) ? p : undefined;
}

/**
 * Load and validate the config. Missing file is fine (defaults + env); an unreadable or invalid
 * file, or a bad env value, throws CONFIG_INVALID naming the file/variable and field.
 */
export async function loadConfig(opts: { file?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<LexcaseConfig> {
  const env = opts.env ?? process.env;
  const file = findConfigFile(opts.file, opts.cwd);
  let fileLlm: Partial<LlmConfig> = {};
  let extra: Record<string, unknown> = {};
  if (file) {
    let json: unknown;
    let text: string;
    try {
      text = await readRegularFile(file); // a FIFO is refused, never waited on
    } catch (e) {
      throw errors.configInvalid(
        file,
        '(file)',
        (e as NodeJS.ErrnoException).code === 'ENOTREGULAR'
          ? 'not a regular file (a FIFO, socket or device): not read'
          : `cannot be read: ${(e as Error).message}`,
      );
    }
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw errors.configInvalid(file, '(file)', `not valid JSON: ${(e as Error).message}`);
    }
    const parsed = configFileSchema.safeParse(json);
    if (!parsed.success) throw zodIssueToError(file, '', parsed.error.issues[0]);
    const { llm, $schema: _schema, ...rest } = parsed.data as { llm?: Partial<LlmConfig>; $schema?: string } & Record<string, unknown>;
    // only the keys the file sets: the parsed section also holds the schema's defaults, and a default
    // counted as set would stop the provider preset and the papers' sampling from filling that key
    const given = (json as { llm?: Record<string, unknown> }).llm ?? {};
    fileLlm = Object.fromEntries(Object.entries(llm ?? {}).filter(([k]) => k in given)) as Partial<LlmConfig>;
    extra = rest;
  }
  const envLlm = llmConfigFromEnv(env);
  // OPENAI_BASE_URL / OPENAI_API_KEY are other tools' variables, read as fallbacks: they fill a key the file
  // leaves unset and never replace the file's — before 2026-12-04 an ambient OPENAI_BASE_URL sent a run the
  // file pointed at server A to another server, and OPENAI_API_KEY went to server A in place of its own key
  for (const key of Object.keys(envLlm) as (keyof LlmConfig)[]) if (key in fileLlm && !llmEnvVar(key, env)?.startsWith('LEXCASE_')) delete envLlm[key];
  const merged = { ...fileLlm, ...envLlm };
  const parsed = llmConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue.path[0] ?? '');
    const spec = ENV.find((s) => s.key === key);
    const fromEnv = key in envLlm && spec;
    if (fromEnv) {
      const name = setVar(spec, env)!;
      throw errors.configInvalid(undefined, name, issue.message);
    }
    throw zodIssueToError(file, 'llm', issue);
  }
  const llm = applyProviderPreset(parsed.data, Object.keys(merged));
  const cwd = opts.cwd ?? process.cwd();
  // a path the file sets is the file's (relative to its folder); one a variable sets, the working directory's
  const base = (key: ConfigPathKey) => (file && !(key in envLlm) ? dirname(file) : cwd);
  if (llm.cacheDir === undefined) llm.cacheDir = defaultCacheDir(env);
  else if (typeof llm.cacheDir === 'string') llm.cacheDir = configPath(file, 'cacheDir', llm.cacheDir, base('cacheDir'), cwd);
  if (llm.modelFile) llm.modelFile = configPath(file, 'modelFile', llm.modelFile, base('modelFile'), cwd);
  registerSentKey(llm.apiKey);
  registerUrlSecrets(llm.baseUrl);
  const explicit = Object.keys(merged) as (keyof LlmConfig)[];
  explicitKeys.set(llm, explicit);
  return { llm, file, extra, explicit };
}

/** The path settings of the `llm` section. */
type ConfigPathKey = 'cacheDir' | 'modelFile';

const warnedPaths = new Set<string>();

/**
 * A path setting made absolute against `base`: the config file's folder for a path the file sets
 * (so `"cacheDir": "cache"` in /proj/lexcase.config.json is /proj/cache from any directory), the
 * working directory for one a variable sets. Until 2026-12 a file's relative path was resolved
 * against the working directory: where that older reading names another path that exists (a cache
 * or model file a run from that directory used), one warning per path says which is used now.
 */
function configPath(file: string | undefined, key: ConfigPathKey, value: string, base: string, cwd: string): string {
  const now = resolve(base, value);
  if (!file || base === cwd || isAbsolute(value)) return now;
  const before = resolve(cwd, value);
  if (before !== now && existsSync(before) && !warnedPaths.has(`${key}\0${before}`)) {
    warnedPaths.add(`${key}\0${before}`);
    log.warn(
      `${file}: llm.${key} "${value}" is read relative to the config file's folder: ${now} — not ${before} (relative to the working directory, as lexcase read it until 2026-12-01, and that path exists); write an absolute path to use that one`,
    );
  }
  return now;
}

/** The keys the config file or environment set, for each `llm` loadConfig returned (not for a copy). */
const explicitKeys = new WeakMap<LlmConfig, readonly (keyof LlmConfig)[]>();

/**
 * The keys of `llm` set explicitly, when it is the very object loadConfig returned (a caller's copy
 * or hand-made config: undefined, nothing known). createChatModel keeps it, so a library caller's
 * model can take a paper's sampling where the user set none (core/llm/factory.ts withPaperDefaults).
 */
export const explicitLlmKeys = (llm: LlmConfig): readonly (keyof LlmConfig)[] | undefined => explicitKeys.get(llm);

/** True when an endpoint and a model are configured (for the local provider: a model file). */
export function llmConfigured(cfg: LlmConfig): boolean {
  if (providerOf(cfg) === 'local') return !!cfg.modelFile;
  return !!cfg.baseUrl && !!cfg.model;
}

/**
 * A copy safe to write into run configs and reports: the API key and any credentials in the endpoint
 * URL replaced by a marker. An endpoint with a query string also gets `baseUrlQuery`, a digest of its
 * query values but those of parameters named like a credential (core/llm/endpoint.ts
 * deploymentQueryDigest: no guessable hash of a key travels with the run dir): the
 * redacted URL reads `?deployment=***` whatever deployment was asked for, so without it a resume
 * against another deployment or model chosen by the query went on unseen (eval/runner.ts warns).
 */
export function publicLlmConfig(cfg: LlmConfig): Record<string, unknown> {
  const { apiKey, ...rest } = cfg;
  const query = deploymentQueryDigest(rest.baseUrl);
  return {
    ...rest,
    ...(rest.baseUrl ? { baseUrl: redactUrl(rest.baseUrl) } : {}),
    ...(query ? { baseUrlQuery: query } : {}),
    apiKey: apiKey ? '***' : undefined,
  };
}
