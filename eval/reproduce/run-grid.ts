/**
 * Run a recipe's grid into a reproduction dir, then write its table:
 *
 *   <dir>/reproduction.json     recipe id + sha256, limit, shard, model, the whole grid's argv, per-run status and argv
 *   <dir>/runs/<runId>/         an ordinary run dir (config.json, results.jsonl, traces/) — resumable
 *   <dir>/runs/<runId>/shard.json   with --shard: every item id of the run and the ids this shard ran
 *   <dir>/logs/<runId>.log      what the run's command printed
 *   <dir>/checksums.json        sha256 of every results.jsonl (checked by `lexcase merge`)
 *   <dir>/table.md|json         the paper's numbers beside lexcase's (table.ts)
 *
 * LLM runs go through the `lexcase run <system>` commands, in process (`runCommand`, given by the
 * CLI layer); `retrieval` runs call retrieval-run.ts, `trec` runs trec-run.ts (the user's collection
 * from --data, indexed under <dir>/collections/). A run that cannot start (no endpoint, no
 * dense index, data not bundled) is recorded as failed with its message, and the grid goes on.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { didYouMean } from '../../core/did-you-mean.js';
import { errors, isLexcaseError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { checkOutputDir, listed } from '../../core/out-dir-rule.js';
import { INDEX_DIR } from '../../indexer/out-dir.js';
import { RUN_DIR } from '../run-dir-guard.js';
import { readConfig, readResults, resultsPath, writeJsonAtomic } from '../run-dir.js';
import { NO_ITEM_LINE, noItemSucceeded } from '../no-item-succeeded.js';
import type { RunConfigFile } from '../run-config-file.js';
import { readRunUnderWay, resumeSaysAnything, resumingText } from '../run-counts.js';
import type { Recipe, RecipeRun } from './recipe.js';
// the retrieval and TREC run kinds are imported when a grid runs one: they load the retrieval methods
// (LanceDB, transformers.js), ~1.2 s of CPU that listing recipes, merging shards and LLM-only grids do not need
import type { TrecRunOptions } from './trec-run.js';
import { parseTieMode } from '../trec/anserini-ties.js';
import { runArgv } from './run-argv.js';
import { withShard, type Shard, type ShardRecord } from './shard.js';
import { writeTable, type TableJson } from './table.js';
import {
  changedSinceChecksums,
  lockReproductionDir,
  REPRODUCTION_LOCK,
  readReproduction,
  reproductionPath,
  runDirOf,
  sha256,
  writeChecksums,
  type ReproductionFile,
  type RunState,
} from './reproduction-dir.js';

export {
  lockReproductionDir,
  REPRODUCTION_LOCK,
  readReproduction,
  reproductionPath,
  runDirOf,
  sha256,
  writeChecksums,
  type ReproductionFile,
  type RunState,
  type RunStatus,
} from './reproduction-dir.js';

export type CommandRunner = (argv: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

export interface RunGridOptions {
  recipe: Recipe;
  recipeText: string;
  /**
   * The recipe as the command named it, where that is a path (`lexcase reproduce ./my-recipe.json`):
   * the rerun commands (table.md, reproduction.json `argv`) name it. Before, they named the recipe's id,
   * which reruns the bundled recipe of that name, not the file the cells came from.
   */
  recipeArg?: string;
  dir: string;
  limit?: number;
  shard?: Shard;
  index?: string;
  data?: string;
  config?: string;
  cache?: boolean;
  /** Replay this recorded reproduction dir (every LLM run answers from its recorded exchanges). */
  replay?: string;
  llmProvider?: string;
  model?: string;
  /** Runs `lexcase <argv>` (the CLI layer passes an in-process runner). */
  runCommand: CommandRunner;
  /** Only these run ids (default: every run of the recipe). */
  only?: string[];
}

/** The command's last error message with its hint ("[error] …" and the lines after it). */
function lastError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('(run with --debug'));
  const at = lines.findLastIndex((l) => l.startsWith('[error]'));
  if (at < 0) return lines.pop() ?? 'the command failed';
  return lines
    .slice(at)
    .join(' ')
    .replace(/^\[error\]\s*/, '');
}

