/**
 * Shared CLI flags for commands that use an LLM, and the one place they are turned into a chat
 * model:
 *
 *   addLlmOptions(program.command('run')...).action(action(async (opts) => {
 *     const { model, usage, config } = await resolveLlm(opts);   // model undefined with --offline
 *   }));
 *
 * Flags: --config <file> (default ./lexcase.config.json), --offline (no LLM), --no-cache (skip the
 * response cache), --llm-provider <name> (core/llm/providers.ts: the server's structured-output
 * mode, strict flag, endpoint and timeout), --replay <runDir> (answer every request from that
 * run's recorded exchanges: no endpoint, byte-identical results.jsonl). Without --offline or
 * --replay and without a configured endpoint, resolveLlm stops with LLM_NOT_CONFIGURED, whose
 * message says how to configure one.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { Option, type Command } from 'commander';
import { llmConfigSchema, loadConfig, llmConfigured, publicLlmConfig, type LexcaseConfig, type LlmConfig } from '../../core/config.js';
import { errors } from '../../core/errors.js';
import { createChatModel } from '../../core/llm/factory.js';
import { applyProviderPreset, LLM_PROVIDERS, type LlmProvider } from '../../core/llm/providers.js';
import { readModelSettings } from '../../eval/llm-exchanges.js';
import { UsageMeter } from '../../core/llm/usage.js';
import { log } from '../../core/log.js';
import { applyPaperSampling, PAPER_SAMPLING, type PaperSystem } from '../../agents/common/paper-settings.js';

export interface LlmCliOpts {
  config?: string;
  offline?: boolean;
  /** commander's --no-cache sets cache=false. */
  cache?: boolean;
  llmProvider?: string;
  /** A recorded run dir to replay. */
  replay?: string;
}

/**
 * `offline: false` for commands without an offline path: --offline is then left out of --help and
 * still parsed, so the command can refuse it with a message saying it needs an LLM.
 */
/**
 * `replay: false` for commands that make no run dir (serve, mcp, evidence): a replay answers the
 * items of a recorded run, so only `run <system>` commands take --replay.
 */
export function addLlmOptions(cmd: Command, o: { offline?: boolean; replay?: boolean } = {}): Command {
  const offline = new Option('--offline', 'no LLM: use the heuristic (offline) path');
  if (o.offline === false) offline.hideHelp();
  cmd
    .option('--config <file>', 'config file (default: ./lexcase.config.json if present)')
    .addOption(offline)
    .option('--no-cache', 'do not read or write the LLM response cache')
    .addOption(new Option('--llm-provider <name>', 'the LLM server: sets its structured-output mode, strict schemas, default endpoint and timeout (docs/llm.md)').choices([...LLM_PROVIDERS]));
  if (o.replay !== false) cmd.option('--replay <runDir>', "re-run from that run's recorded LLM exchanges: no endpoint, byte-identical results.jsonl (give the recorded run's flags and a new --run-dir)");
  return cmd;
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
  /** With --replay: the recorded run dir every request is answered from. */
  replayFrom?: string;
  /** A factory model for `cfg` on this command's meter (and recording, with --replay). */
  makeModel(cfg: LlmConfig): BaseChatModel;
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
  if (opts.replay) {
    if (opts.offline) throw errors.usage('--replay and --offline exclude each other', 'a replay answers from the recorded LLM exchanges; drop --offline');
    // the recorded model settings (no endpoint is contacted; the URL only satisfies the schema)
    const { strictTools, ...rec } = await readModelSettings(opts.replay);
    config.llm = llmConfigSchema.parse({ ...rec, baseUrl: 'http://replay.invalid/v1', cacheDir: false, maxRetries: 0 });
    const replayFrom = opts.replay;
    const makeModel = (cfg: LlmConfig) => createChatModel(cfg, { usage, replayFrom, strictTools: strictTools === true });
    log.info(`replaying the LLM exchanges recorded in ${replayFrom} (no endpoint)`);
    return { model: makeModel(config.llm), config, usage, offline: false, replayFrom, makeModel };
  }
  const makeModel = (cfg: LlmConfig) => createChatModel(cfg, { usage });
  if (opts.llmProvider) {
    config.llm = applyProviderPreset({ ...config.llm, provider: opts.llmProvider as LlmProvider }, config.explicit ?? []);
    config.explicit = [...new Set([...(config.explicit ?? []), 'provider' as const])];
  }
  if (opts.offline) return { config, usage, offline: true, makeModel };
  if (!llmConfigured(config.llm)) {
    if (o.optional) return { config, usage, offline: true, makeModel };
    throw errors.llmNotConfigured();
  }
  let paperDefaults: ResolvedLlm['paperDefaults'];
  if (o.paper) {
    const p = applyPaperSampling(o.paper, config.llm, config.explicit ?? Object.keys(config.llm));
    config.llm = p.llm;
    paperDefaults = { system: o.paper, fromPaper: p.fromPaper, source: PAPER_SAMPLING[o.paper].source };
    if (p.fromPaper.length) log.info(`${o.paper}: ${p.fromPaper.map((k) => `${k} ${config.llm[k as 'temperature']}`).join(', ')} (the paper's; set llm.${p.fromPaper[0]} to override)`);
  }
  return { model: makeModel(config.llm), config, usage, offline: false, makeModel, ...(paperDefaults ? { paperDefaults } : {}) };
}
