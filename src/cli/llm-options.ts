/**
 * Shared CLI flags for commands that use an LLM, and the one place they are turned into a chat
 * model:
 *
 *   addLlmOptions(program.command('run')...).action(action(async (opts) => {
 *     const { model, usage, config } = await resolveLlm(opts);   // model undefined with --offline
 *   }));
 *
 * Flags: --endpoint <url>, --model <id>, --api-key-env <VAR> (over env and config file),
 * --config <file> (default ./lexcase.config.json), --offline (no LLM), --no-cache (skip the
 * response cache), --llm-provider <name> (core/llm/providers.ts: the server's structured-output
 * mode, strict flag, endpoint and timeout), --replay <runDir> (answer every request from that
 * run's recorded exchanges: no endpoint, byte-identical results.jsonl). Without --offline or
 * --replay and without a configured endpoint, resolveLlm stops with
 * LLM_NOT_CONFIGURED, whose message says how to configure one. With one, it first makes one cheap
 * preflight request (core/llm/preflight.ts) and stops with LLM_UNAVAILABLE when the endpoint is
 * unreachable, refuses the key or does not serve the model — before any item runs. `run <system>`
 * defers it (`preflight: 'deferred'`, core/llm/deferred-preflight.ts): the runner makes it once the run
 * dir has accepted the run, so a resume refused for its model, endpoint or config sends no request.
 * LEXCASE_LLM_PREFLIGHT=0 skips the preflight (e.g. a rerun served wholly from the response cache).
 * --model-file <gguf> (provider local, core/llm/local/; implies --llm-provider local): the model runs
 * in this process; instead of the preflight the model is loaded (a missing package, binary or file
 * stops here), and the run config gets its identity (`local`: sha256, GGUF metadata, runtime
 * settings, seed).
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { LexcaseConfig, LlmConfig } from '../../core/config.js';
import { errors } from '../../core/errors.js';
import { LLM_PROVIDERS, type LlmProvider } from '../../core/llm/providers.js';
import { UsageMeter } from '../../core/llm/usage.js';
import type { ResolvedLlm } from '../../core/llm/resolved-llm.js';
import { log } from '../../core/log.js';
import { registerSentKey } from '../../core/secrets.js';
import { redactUrl, registerUrlSecrets, urlCredentialParams } from '../../core/url-credentials.js';
import { applyPaperSampling, PAPER_SAMPLING, type PaperSystem } from '../../agents/common/paper-settings.js';

/** --endpoint / --model / --api-key-env: where the LLM is, for every command that uses one. */
export interface EndpointFlags {
  endpoint?: string;
  model?: string;
  apiKeyEnv?: string;
  /** A GGUF file for the local provider. */
  modelFile?: string;
}

export interface LlmCliOpts extends EndpointFlags {
  config?: string;
  offline?: boolean;
  /** commander's --no-cache sets cache=false. */
  cache?: boolean;
  llmProvider?: string;
  /** A recorded run dir to replay. */
  replay?: string;
  /** A run goes on when the server's model changes under it, recording the items answered under each (eval/server-identities.ts). */
  allowServerChange?: boolean;
}

/**
 * `offline: false` for commands without an offline path: --offline is then left out of --help and
 * still parsed, so the command can refuse it with a message saying it needs an LLM.
 */
export function addEndpointOptions(cmd: Command): Command {
  return cmd
    .option('--endpoint <url>', 'OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (over LEXCASE_LLM_BASE_URL and llm.baseUrl)')
    .option('--model <id>', 'model on that endpoint (over LEXCASE_LLM_MODEL and llm.model)')
    .option(
      '--api-key-env <var>',
      'environment variable that holds the API key (default LEXCASE_LLM_API_KEY, then OPENAI_API_KEY); the key itself is never a flag',
    )
    .option(
      '--model-file <gguf>',
      'run this GGUF model in-process with llama.cpp (implies --llm-provider local; needs the optional package node-llama-cpp; over LEXCASE_LLM_MODEL_FILE and llm.modelFile)',
    );
}

