/**
 * Shared CLI flags for commands that use an LLM, and the one place they are turned into a chat
 * model:
 *
 *   addLlmOptions(program.command('run')...).action(action(async (opts) => {
 *     const { model, usage, config } = await resolveLlm(opts);   // model undefined with --offline
 *   }));
 *
 * Flags: --config <file> (default ./lexcase.config.json), --offline (no LLM), --no-cache (skip the
 * response cache). Without --offline and without a configured endpoint, resolveLlm stops with
 * LLM_NOT_CONFIGURED, whose message says how to configure one.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { Option, type Command } from 'commander';
import { loadConfig, llmConfigured, publicLlmConfig, type LexcaseConfig } from '../../core/config.js';
import { errors } from '../../core/errors.js';
import { createChatModel } from '../../core/llm/factory.js';
import { UsageMeter } from '../../core/llm/usage.js';
import { log } from '../../core/log.js';
import { applyPaperSampling, PAPER_SAMPLING, type PaperSystem } from '../../agents/common/paper-settings.js';

export interface LlmCliOpts {
  config?: string;
  offline?: boolean;
  /** commander's --no-cache sets cache=false. */
  cache?: boolean;
}

/**
 * `offline: false` for commands without an offline path: --offline is then left out of --help and
 * still parsed, so the command can refuse it with a message saying it needs an LLM.
 */
export function addLlmOptions(cmd: Command, o: { offline?: boolean } = {}): Command {
  const offline = new Option('--offline', 'no LLM: use the heuristic (offline) path');
  if (o.offline === false) offline.hideHelp();
  return cmd
    .option('--config <file>', 'config file (default: ./lexcase.config.json if present)')
    .addOption(offline)
    .option('--no-cache', 'do not read or write the LLM response cache');
}

export interface ResolvedLlm {
  /** Undefined with --offline (or when optional and nothing is configured). */
  model?: BaseChatModel;
  config: LexcaseConfig;
  /** Run-level token meter the model reports into. */
  usage: UsageMeter;
  offline: boolean;
  /** With `paper`: the sampling keys taken from the system's paper (unset in config/env) and their source. */
  paperDefaults?: { system: PaperSystem; fromPaper: string[]; source: string };
}

/** config.json's `model`: the effective (redacted) LLM settings, and which of them are the paper's defaults. */
export function runModelConfig(r: ResolvedLlm): Record<string, unknown> | undefined {
  if (!r.model) return undefined;
  return { ...publicLlmConfig(r.config.llm), ...(r.paperDefaults ? { paperDefaults: r.paperDefaults } : {}) };
}

/** Print validity warnings on stderr; returns them for config.json. */
export function warnValidity(warnings: string[]): string[] {
  for (const w of warnings) log.warn(`warning: ${w}`);
  return warnings;
}

export async function resolveLlm(
  opts: LlmCliOpts,
  o: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    /** return no model instead of failing when nothing is configured */
    optional?: boolean;
    /** use this system's published sampling settings where config/env leave them unset */
    paper?: PaperSystem;
  } = {},
): Promise<ResolvedLlm> {
  const config = await loadConfig({ file: opts.config, env: o.env, cwd: o.cwd });
  if (opts.cache === false) config.llm.cacheDir = false;
  const usage = new UsageMeter();
  if (opts.offline) return { config, usage, offline: true };
  if (!llmConfigured(config.llm)) {
    if (o.optional) return { config, usage, offline: true };
    throw errors.llmNotConfigured();
  }
  let paperDefaults: ResolvedLlm['paperDefaults'];
  if (o.paper) {
    const p = applyPaperSampling(o.paper, config.llm, config.explicit ?? Object.keys(config.llm));
    config.llm = p.llm;
    paperDefaults = { system: o.paper, fromPaper: p.fromPaper, source: PAPER_SAMPLING[o.paper].source };
    if (p.fromPaper.length) log.info(`${o.paper}: ${p.fromPaper.map((k) => `${k} ${config.llm[k as 'temperature']}`).join(', ')} (the paper's; set llm.${p.fromPaper[0]} to override)`);
  }
  return { model: createChatModel(config.llm, { usage }), config, usage, offline: false, ...(paperDefaults ? { paperDefaults } : {}) };
}