const flagOf = (flag: string, value: string | undefined): string[] => (value ? [flag, value] : []);

/**
 * The command that reruns one retrieval or TREC cell, or any cell of a shard, by hand (table.md prints it): `lexcase
 * reproduce <recipe> --only <id>` with what this grid was given that the cell depends on — `inputs`
 * (the --index it searched, the --data it indexed), the reproduction dir, the shard and --limit.
 */
function reproduceArgv(run: RecipeRun, o: RunGridOptions, inputs: string[]): string[] {
  return ['reproduce', o.recipeArg ?? o.recipe.id, '--only', run.id, ...inputs, ...gridOptions(o)];
}

/** What every rerun command keeps: the reproduction dir, the shard and --limit. */
const gridOptions = (o: RunGridOptions): string[] => [
  '--run-dir',
  o.dir,
  ...(o.shard ? ['--shard', `${o.shard.index}/${o.shard.count}`] : []),
  ...(o.limit !== undefined ? ['--limit', String(o.limit)] : []),
];

/**
 * The command that reruns the whole grid (reproduction.json `argv`): the inputs and LLM settings a shard
 * cell's command keeps (--index, --data, --config, --no-cache, --llm-provider, --replay), the options each
 * cell's command keeps, and the model. Before, it left out the four LLM settings, so it reran the grid with
 * ./lexcase.config.json (other sampling, key, endpoint), the cache on, the default preset, or — for a
 * replay — against the live endpoint.
 */
function gridArgv(o: RunGridOptions, model: string | null): string[] {
  return ['reproduce', o.recipeArg ?? o.recipe.id, ...shardRerunInputs(o), ...gridOptions(o), ...flagOf('--model', model ?? undefined)];
}

async function runOne(run: RecipeRun, o: RunGridOptions): Promise<RunState> {
  if (run.unavailable) return { id: run.id, system: run.system, status: 'unavailable', error: run.unavailable };
  const runDir = runDirOf(o.dir, run.id);
  if (run.system === 'retrieval') {
    const a = run.args;
    try {
      const { runRetrievalGridRun } = await import('./retrieval-run.js');
      await runRetrievalGridRun({
        runDir,
        method: String(a.method ?? 'bm25'),
        index: typeof a.index === 'string' ? a.index : o.index,
        dataset: typeof a.dataset === 'string' ? a.dataset : undefined,
        split: typeof a.split === 'string' ? a.split : undefined,
        splitSeed: typeof a['split-seed'] === 'number' ? a['split-seed'] : undefined,
        ks: Array.isArray(a.ks) ? a.ks.map(Number) : typeof a.ks === 'string' ? a.ks.split(',').map(Number) : undefined,
        limit: o.limit,
        seed: typeof a.seed === 'number' ? a.seed : undefined,
        // a replay's cell searches again: refused unless it is the recorded cell's run (the same index content, data, settings)
        replayOf: o.replay ? runDirOf(o.replay, run.id) : undefined,
      });
      return { id: run.id, system: run.system, status: 'done', argv: reproduceArgv(run, o, typeof a.index === 'string' ? [] : flagOf('--index', o.index)) };
    } catch (e) {
      if (!isLexcaseError(e)) throw e;
      return { id: run.id, system: run.system, status: 'failed', error: e.message };
    }
  }
  if (run.system === 'trec') {
    try {
      const { runTrecGridRun } = await import('./trec-run.js');
      await runTrecGridRun(trecRunOptions(run, runDir, o));
      return { id: run.id, system: run.system, status: 'done', argv: reproduceArgv(run, o, flagOf('--data', o.data)) };
    } catch (e) {
      if (!isLexcaseError(e)) throw e;
      return { id: run.id, system: run.system, status: 'failed', error: e.message };
    }
  }
  const argv = runArgv(run, {
    runDir,
    limit: o.limit,
    index: o.index,
    data: o.data,
    config: o.config,
    cache: o.cache,
    replay: o.replay,
    llmProvider: o.llmProvider,
  });
  const resumesBefore = await resumeRecords(runDir);
  // the requests of items under way at the cell's earlier interrupts (config.json `interrupts`), as the runner's line says them
  const underWay = await readRunUnderWay(runDir);
  const r = await o.runCommand(['--json', ...argv]);
  // `lexcase run --json` logs warnings only: say a resumed cell's "resuming … already done" here, as
  // the runner says it for a retrieval cell run in this process
  const resumed = (await resumeRecords(runDir)).slice(resumesBefore.length).at(-1);
  if (resumed && resumeSaysAnything(resumed, underWay)) log.info(resumingText(runDir, resumed, underWay));
  await mkdir(join(o.dir, 'logs'), { recursive: true });
  await writeFile(join(o.dir, 'logs', `${run.id}.log`), `$ lexcase ${argv.join(' ')}\n${r.stdout}\n${r.stderr}`);
  // the cell's warnings (replies answered from the response cache, replies cut short, …) said here too, named by the
  // cell: before 2026-12-05 they reached only logs/<run>.log, and a table built from another model's cached replies said nothing
  for (const w of warnings(r.stderr)) log.warn(`run ${run.id}: ${w}`);
  // a shard's run reruns only as that shard: `lexcase run` has no --shard, and run alone on this run
  // dir it would take every other shard's items (refused now: shard.ts checkShardResume)
  const rerun = o.shard ? reproduceArgv(run, o, shardRerunInputs(o)) : argv;
  if (r.code !== 0) {
    // every item ran and failed (the run's exit 1 "no item succeeded"): recorded, so a merge of the shards decides over all of them;
    // not a run that stopped for another reason (a resume refused) over an earlier attempt's failed lines
    const error = lastError(r.stderr);
    const allFailed = NO_ITEM_LINE.test(error) && noItemSucceeded(await readResultRecords(runDir)) !== undefined;
    return {
      id: run.id,
      system: run.system,
      status: 'failed',
      argv: rerun,
      error,
      ...(allFailed ? { noItemSucceeded: true as const } : {}),
    };
  }
  return { id: run.id, system: run.system, status: 'done', argv: rerun };
}

