/**
 * The settings of a local model (provider "local", core/llm/local/): which file, and the runtime
 * settings a reproduction must hold fixed — CPU threads, batch size, context size — with the
 * defaults filled in, and the model id that names the file's content (its sha256) in the response
 * cache, the recorded exchanges and the run config.
 */
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import type { LlmConfig } from '../../config.js';
import { errors } from '../../errors.js';
import { log } from '../../log.js';
import { redactUrl } from '../../url-credentials.js';
import { modelFileHash } from './model-hash.js';
import { LOCAL_PACKAGE, nodeLlamaCppVersion } from './runtime.js';

export interface LocalSettings {
  /** The GGUF file (absolute). */
  file: string;
  threads: number;
  /** Tokens evaluated per batch: fixed (results can depend on it). */
  batchSize: number;
  /** Context window in tokens; undefined: the model's, at most DEFAULT_MAX_CONTEXT. */
  contextSize?: number;
  /** The seed of a request that sets none. */
  seed: number;
}

export const LOCAL_BATCH_SIZE = 512;
export const DEFAULT_MAX_CONTEXT = 8192;

/** Half the logical CPUs (about the physical cores on most machines), 1 to 8. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(8, Math.floor(availableParallelism() / 2)));
}

export function localSettings(cfg: LlmConfig): LocalSettings {
  if (!cfg.modelFile) throw errors.localModelFileMissing();
  return {
    file: resolve(cfg.modelFile),
    threads: cfg.threads ?? defaultThreads(),
    batchSize: LOCAL_BATCH_SIZE,
    ...(cfg.contextSize ? { contextSize: cfg.contextSize } : {}),
    seed: cfg.seed ?? 0,
  };
}

/**
 * What a local model's reply depends on besides the request and the model file (whose sha256 the
 * model id names): the runtime settings the engine holds fixed (threads, batch size, context size —
 * a smaller context also cuts the tokens a reply may have, or refuses a long prompt) and the
 * node-llama-cpp version (which pins its prebuilt llama.cpp). Part of the response cache's key
 * (endpoint.ts `endpointIdentity`): a reply cached under one context size is never served to a run
 * with another.
 */
export function localRuntimeIdentity(s: LocalSettings): Record<string, unknown> {
  return { threads: s.threads, batchSize: s.batchSize, contextSize: s.contextSize ?? null, runtime: `${LOCAL_PACKAGE}@${nodeLlamaCppVersion() ?? '?'}` };
}

/** "<file name>@sha256:<first 16 hex digits>": the model as the cache and the recordings name it. */
export function localModelId(file: string, sha256: string): string {
  return `${basename(file)}@sha256:${sha256.slice(0, 16)}`;
}

/** `cfg` with `model` set to the local model's id and `seed` to its default (hashes the file once; cached). */
export function withLocalModel(cfg: LlmConfig): LlmConfig {
  const s = localSettings(cfg);
  let sha: string;
  try {
    sha = modelFileHash(s.file).sha256;
  } catch (e) {
    throw errors.localLlmUnavailable(
      `the model file ${s.file} cannot be read: ${(e as Error).message}`,
      'check --model-file / LEXCASE_LLM_MODEL_FILE / llm.modelFile',
    );
  }
  return { ...cfg, modelFile: s.file, model: localModelId(s.file, sha), seed: s.seed };
}

const saidUnused = new Set<string>();

/**
 * A server's endpoint or model name given beside a local model (`provider: 'local'`, a model file):
 * neither is used — the model runs in this process and is named by its file and hash — which one
 * `[warn]` line per process says, for every caller of createChatModel (the CLI says it in its own
 * line and passes neither). Before, a library caller's `model`/`baseUrl` were replaced without a word.
 */
export function warnUnusedServer(given: LlmConfig, local: LlmConfig): void {
  const unused = [
    given.baseUrl !== undefined ? `baseUrl ${redactUrl(given.baseUrl)}` : '',
    given.model !== undefined && given.model !== local.model ? `model "${given.model}"` : '',
  ].filter(Boolean);
  if (!unused.length) return;
  const line = `not used: ${unused.join(', ')} — provider "local" runs the model in this process from ${local.modelFile}, named ${local.model}`;
  if (saidUnused.has(line)) return;
  saidUnused.add(line);
  log.warn(line);
}
