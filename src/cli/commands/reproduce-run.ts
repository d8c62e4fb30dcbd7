/**
 * The work of `lexcase reproduce` (src/cli/commands/reproduce.ts registers the command and loads
 * this module when it runs): list the recipes, run a recipe's grid through the experiment runner
 * with each run as `lexcase run …` in this process, and write its table.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError, type Command } from 'commander';
import { loadRecipe, OFFLINE_SYSTEMS, recipesDir, type Recipe } from '../../../eval/reproduce/recipe.js';
import { locateCacm } from '../../../corpora/cacm.js';
import { checkOnly, readReproduction, runGrid, type CommandRunner } from '../../../eval/reproduce/run-grid.js';
import { parseShard, type Shard } from '../../../eval/reproduce/shard.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { llmConfigSchema, llmConfigured, llmEnvVar, loadConfig } from '../../../core/config.js';
import { preflightLlm } from '../../../core/llm/preflight.js';
import { providerOf } from '../../../core/llm/providers.js';
import { withLocalModel } from '../../../core/llm/local/settings.js';
import { applyEndpointFlags, unusedServerLine, type EndpointFlags } from '../llm-options.js';
import { errors } from '../../../core/errors.js';
import { getLogLevel, log, setLogLevel } from '../../../core/log.js';

export interface ReproduceFlags extends EndpointFlags {
  limit?: number;
  shard?: string;
  runDir?: string;
  index?: string;
  data?: string;
  only?: string[];
  config?: string;
  cache?: boolean;
  replay?: string;
  llmProvider?: string;
}

function exitOverrideAll(cmd: Command): void {
  cmd.exitOverride();
  for (const c of cmd.commands) exitOverrideAll(c);
}

/**
 * Runs `lexcase <argv>` in this process on a fresh, whole program from `fullProgram`, capturing
 * what it prints (the grid's runs share one cache and index handles). The program comes from the
 * caller (register() gets it in its CliContext): importing the CLI entry from here would wait on
 * the entry's own top-level await when `lexcase reproduce` runs as a process.
 */
export function inProcessRunner(fullProgram: () => Promise<Command>): CommandRunner {
  return async (argv) => {
    const program = await fullProgram();
    let stdout = '';
    let stderr = '';
    const outWrite = process.stdout.write;
    const errWrite = process.stderr.write;
    const prevCode = process.exitCode;
    const prevLevel = getLogLevel(); // the child's action() sets --json's level; give ours back after
    program.configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
    exitOverrideAll(program);
    process.stdout.write = ((s: string | Uint8Array) => ((stdout += String(s)), true)) as typeof process.stdout.write;
    process.stderr.write = ((s: string | Uint8Array) => ((stderr += String(s)), true)) as typeof process.stderr.write;
    process.exitCode = 0;
    let code = 0;
    try {
      await program.parseAsync(['node', 'lexcase', ...argv]);
      code = Number(process.exitCode ?? 0);
    } catch (e) {
      if (e instanceof CommanderError) code = e.exitCode || 1;
      else throw e;
    } finally {
      process.stdout.write = outWrite;
      process.stderr.write = errWrite;
      process.exitCode = prevCode;
      setLogLevel(prevLevel);
    }
    return { code, stdout, stderr };
  };
}

/** The recipes in recipes/; `ownDataOnly`: every data need is the user's own copy (no run succeeds without --data). */
export function listRecipes(): { id: string; title: string; llm: boolean; data: string[]; ownDataOnly: boolean }[] {
  return readdirSync(recipesDir())
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const { recipe } = loadRecipe(join(recipesDir(), f));
      return {
        id: recipe.id,
        title: `${recipe.paper}, ${recipe.table}: ${recipe.title}`,
        llm: recipe.needs.llm,
        data: recipe.needs.data,
        ownDataOnly: recipe.needs.ownDataOnly,
      };
    });
}

/** The error of a recipe run without the data only the user can supply: the collection's own (CACM: where to get it), else one naming needs.data. */
function ownDataMissing(recipe: Recipe): Error {
  const collections = new Set(recipe.runs.map((r) => (r.args as { collection?: unknown } | undefined)?.collection));
  if (collections.has('cacm')) {
    try {
      locateCacm(undefined);
    } catch (e) {
      return e as Error;
    }
  }
  return errors.usage(`recipe ${recipe.id} needs your own data: pass --data FOLDER`, recipe.needs.data.join('; '));
}

const ENV_KEYS = [
  'LEXCASE_LLM_BASE_URL',
  'LEXCASE_LLM_MODEL',
  'LEXCASE_LLM_API_KEY',
  'LEXCASE_LLM_MODEL_FILE',
  'LEXCASE_LLM_PROVIDER',
  'LEXCASE_LLM_PREFLIGHT',
] as const;