/** The key held by the variable --api-key-env names (USAGE error when it is unset or empty). */
export function apiKeyFromEnv(name: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw errors.invalidInput('--api-key-env', `expected an environment variable name, got "${name}" (pass the name of the variable, not the key)`);
  const key = env[name];
  if (!key)
    throw errors.usage(
      `--api-key-env ${name}: the variable ${name} is not set (or empty)`,
      `export ${name}=… first, or leave --api-key-env out to use LEXCASE_LLM_API_KEY`,
    );
  return key;
}

/** Apply --endpoint / --model / --api-key-env over the loaded config (flags win over env and file). */
export function applyEndpointFlags(llm: LlmConfig, f: EndpointFlags, env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const out = { ...llm };
  if (f.endpoint !== undefined) {
    try {
      const u = new URL(f.endpoint);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    } catch {
      throw errors.invalidInput('--endpoint', `expected an http(s) URL such as http://localhost:8000/v1, got "${f.endpoint}"`);
    }
    out.baseUrl = f.endpoint;
    registerUrlSecrets(out.baseUrl);
    // the key itself is never a flag (--api-key-env); a URL that carries one puts it where `ps` shows it, as --token did
    const creds = urlCredentialParams(f.endpoint);
    if (creds.length)
      log.warn(
        `--endpoint puts a credential on the command line (the URL's query parameter${creds.length > 1 ? 's' : ''} ${creds.join(', ')}), where every user of this machine can read it (ps, /proc); give the URL in LEXCASE_LLM_BASE_URL or llm.baseUrl of the config file instead`,
      );
  }
  if (f.model !== undefined) {
    if (!f.model.trim()) throw errors.invalidInput('--model', 'empty model id');
    out.model = f.model;
  }
  if (f.apiKeyEnv !== undefined) {
    out.apiKey = apiKeyFromEnv(f.apiKeyEnv, env);
    registerSentKey(out.apiKey);
  }
  if (f.modelFile !== undefined) {
    if (!f.modelFile.trim()) throw errors.invalidInput('--model-file', 'empty path');
    out.modelFile = resolve(f.modelFile);
  }
  return out;
}

/**
 * With a model file run in this process: the line saying which server settings (an endpoint, a model
 * name, from the environment or a config file) are not used, or undefined when none is set.
 */
export function unusedServerLine(llm: LlmConfig, from: (key: keyof LlmConfig) => string): string | undefined {
  const unused = (['baseUrl', 'model'] as const)
    .filter((k) => llm[k] !== undefined)
    .map((k) => `${k === 'model' ? `model "${llm.model}"` : 'endpoint'} (${from(k)})`);
  return unused.length ? `not used: ${unused.join(', ')} — the model runs in this process from ${llm.modelFile}, named by its file and hash` : undefined;
}

/** The config keys the endpoint flags set: they count as set explicitly, so a provider preset never replaces them. */
export function endpointFlagKeys(f: EndpointFlags): (keyof LlmConfig)[] {
  const keys: [keyof EndpointFlags, keyof LlmConfig][] = [
    ['endpoint', 'baseUrl'],
    ['model', 'model'],
    ['apiKeyEnv', 'apiKey'],
    ['modelFile', 'modelFile'],
  ];
  return keys.filter(([flag]) => f[flag] !== undefined).map(([, key]) => key);
}

/**
 * `replay: false` for commands that make no run dir (serve, mcp, evidence): a replay answers the
 * items of a recorded run, so only `run <system>` commands take --replay.
 */