/** The `[warn]` lines of a cell's stderr, each once, in order, without the tag (colour codes aside). */
function warnings(stderr: string): string[] {
  const out = new Set<string>();
  for (const line of stderr.split('\n')) {
    const m = /^\[warn\] (.*)$/.exec(line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
    if (m) out.add(m[1]);
  }
  return [...out];
}

/** A cell's results (none for a missing or unreadable results.jsonl: the cell's own error says what is wrong). */
async function readResultRecords(runDir: string): Promise<{ error?: string }[]> {
  try {
    return (await readResults(runDir)).records;
  } catch {
    return [];
  }
}

/** The resumes a run dir's config.json records (none for a new, missing or unreadable one: the cell itself says what is wrong with it). */
async function resumeRecords(runDir: string): Promise<NonNullable<RunConfigFile['resumes']>> {
  try {
    const cfg = (await readConfig(runDir)) as RunConfigFile | undefined;
    return Array.isArray(cfg?.resumes) ? cfg.resumes : [];
  } catch {
    return [];
  }
}

/** The `reproduce` flags an LLM run's shard depends on (the endpoint and model: as the grid was given them). */
const shardRerunInputs = (o: RunGridOptions): string[] => [
  ...flagOf('--index', o.index),
  ...flagOf('--data', o.data),
  ...flagOf('--config', o.config),
  ...(o.cache === false ? ['--no-cache'] : []),
  ...flagOf('--llm-provider', o.llmProvider),
  ...flagOf('--replay', o.replay),
];

/** A `trec` recipe run's args → trec-run.ts options. */
function trecRunOptions(run: RecipeRun, runDir: string, o: RunGridOptions): TrecRunOptions {
  const a = run.args;
  const str = (k: string) => (a[k] === undefined ? undefined : String(a[k]));
  const analyzer = str('analyzer');
  if (analyzer !== undefined && analyzer !== 'lucene' && analyzer !== 'lexcase')
    throw errors.invalidInput(`runs.${run.id}.args.analyzer`, `expected lucene or lexcase, got "${analyzer}"`);
  const retrieverOptions: Record<string, unknown> = {};
  for (const k of ['k1', 'b', 'mu', 'variant', 'scorer']) if (a[k] !== undefined) retrieverOptions[k] = a[k];
  // RM3 (as `search --rm3 [--fb-docs N] [--fb-terms N] [--original-query-weight X]`): args rm3, fb-docs, fb-terms, original-query-weight.
  const rm3 = Object.fromEntries(
    (
      [
        ['fb-docs', 'fbDocs'],
        ['fb-terms', 'fbTerms'],
        ['original-query-weight', 'originalQueryWeight'],
      ] as const
    )
      .filter(([k]) => a[k] !== undefined)
      .map(([k, o]) => [o, Number(a[k])]),
  );
  if (a.rm3 === true) retrieverOptions.rm3 = Object.keys(rm3).length ? rm3 : true;
  else if (a.rm3 !== undefined || Object.keys(rm3).length)
    throw errors.invalidInput(`runs.${run.id}.args.rm3`, 'RM3 is "rm3": true (with fb-docs, fb-terms, original-query-weight if not the defaults)');
  return {
    runDir,
    reproDir: o.dir,
    collection: str('collection') ?? '',
    data: o.data,
    method: str('method') ?? 'bm25',
    analyzer: analyzer === 'lucene' ? { preset: 'lucene' } : {},
    retrieverOptions,
    hits: a.hits === undefined ? undefined : Number(a.hits),
    ties: a.ties === undefined ? undefined : parseTieMode(String(a.ties)),
    metrics: Array.isArray(a.metrics) ? a.metrics : typeof a.metrics === 'string' ? a.metrics.split(',') : undefined,
    limit: o.limit,
    seed: typeof a.seed === 'number' ? a.seed : undefined,
    replayOf: o.replay ? runDirOf(o.replay, run.id) : undefined,
  };
}

async function writeShardRecords(dir: string, shard: Shard, records: Map<string, ShardRecord>): Promise<void> {
  for (const [runDir, rec] of records) {
    await writeJsonAtomic(join(runDir, 'shard.json'), {
      shard,
      allIdsSha256: sha256(rec.allIds.join('\n')),
      ...(rec.allContentChecksum ? { allContentChecksum: rec.allContentChecksum } : {}),
      allIds: rec.allIds,
      keptIds: rec.keptIds,
    });
  }
}

/** sha256 of each run's results.jsonl, keyed by runs/<id>/results.jsonl. */

/** What a reproduction dir holds before reproduction.json is written (killed at its very start). */
const EARLY_ENTRIES = new Set(['runs', 'logs', REPRODUCTION_LOCK, `${REPRODUCTION_LOCK}.break`]);

/** The shared output-dir rule for `reproduce --run-dir DIR`: new, empty, or a reproduction to continue. */
export function checkReproductionDirOut(dir: string): void {
  checkOutputDir(
    dir,
    {
      what: 'a reproduction',
      hint: 'choose a new or empty --run-dir, or an existing reproduction dir to continue',
      existing: (_target, entries) => {
        if (entries.includes('reproduction.json')) return undefined; // parsed (and checked) by readReproduction
        const other = entries.filter((e) => !EARLY_ENTRIES.has(e) && !e.startsWith('reproduction.json.tmp-'));
        return other.length
          ? { reason: `it is a non-empty directory that is not a lexcase reproduction (no reproduction.json; it holds ${listed(other)})` }
          : undefined;
      },
    },
    [],
    [INDEX_DIR, RUN_DIR],
  );
}

export async function runGrid(o: RunGridOptions): Promise<{ reproduction: ReproductionFile; table: TableJson; tableMd: string }> {
  checkOnly(o.recipe, o.only);
  checkReproductionDirOut(o.dir);
  await mkdir(o.dir, { recursive: true });
  const lock = lockReproductionDir(o.dir, `reproduce ${o.recipe.id}`);
  try {
    return await runGridLocked(o);
  } finally {
    lock.release();
  }
}

/**
 * `--only` names runs of the recipe: an id it does not have is refused before anything runs, with
 * the one meant. Before, `--only bm25,qdl` ran bm25 alone and `--only bm-25` ran nothing, exit 0.
 */
export function checkOnly(recipe: Recipe, only: readonly string[] | undefined): void {
  const ids = recipe.runs.map((r) => r.id);
  const unknown = (only ?? []).filter((id) => !ids.includes(id));
  if (unknown.length)
    throw errors.usage(
      `--only: ${unknown.map((id) => [`"${id}" is no run of ${recipe.id}`, didYouMean(id, ids).trim()].filter(Boolean).join(', ')).join('; ')}`,
      `its runs: ${ids.join(', ')}`,
    );
}

async function runGridLocked(o: RunGridOptions): Promise<{ reproduction: ReproductionFile; table: TableJson; tableMd: string }> {
  const recipeSha256 = sha256(o.recipeText);
  const prev = await readReproduction(o.dir);
  if (prev) {
    const same = prev.recipe === o.recipe.id && prev.limit === (o.limit ?? null) && JSON.stringify(prev.shard) === JSON.stringify(o.shard ?? null);
    if (!same)
      throw errors.runInvalid(
        o.dir,
        `holds a reproduction of ${prev.recipe} (limit ${prev.limit ?? 'none'}, shard ${prev.shard ? `${prev.shard.index}/${prev.shard.count}` : 'none'}); use another --run-dir`,
      );
    // the reproduction is labelled with the model its cells were made with: another one is refused, not relabelled
    if (prev.model && o.model && prev.model !== o.model)
      throw errors.runInvalid(
        o.dir,
        `holds a reproduction made with model ${prev.model}, not ${o.model}; use another --run-dir for ${o.model} (or --model ${prev.model} to continue this one)`,
      );
    if (prev.recipeSha256 !== recipeSha256)
      log.warn(`${o.dir}: the recipe changed since this reproduction started; runs whose config changed will refuse to resume`);
    // a done run's results are not run again: one changed since the last reproduce finished (by hand, or by a
    // run of it stopped before the end) makes the table as it is now — said here, before checksums.json records it
    for (const c of await changedSinceChecksums(o.dir))
      log.warn(
        `${o.dir}: ${c.rel} does not match checksums.json (sha256 ${c.got.slice(0, 12)}, recorded ${c.want.slice(0, 12)}): it changed after this reproduction last finished (edited, or a run of it stopped before the end); its items count as done and the table is made from it as it is now, and checksums.json will record it`,
      );
  }
  await mkdir(join(o.dir, 'runs'), { recursive: true });
  const now = new Date().toISOString();
  const model = o.model ?? prev?.model ?? null;
  const repro: ReproductionFile = {
    recipe: o.recipe.id,
    recipeSha256,
    limit: o.limit ?? null,
    shard: o.shard ?? null,
    model,
    argv: gridArgv(o, model),
    createdAt: prev?.createdAt ?? now,
    updatedAt: now,
    runs: prev?.runs ?? [],
  };
  const todo = o.recipe.runs.filter((r) => !o.only || o.only.includes(r.id));
  const doAll = async () => {
    for (const run of todo) {
      log.info(`${o.recipe.id}: run ${run.id} (${run.system})`);
      const state = await runOne(run, o);
      repro.runs = [...repro.runs.filter((s) => s.id !== run.id), state];
      await writeJsonAtomic(reproductionPath(o.dir), repro);
      if (state.status === 'failed') log.warn(`${o.recipe.id}: run ${run.id} failed: ${state.error}`);
    }
  };
  if (o.shard) {
    const { records } = await withShard(o.shard, doAll);
    await writeShardRecords(o.dir, o.shard, records);
  } else await doAll();
  // keep the recipe's order
  repro.runs = o.recipe.runs.map((r) => repro.runs.find((s) => s.id === r.id)).filter((s): s is RunState => !!s);
  await writeJsonAtomic(reproductionPath(o.dir), repro);
  await writeChecksums(
    o.dir,
    o.recipe.runs.map((r) => r.id),
  );
  const { table, markdown } = await writeTable(o.dir, o.recipe, repro);
  return { reproduction: repro, table, tableMd: markdown };
}
