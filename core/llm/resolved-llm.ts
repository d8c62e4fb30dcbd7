/**
 * The chat model a command resolved from its flags, config file and environment (src/cli/llm-options.ts
 * `resolveLlm` makes it), as the systems' command runs (agents/<system>/cli-run.ts) receive it, and the
 * small helpers that turn it into a run's config: agents cannot import src, so the type lives here.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { LexcaseConfig, LlmConfig } from '../config.js';
import { log } from '../log.js';
import type { UsageMeter } from './usage.js';

export interface ResolvedLlm {
  /** Undefined with --offline (or when optional and nothing is configured). */
  model?: BaseChatModel;
  config: LexcaseConfig;
  /** Run-level token meter the model reports into. */
  usage: UsageMeter;
  offline: boolean;
  /** With `paper`: the sampling keys taken from the system's paper (unset in config/env) and their source. */
  paperDefaults?: { system: string; fromPaper: string[]; lexcaseDefaults?: string[]; source: string };
  /** The effective LLM settings with the key masked (set with a model). */
  publicConfig?: Record<string, unknown>;
  /** With --replay: the recorded run dir every request is answered from. */
  replayFrom?: string;
  /** A factory model for `cfg` on this command's meter (and recording, with --replay); throws without an LLM. */
  makeModel(cfg: LlmConfig): BaseChatModel;
  /** Provider local: the model's identity and runtime settings (the run config's `local`). */
  local?: Record<string, unknown>;
}

/** config.json's `model`: the effective (redacted) LLM settings, and which of them are the paper's defaults. */
export function runModelConfig(r: ResolvedLlm): Record<string, unknown> | undefined {
  if (!r.model) return undefined;
  return { ...r.publicConfig, ...(r.paperDefaults ? { paperDefaults: r.paperDefaults } : {}) };
}

/**
 * runModelConfig for a system that makes its model from the command's settings with sampling values
 * of its own (EMAR, 3-ply: the paper's): `cfg` is what it passes to makeModel.
 */
export function runModelConfigFor(r: ResolvedLlm, cfg: Pick<LlmConfig, 'temperature' | 'topP' | 'maxTokens'>): Record<string, unknown> | undefined {
  const base = runModelConfig(r);
  return base && { ...base, temperature: cfg.temperature, topP: cfg.topP, maxTokens: cfg.maxTokens };
}

/** A local model's identity without the chat template's text (its sha256 stays): for a config printed in a report. */
export function compactLocal(local: Record<string, unknown>): Record<string, unknown> {
  const { chatTemplate: _t, ...gguf } = (local.gguf ?? {}) as Record<string, unknown>;
  return { ...local, gguf };
}

/** Print validity warnings on stderr; returns them for config.json. */
export function warnValidity(warnings: string[]): string[] {
  for (const w of warnings) log.warn(w);
  return warnings;
}