export function addLlmOptions(cmd: Command, o: { offline?: boolean; replay?: boolean } = {}): Command {
  const offline = new Option('--offline', 'no LLM: use the heuristic (offline) path');
  if (o.offline === false) offline.hideHelp();
  addEndpointOptions(cmd)
    .option('--config <file>', 'config file (default: ./lexcase.config.json if present)')
    .addOption(offline)
    .option('--no-cache', 'do not read or write the LLM response cache')
    .addOption(
      new Option(
        '--llm-provider <name>',
        'the LLM server: sets its structured-output mode, strict schemas, default endpoint and timeout (docs/llm.md)',
      ).choices([...LLM_PROVIDERS]),
    );
  if (o.replay !== false)
    cmd
      .option(
        '--replay <runDir>',
        "re-run from that run's recorded LLM exchanges: no endpoint, byte-identical results.jsonl (give the recorded run's flags and a new --run-dir)",
      )
      .option(
        '--allow-server-change',
        "go on when the server's GET /models describes the model otherwise during the run (another model behind the same name): the items answered under each are recorded (results.jsonl serverIdentities, report.md); without it the run stops",
      );
  return cmd;
}

export type { ResolvedLlm } from '../../core/llm/resolved-llm.js';
export { compactLocal, runModelConfig, warnValidity } from '../../core/llm/resolved-llm.js';

/** Sampling values a command's flags may set (over the config file and environment). */
export type SamplingFlags = Partial<Pick<LlmConfig, 'temperature' | 'topP' | 'maxTokens'>>;

/** Set the defined `flags` on `config.llm` and count them as set explicitly: a paper's default then never replaces them. */
function applySamplingFlags(config: LexcaseConfig, flags: SamplingFlags = {}): void {
  const keys = (Object.keys(flags) as (keyof SamplingFlags)[]).filter((k) => flags[k] !== undefined);
  for (const k of keys) config.llm[k] = flags[k]!;
  config.explicit = [...new Set([...(config.explicit ?? []), ...keys])];
}

export { EVIDENCE_PAPER } from '../../agents/common/paper-settings.js';

/** makeModel where no LLM is configured (--offline, or optional and unset). */
/**
 * A replay's paper defaults: the recording's (its config.json `model.paperDefaults`), so the replay's
 * config.json says which sampling values were the paper's as the recording's does (a replay takes
 * the sampling from the recording); none when the recording was made for another system or holds none.
 */
function recordedPaperDefaults(rec: Record<string, unknown> | undefined, paper: string): ResolvedLlm['paperDefaults'] {
  const model = (rec?.config as { model?: unknown } | undefined)?.model;
  const p = model && typeof model === 'object' ? (model as { paperDefaults?: ResolvedLlm['paperDefaults'] }).paperDefaults : undefined;
  return p && typeof p === 'object' && p.system === paper && Array.isArray(p.fromPaper) && typeof p.source === 'string' ? p : undefined;
}

const noModel = (): never => {
  throw errors.llmNotConfigured();
};