export async function reproduce(name: string, f: ReproduceFlags, fullProgram: () => Promise<Command>) {
  const { recipe, text } = loadRecipe(name);
  // a recipe that runs only on the user's own data stops here, once, before a run dir is written
  if (recipe.needs.ownDataOnly && f.data === undefined && !f.replay) throw ownDataMissing(recipe);
  if (f.limit !== undefined && f.limit < 1) throw errors.usage(`--limit must be a positive integer, got ${f.limit}`);
  if (f.modelFile !== undefined && (f.endpoint !== undefined || f.model !== undefined))
    throw errors.usage(
      '--model-file runs the model in this process: it goes without --endpoint and --model',
      'give either --model-file or --endpoint with --model',
    );
  if (f.modelFile !== undefined && f.llmProvider !== undefined && f.llmProvider !== 'local')
    throw errors.usage(`--model-file runs a model in-process: it goes with --llm-provider local, not ${f.llmProvider}`);
  if (f.model && !f.endpoint && !process.env.LEXCASE_LLM_BASE_URL) throw errors.usage('--model needs --endpoint (or LEXCASE_LLM_BASE_URL)');
  const shard: Shard | undefined = f.shard ? parseShard(f.shard) : undefined;
  // a run id the recipe lacks stops here, before the endpoint is asked (its refusal came after "not reachable")
  checkOnly(recipe, f.only);
  // checked before the env changes: a bad --endpoint or an unset --api-key-env variable stops here
  const given = applyEndpointFlags(llmConfigSchema.parse({}), f);
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  // the grid's runs are `lexcase run …` in this process: they read the endpoint from the env
  if (f.endpoint) process.env.LEXCASE_LLM_BASE_URL = f.endpoint;
  if (f.model) process.env.LEXCASE_LLM_MODEL = f.model;
  if (f.apiKeyEnv) process.env.LEXCASE_LLM_API_KEY = given.apiKey;
  if (given.modelFile) {
    process.env.LEXCASE_LLM_MODEL_FILE = given.modelFile;
    // as on `lexcase run`: --model-file chooses the provider, so an endpoint in the environment does not take the runs (each says it is not used)
    process.env.LEXCASE_LLM_PROVIDER = 'local';
  }
  try {
    const cfg = await loadConfig({ file: f.config });
    // the runs --only selects (all without it): an endpoint is needed, and asked, only for LLM runs among them
    const selected = recipe.runs.filter((r) => !f.only || f.only.includes(r.id));
    const llmRuns = selected.filter((r) => !r.unavailable && !OFFLINE_SYSTEMS.includes(r.system));
    const configured = llmConfigured(cfg.llm);
    const replayed = f.replay ? await readReproduction(f.replay) : undefined;
    if (f.replay && !replayed) throw errors.runInvalid(f.replay, 'has no reproduction.json: --replay takes a `lexcase reproduce` dir');
    if (!f.replay && llmRuns.length && llmRuns.length === selected.filter((r) => !r.unavailable).length && !configured) throw errors.llmNotConfigured();
    // one cheap request before the grid: a wrong endpoint, key or model stops here, not in every run
    // (a local model has no endpoint: each run loads it and stops on a missing package or file).
    // Every cell's `lexcase run` uses this same endpoint and model (the env set above), so the
    // cells skip their own preflight: one per grid, not one per cell.
    if (!f.replay && llmRuns.length && providerOf(cfg.llm) === 'local') {
      const unused = unusedServerLine(cfg.llm, (k) => llmEnvVar(k, process.env) ?? `llm.${k} of ${cfg.file ?? 'the config file'}`);
      if (unused) log.info(unused);
    }
    // the model the runs ask for: a local model by its file and hash (an env or config model name is not used then)
    const modelOf = () => (providerOf(cfg.llm) === 'local' && cfg.llm.modelFile && llmRuns.length ? withLocalModel(cfg.llm).model : cfg.llm.model);
    if (!f.replay && llmRuns.length && configured && providerOf(cfg.llm) !== 'local' && process.env.LEXCASE_LLM_PREFLIGHT !== '0') {
      await preflightLlm(cfg.llm);
      process.env.LEXCASE_LLM_PREFLIGHT = '0';
    }
    const dir =
      f.runDir ??
      (f.replay ? `${f.replay.replace(/[\\/]+$/, '')}-replay` : undefined) ??
      join('runs', `reproduce-${recipe.id}${f.limit !== undefined ? `-n${f.limit}` : ''}${shard ? `-shard${shard.index}of${shard.count}` : ''}`);
    const r = await runGrid({
      recipe,
      recipeText: text,
      ...(name !== recipe.id ? { recipeArg: name } : {}),
      dir,
      limit: f.limit,
      shard,
      index: f.index,
      data: f.data,
      config: f.config,
      cache: f.cache,
      replay: f.replay,
      llmProvider: f.llmProvider,
      model: f.replay ? (replayed?.model ?? undefined) : configured ? modelOf() : undefined,
      runCommand: inProcessRunner(fullProgram),
      only: f.only,
    });
    return { dir, ...r };
  } finally {
    await closeSparseIndexes();
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}
