/**
 * `lexcase reproduce <recipe> [--endpoint URL --model M] [--limit N] [--shard i/n] [--run-dir DIR]
 *  [--index DIR] [--data DIR] [--only a,b]`: run a paper table's grid (recipes/<paper>-<table>.json)
 * through the experiment runner — resumable, LLM responses cached — and write table.md/table.json
 * with the paper's numbers beside lexcase's (95% CI, n, ⚠ where the paper's value is outside the CI).
 * `lexcase reproduce` alone lists the recipes. See docs/reproductions.md.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { loadRecipe, recipesDir } from '../../../eval/reproduce/recipe.js';
import { runGrid, type CommandRunner } from '../../../eval/reproduce/run-grid.js';
import { parseShard, type Shard } from '../../../eval/reproduce/shard.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { llmConfigured, loadConfig } from '../../../core/config.js';
import { errors } from '../../../core/errors.js';
import { getLogLevel, setLogLevel } from '../../../core/log.js';
import { action, output, parseIntOpt, parseListOpt, type GlobalOpts } from '../action.js';
import type { CommandContext } from './types.js';

interface ReproduceFlags {
  endpoint?: string;
  model?: string;
  limit?: number;
  shard?: string;
  runDir?: string;
  index?: string;
  data?: string;
  only?: string[];
  config?: string;
  cache?: boolean;
}

function exitOverrideAll(cmd: Command): void {
  cmd.exitOverride();
  for (const c of cmd.commands) exitOverrideAll(c);
}

/** Runs `lexcase <argv>` in this process, capturing what it prints (the grid's runs share one cache and index handles). */
export const inProcessRunner = (buildProgram: CommandContext['buildProgram']): CommandRunner => async (argv) => {
  const program = buildProgram();
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

export function listRecipes(): { id: string; title: string; llm: boolean }[] {
  return readdirSync(recipesDir())
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const { recipe } = loadRecipe(join(recipesDir(), f));
      return { id: recipe.id, title: `${recipe.paper}, ${recipe.table}: ${recipe.title}`, llm: recipe.needs.llm };
    });
}

const ENV_KEYS = ['LEXCASE_LLM_BASE_URL', 'LEXCASE_LLM_MODEL'] as const;

export async function reproduce(name: string, f: ReproduceFlags, runCommand: CommandRunner) {
  const { recipe, text } = loadRecipe(name);
  if (f.limit !== undefined && f.limit < 1) throw errors.usage(`--limit must be a positive integer, got ${f.limit}`);
  if (f.model && !f.endpoint && !process.env.LEXCASE_LLM_BASE_URL) throw errors.usage('--model needs --endpoint (or LEXCASE_LLM_BASE_URL)');
  const shard: Shard | undefined = f.shard ? parseShard(f.shard) : undefined;
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  if (f.endpoint) process.env.LEXCASE_LLM_BASE_URL = f.endpoint;
  if (f.model) process.env.LEXCASE_LLM_MODEL = f.model;
  try {
    const cfg = await loadConfig({ file: f.config });
    const llmRuns = recipe.runs.filter((r) => !r.unavailable && r.system !== 'retrieval');
    const configured = llmConfigured(cfg.llm);
    if (llmRuns.length && llmRuns.length === recipe.runs.filter((r) => !r.unavailable).length && !configured) throw errors.llmNotConfigured();
    const dir = f.runDir ?? join('runs', `reproduce-${recipe.id}${f.limit !== undefined ? `-n${f.limit}` : ''}${shard ? `-shard${shard.index}of${shard.count}` : ''}`);
    const r = await runGrid({
      recipe,
      recipeText: text,
      dir,
      limit: f.limit,
      shard,
      index: f.index,
      data: f.data,
      config: f.config,
      cache: f.cache,
      model: configured ? cfg.llm.model : undefined,
      runCommand,
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

export function register(program: Command, ctx: CommandContext): void {
  program
    .command('reproduce')
    .description("run a paper table's grid from its recipe and print the paper's numbers beside lexcase's (no recipe: list them)")
    .argument('[recipe]', 'recipe name (e.g. case-table3) or path to a recipe .json')
    .option('--endpoint <url>', 'OpenAI-compatible endpoint for the LLM runs (sets LEXCASE_LLM_BASE_URL; the key stays in LEXCASE_LLM_API_KEY)')
    .option('--model <id>', 'model on that endpoint (sets LEXCASE_LLM_MODEL)')
    .option('--limit <n>', 'smoke run: the first N items of every run', parseIntOpt('limit'))
    .option('--shard <i/n>', "run only shard i of n of every run's items (join the shards with `lexcase merge`)")
    .option('--run-dir <dir>', 'reproduction dir (default runs/reproduce-<recipe>[-n<limit>][-shard<i>of<n>])')
    .option('--index <dir>', 'index for the retrieval and RAG runs (default: the bundled index, built if absent)')
    .option('--data <dir>', 'task data that is not bundled (LegalBench learned_hands_courts)')
    .option('--only <ids>', 'only these run ids of the recipe (comma-separated)', parseListOpt)
    .option('--config <file>', 'config file (default: ./lexcase.config.json if present)')
    .option('--no-cache', 'do not read or write the LLM response cache')
    .action(
      action(async (name: string | undefined, flags: ReproduceFlags, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        if (!name) {
          const list = listRecipes();
          output(g, list, () => list.map((r) => `${r.id.padEnd(16)} ${r.llm ? '(endpoint)' : '(offline) '} ${r.title}`).join('\n'));
          return;
        }
        const r = await reproduce(name, flags, inProcessRunner(ctx.buildProgram));
        output(g, { runDir: r.dir, table: r.table }, () => `${r.tableMd}\nwrote ${join(r.dir, 'table.md')} and table.json`);
      }),
    );
}