/** The preflight of `llm` as a check made once, however often called (the deferred one is awaited by every run of the command). */
function preflightOnce(llm: LlmConfig): () => Promise<void> {
  let made: Promise<void> | undefined;
  return () =>
    (made ??= (async () => {
      const { preflightLlm } = await import('../../core/llm/preflight.js');
      const p = await preflightLlm(llm);
      log.debug(
        `LLM preflight: ${llm.model} at ${llm.baseUrl} ready (${p.via === 'models' ? 'listed by GET /models' : 'answered a 1-token completion'}, ${Math.round(p.ms)} ms)`,
      );
    })());
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
    /** sampling values the command's own flags gave (e.g. run emar --temperature): they win over config and env, like --model, and count as set */
    sampling?: SamplingFlags;
    /** the sampling keys the command has a flag for, given or not (run emar: temperature): the paper-values line names them */
    samplingFlags?: readonly (keyof SamplingFlags)[];
    /**
     * the preflight request (default true; 'warn': log its error and go on, for `serve`; 'deferred': made by
     * the runner before the first item's first request, once the run dir has accepted the run: `run <system>`)
     */
    preflight?: boolean | 'warn' | 'deferred';
  } = {},
): Promise<ResolvedLlm> {
  const env = o.env ?? process.env;
  // config (zod) and the chat model (LangChain) load here, when a command uses an LLM, not at start-up
  const { loadConfig, llmConfigured, llmConfigSchema, llmEnvVar, publicLlmConfig } = await import('../../core/config.js');
  const config = await loadConfig({ file: opts.config, env, cwd: o.cwd });
  config.llm = applyEndpointFlags(config.llm, opts, env);
  // a flag's value is set explicitly, like the file's and the environment's: --llm-provider's preset fills only what none of them set
  config.explicit = [...new Set([...(config.explicit ?? []), ...endpointFlagKeys(opts)])];
  applySamplingFlags(config, o.sampling);
  if (opts.cache === false) config.llm.cacheDir = false;
  if (opts.allowServerChange) (await import('../../core/llm/server-identity.js')).allowServerChange();
  const usage = new UsageMeter();
  if (opts.replay) {
    if (opts.offline) throw errors.usage('--replay and --offline exclude each other', 'a replay answers from the recorded LLM exchanges; drop --offline');
    const [{ readModelSettings }, { createChatModel }, { readConfig }, { REPLAY_BASE_URL }] = await Promise.all([
      import('../../eval/llm-exchanges.js'),
      import('../../core/llm/factory.js'),
      import('../../eval/run-dir.js'),
      import('../../core/llm/endpoint.js'),
    ]);
    // the recorded model settings (no endpoint is contacted; the URL only satisfies the schema)
    const { strictTools, ...rec } = await readModelSettings(opts.replay);
    // a replay answers as recorded: a model or sampling value the user set that differs is said to be ignored, not dropped silently
    const set = new Set<string>(config.explicit);
    const given = config.llm as unknown as Record<string, unknown>;
    const ignored = ['model', 'temperature', 'topP', 'maxTokens', 'seed'].filter(
      (k) => set.has(k) && given[k] !== undefined && JSON.stringify(given[k]) !== JSON.stringify(rec[k]),
    );
    if (ignored.length)
      log.warn(
        `--replay answers as recorded in ${opts.replay}: ${ignored.map((k) => `${k} ${JSON.stringify(given[k])} (recorded ${JSON.stringify(rec[k] ?? null)})`).join(', ')} ignored; a replay uses the recording's model and sampling`,
      );
    config.llm = llmConfigSchema.parse({ ...rec, baseUrl: REPLAY_BASE_URL, cacheDir: false, maxRetries: 0 });
    const replayFrom = opts.replay;
    const makeModel = (cfg: LlmConfig) => createChatModel(cfg, { usage, replayFrom, strictTools: strictTools === true });
    log.info(`replaying the LLM exchanges recorded in ${replayFrom} (no endpoint)`);
    const paperDefaults = o.paper ? recordedPaperDefaults(await readConfig(replayFrom), o.paper) : undefined;
    return {
      model: makeModel(config.llm),
      config,
      usage,
      offline: false,
      replayFrom,
      makeModel,
      publicConfig: publicLlmConfig(config.llm),
      ...(paperDefaults ? { paperDefaults } : {}),
    };
  }
  if (opts.modelFile && opts.llmProvider && opts.llmProvider !== 'local')
    throw errors.usage(`--model-file runs a model in-process: it goes with --llm-provider local, not ${opts.llmProvider}`);
  const provider = opts.llmProvider ?? (opts.modelFile ? 'local' : undefined);
  if (provider) {
    const { applyProviderPreset } = await import('../../core/llm/providers.js');
    config.llm = applyProviderPreset({ ...config.llm, provider: provider as LlmProvider }, config.explicit ?? []);
    config.explicit = [...new Set([...(config.explicit ?? []), 'provider' as const])];
  }
  const { providerOf } = await import('../../core/llm/providers.js');
  const local = providerOf(config.llm) === 'local';
  // a model file and a server both configured: the one not used is said so (a flag of the other kind is refused), never dropped silently
  const from = (key: keyof LlmConfig) => llmEnvVar(key, env) ?? `llm.${key} of ${config.file ?? 'the config file'}`;
  if (local && !opts.offline) {
    if (!config.llm.modelFile) throw errors.localModelFileMissing();
    const serverFlags = (['endpoint', 'model'] as const).filter((f) => opts[f] !== undefined).map((f) => `--${f}`);
    if (serverFlags.length)
      throw errors.usage(
        `${serverFlags.join(' and ')} ${serverFlags.length > 1 ? 'name' : 'names'} a server's model, but the model runs in this process from ${config.llm.modelFile} (named by its file and hash, <file>@sha256:<16 hex>)`,
        `drop ${serverFlags.join(' and ')}, or drop --model-file / --llm-provider local to ask the server`,
      );
    const unused = unusedServerLine(config.llm, from);
    if (unused) log.info(unused);
    // no endpoint: the model runs here, named by its file (said above; createChatModel would say it again)
    delete config.llm.baseUrl;
    delete config.llm.model;
  } else if (!local && !opts.offline && config.llm.modelFile && llmConfigured(config.llm))
    log.warn(
      `not used: the model file ${config.llm.modelFile} (${from('modelFile')}) — the run asks the server ${config.llm.baseUrl ? `at ${redactUrl(config.llm.baseUrl)}` : `of provider ${providerOf(config.llm)}`}; --model-file or --llm-provider local runs the file instead`,
    );
  if (opts.offline) return { config, usage, offline: true, makeModel: noModel };
  if (!llmConfigured(config.llm)) {
    if (o.optional) return { config, usage, offline: true, makeModel: noModel };
    throw errors.llmNotConfigured();
  }
  let paperDefaults: ResolvedLlm['paperDefaults'];
  if (o.paper) {
    const p = applyPaperSampling(o.paper, config.llm, config.explicit ?? Object.keys(config.llm));
    config.llm = p.llm;
    paperDefaults = {
      system: o.paper,
      fromPaper: p.fromPaper,
      ...(p.lexcaseDefaults.length ? { lexcaseDefaults: p.lexcaseDefaults } : {}),
      source: PAPER_SAMPLING[o.paper].source,
    };
    const { paperSamplingLine } = await import('./paper-sampling-line.js');
    const line = paperSamplingLine(o.paper, PAPER_SAMPLING[o.paper] ?? { source: p.source }, config.llm, [...p.fromPaper, ...p.lexcaseDefaults], {
      given: Object.keys(o.sampling ?? {}).filter((k) => o.sampling?.[k as keyof SamplingFlags] !== undefined),
      flags: o.samplingFlags ?? [],
      env,
      file: config.file,
      cwd: o.cwd ?? process.cwd(),
    });
    if (line) log.info(line);
  }
  const preflight = o.preflight ?? true;
  let localInfo: Record<string, unknown> | undefined;
  if (local) {
    // no request to make: loading the model is the check (package, binary, file), and gives its identity
    const { prepareLocalModel } = await import('../../core/llm/local/prepare.js');
    try {
      const p = await prepareLocalModel(config.llm);
      config.llm = p.llm;
      localInfo = p.info;
    } catch (e) {
      if (preflight !== 'warn') throw e;
      log.warn((e as Error).message);
    }
  }
  const check = !local && preflight && env.LEXCASE_LLM_PREFLIGHT !== '0' ? preflightOnce(config.llm) : undefined;
  if (check && preflight !== 'deferred') {
    try {
      await check();
    } catch (e) {
      if (preflight !== 'warn') throw e;
      log.warn(`${(e as Error).message.replace('; nothing was run', '')}`);
    }
  }
  const [{ createChatModel }, { deferPreflight }] = await Promise.all([import('../../core/llm/factory.js'), import('../../core/llm/deferred-preflight.js')]);
  const makeModel = (cfg: LlmConfig) => {
    const m = createChatModel(cfg, { usage });
    return check && preflight === 'deferred' ? deferPreflight(m, check) : m;
  };
  return {
    model: makeModel(config.llm),
    config,
    usage,
    offline: false,
    makeModel,
    publicConfig: { ...publicLlmConfig(config.llm), ...(localInfo ? { local: localInfo } : {}) },
    ...(paperDefaults ? { paperDefaults } : {}),
    ...(localInfo ? { local: localInfo } : {}),
  };
}
