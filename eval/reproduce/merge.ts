/**
 * `lexcase merge <out> <shardDir>…`: join the run dirs of `reproduce --shard i/n` (one per host)
 * into one reproduction dir, as if the grid had run on one machine. Refuses, naming the shard and
 * the item, unless: every shard 1..n is there once, all come from the same recipe (sha256) and
 * --limit, every results.jsonl still has the checksum its shard recorded, each run's config and
 * seed agree across shards (compared as a resume compares them: eval/resume-compare.ts, a field an
 * older shard did not record being unknown, with a warning), every item of a run is in exactly one shard (no duplicate, no missing
 * item: a shard that stopped early must be resumed first), and every shard read the same text for the
 * run's items (shard.json `allContentChecksum`: a question reworded in one host's copy of the data is
 * refused, as a resume refuses it, not left out as `compare` leaves an item out — a merged run
 * missing items is no run of the recipe; shards of an older lexcase, which record none, get one note).
 * Results are written in the unsharded
 * item order; traces and per-item files are copied; report.md and the table are rebuilt. A shard
 * that ran no item of a run (more shards than items) adds none; a merge that fails midway removes
 * what it wrote.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { liveHolder } from '../../core/dir-lock.js';
import { errors } from '../../core/errors.js';
import { jsonLine } from '../../core/jsonl.js';
import { checkOutputDir } from '../../core/out-dir-rule.js';
import { INDEX_DIR } from '../../indexer/out-dir.js';
import { RUN_DIR } from '../run-dir-guard.js';
import { datasetChecksum, datasetContentChecksum } from '../provenance.js';
import { NO_ITEM_LINE, noItemSucceeded } from '../no-item-succeeded.js';
import { log } from '../../core/log.js';
import { compareRecordedConfig, type RecordedComparison } from '../resume-compare.js';
import { unrecordedText } from '../resume-unrecorded.js';
import { describeDifference, stableJson } from '../resume-config.js';
import { writeReport } from '../report/write-report.js';
import { RUN_FILES, readConfig, readResults, writeJsonAtomic } from '../run-dir.js';
import { shardResumes } from '../run-resumes.js';
import { SENT_DIR } from '../sent-journal.js';
import type { ResultRecord } from '../types.js';
import { mergeComparable, mergedGitShas, mixedCodeWarning, shardProvenance, unsharded } from './merge-config.js';
import type { Recipe } from './recipe.js';
import {
  gridArgvFor,
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
import { writeTable, type TableJson } from './table.js';

interface ShardFile {
  shard: { index: number; count: number };
  allIdsSha256: string;
  /** The checksum of every item's text as the shard read it (shard.ts ShardRecord); absent in shards written before 2026-12-01. */
  allContentChecksum?: string;
  allIds: string[];
  keptIds: string[];
}

async function readJson<T>(file: string): Promise<T | undefined> {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (e) {
    throw errors.fileParse(file, undefined, `not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * The command that resumes a shard where it lies now: its recorded grid command (its --limit, --config, --model …)
 * with this --run-dir. Before, the hint left out --limit, and a shard run with it refused the resume ("holds a
 * reproduction of … (limit 4, shard 2/2); use another --run-dir").
 */
function shardResumeArgv(r: ReproductionFile, dir: string): string[] {
  if (r.argv) return gridArgvFor(r.argv, dir, true);
  return ['reproduce', r.recipe, '--run-dir', dir, '--shard', `${r.shard!.index}/${r.shard!.count}`, ...(r.limit !== null ? ['--limit', String(r.limit)] : [])];
}

/**
 * `recipeRuns`: the ids of the recipe's runs. A run dir under a shard's runs/ that is none of them (left
 * from another recipe's or an older version's grid) is not merged, so its files are not checked: it is
 * named as ignored (a warning), never a reason to refuse the merge.
 */
async function checkShardSet(dirs: string[], recipeRuns: ReadonlySet<string>): Promise<ReproductionFile[]> {
  if (dirs.length === 0) throw errors.usage('merge needs at least one shard dir');
  const repros: ReproductionFile[] = [];
  for (const d of dirs) {
    const r = await readReproduction(d);
    if (!r) throw errors.runInvalid(d, 'has no reproduction.json (not a `lexcase reproduce` run dir)');
    if (!r.shard) throw errors.runInvalid(d, 'is not a shard (it was run without --shard)');
    repros.push(r);
  }
  const first = repros[0];
  repros.forEach((r, i) => {
    if (r.recipe !== first.recipe || r.recipeSha256 !== first.recipeSha256)
      throw errors.runInvalid(
        dirs[i],
        `is from recipe ${r.recipe} (sha256 ${r.recipeSha256.slice(0, 12)}), not ${first.recipe} (sha256 ${first.recipeSha256.slice(0, 12)}) like ${dirs[0]}`,
      );
    if (r.limit !== first.limit) throw errors.runInvalid(dirs[i], `ran with --limit ${r.limit ?? 'none'}, ${dirs[0]} with ${first.limit ?? 'none'}`);
    if (r.shard!.count !== first.shard!.count)
      throw errors.runInvalid(dirs[i], `is shard ${r.shard!.index}/${r.shard!.count}, ${dirs[0]} is one of ${first.shard!.count}`);
  });
  const n = first.shard!.count;
  const byIndex = new Map<number, string>();
  repros.forEach((r, i) => {
    const other = byIndex.get(r.shard!.index);
    if (other) throw errors.runInvalid(dirs[i], `is shard ${r.shard!.index}/${n} again (also ${other})`);
    byIndex.set(r.shard!.index, dirs[i]);
  });
  // a shard a live `lexcase reproduce` still writes (retrying its failed items, say) holds results that are about to change
  for (const d of dirs) {
    const w = liveHolder(join(d, REPRODUCTION_LOCK));
    if (w)
      throw errors.runInvalid(
        d,
        `is still being written (${w.what}, pid ${w.pid}, since ${w.since}): its results can change before the merge ends; merge once it has finished`,
      );
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw errors.usage(
      `merge: shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${n}`).join(', ')} missing`,
      'pass every shard dir of the grid',
    );
  // checksums: each results.jsonl of a recipe run as its shard recorded it
  for (const [i, d] of dirs.entries()) {
    const sums = (await readJson<Record<string, string>>(join(d, 'checksums.json'))) ?? {};
    // a results.jsonl checksums.json does not record (the file gone, or the shard stopped before its reproduce
    // finished) cannot be checked: before, it was merged as it was, an edited or damaged copy included, and said nothing
    const runsDir = join(d, 'runs');
    const ignored = new Set<string>();
    for (const e of existsSync(runsDir) ? await readdir(runsDir, { withFileTypes: true }) : []) {
      const rel = `runs/${e.name}/${RUN_FILES.results}`;
      if (!e.isDirectory()) continue;
      if (!recipeRuns.has(e.name)) {
        ignored.add(e.name);
        continue;
      }
      if (existsSync(join(d, rel)) && sums[rel] === undefined)
        throw errors.runInvalid(
          d,
          `${rel} has no checksum in checksums.json (${existsSync(join(d, 'checksums.json')) ? 'it does not list it' : 'the file is missing'}): the merge cannot check it is the shard's own; copy the shard dir whole from its host, or resume it with \`lexcase ${shardResumeArgv(repros[i], d).join(' ')}\`${repros[i].model ? ' and the --endpoint it ran against' : ''} (it records the checksums when it finishes)`,
        );
    }
    for (const [rel, want] of Object.entries(sums)) {
      const run = /^runs\/([^/]+)\//.exec(rel)?.[1];
      if (run !== undefined && !recipeRuns.has(run)) {
        ignored.add(run);
        continue;
      }
      const f = join(d, rel);
      if (!existsSync(f)) throw errors.runInvalid(d, `${rel} is missing (checksums.json lists it)`);
      const got = sha256(await readFile(f));
      if (got !== want)
        throw errors.runInvalid(
          d,
          `${rel} does not match its checksum (sha256 ${got.slice(0, 12)}, recorded ${want.slice(0, 12)}): the copy is damaged or was changed after the run`,
        );
    }
    if (ignored.size)
      log.warn(`merge: ${d}/runs holds ${[...ignored].sort().join(', ')}, no run of recipe ${repros[i].recipe}: ignored (not merged, not checked)`);
  }
  return repros;
}

/** Copy a run dir's per-item files (traces, graphs…) except the files merge rebuilds. */
async function copyItemFiles(from: string, to: string): Promise<void> {
  // under-way/: a shard's requests of a killed attempt, counted by its resume (sent-journal.ts), not the merged run's
  const skip = new Set([RUN_FILES.results, RUN_FILES.config, RUN_FILES.reportMd, RUN_FILES.reportJson, 'shard.json', SENT_DIR]);
  for (const e of await readdir(from, { withFileTypes: true })) {
    if (skip.has(e.name)) continue;
    if (e.isDirectory()) await cp(join(from, e.name), join(to, e.name), { recursive: true, force: true });
  }
}

interface PlannedRun {
  runId: string;
  shards: { dir: string; shard: ShardFile; results: ResultRecord[]; config: Record<string, unknown>; resultsSha256: string }[];
  byId: Map<string, { rec: ResultRecord; dir: string }>;
  allIds: string[];
  /** Fields an older shard's lexcase did not record (resume-unrecorded.ts): the merge's warnings. */
  unchecked: string[];
  /** Shard run dirs whose shard.json (an older lexcase's) records no `allContentChecksum`: their items' text is not checked. */
  textUnchecked: string[];
}

/**
 * Two shards' configs (`there`: shard 1's, `here`: another's) compared as a resume compares a run dir's
 * config with the command's (compareRecordedConfig), the older shard as the recorded one: either may be
 * the older (shard 1 run before a field was recorded, or resumed after), so the other way round is
 * tried when the first way differs. Where both ways differ, the way that took unrecorded fields names
 * the difference (the roles it gave fit the shards), else the first.
 */
function compareShards(there: Record<string, unknown>, here: Record<string, unknown>): { older: 'there' | 'here'; compared: RecordedComparison } {
  const first = compareRecordedConfig(there, here, mergeComparable, ['there', 'here']);
  if (!first.difference) return { older: 'there', compared: first };
  const back = compareRecordedConfig(here, there, mergeComparable, ['here', 'there']);
  if (!back.difference || (back.unrecorded.length && !first.unrecorded.length)) return { older: 'here', compared: back };
  return { older: 'there', compared: first };
}

/**
 * The command that reruns a merged run: shard 1's, pointed at the merged dir and without --shard
 * (`lexcase reproduce … --run-dir OUT`, `lexcase run … --run-dir OUT/runs/<id>`). Before: shard 1's
 * own command, which resumed shard 1's run dir with every other shard's items.
 */
function mergedArgv(argv: readonly string[], out: string, runId: string, recipeArg?: string): string[] {
  return gridArgvFor(withRecipe(argv, recipeArg), argv[0] === 'reproduce' ? out : runDirOf(out, runId));
}

/**
 * A `reproduce` command with the recipe merge built the table from, where --recipe named it: the file
 * (or name) the user gave, not the one the shards' command named (a path on another host, or the
 * bundled recipe of that name). Other commands (`lexcase run …`) name no recipe.
 */
function withRecipe(argv: readonly string[], recipeArg: string | undefined): string[] {
  return argv[0] === 'reproduce' && recipeArg !== undefined && argv.length > 1 ? ['reproduce', recipeArg, ...argv.slice(2)] : [...argv];
}

/** Read and check one run across the shards (nothing is written). */
async function planMergeRun(runId: string, dirs: string[]): Promise<PlannedRun> {
  const shards: PlannedRun['shards'] = [];
  for (const d of dirs) {
    const rd = runDirOf(d, runId);
    const shard = await readJson<ShardFile>(join(rd, 'shard.json'));
    if (!shard) throw errors.runInvalid(rd, 'has no shard.json: this shard never started the run (resume it with the same --shard)');
    const config = (await readConfig(rd)) ?? {};
    // a shard past the items (--shard 3/3 of 2 items) ran none: an older lexcase wrote no results.jsonl for it
    const file = join(rd, RUN_FILES.results);
    const have = existsSync(file);
    if (!have && shard.keptIds.length)
      throw errors.runInvalid(rd, `has no ${RUN_FILES.results} for its ${shard.keptIds.length} items: resume that shard with the same --shard first`);
    const resultsSha256 = sha256(have ? await readFile(file) : '');
    shards.push({ dir: rd, shard, results: (await readResults(rd)).records, config, resultsSha256 });
  }
  // shard 1 first, whatever the order of the dirs given: the merged config and provenance are its own
  shards.sort((a, b) => a.shard.shard.index - b.shard.shard.index);
  const ref = shards[0];
  const unchecked: string[] = [];
  // the items' text against the first shard that records it: shard 1 of an older lexcase (no allContentChecksum) must
  // not leave shards 2 and 3 unchecked against each other
  const textRef = shards.find((s) => s.shard.allContentChecksum);
  for (const s of shards.slice(1)) {
    if (s.shard.allIdsSha256 !== ref.shard.allIdsSha256)
      throw errors.runInvalid(s.dir, `ran a different item list than ${ref.dir} (different data or --limit)`);
    // the same ids over other text (a question reworded in one host's copy of the data): refused, as a resume refuses an
    // edited item (resume-items.ts); before, the shards merged into one figure over two versions of the data, with no word
    if (s.shard.allContentChecksum && textRef?.shard.allContentChecksum && s.shard.allContentChecksum !== textRef.shard.allContentChecksum)
      throw errors.runInvalid(
        s.dir,
        `read other item text than ${textRef.dir} (the same ${ref.shard.allIds.length} item ids, but the question, options or text a model is shown differs: allContentChecksum ${s.shard.allContentChecksum.slice(0, 19)}… in its shard.json, ${textRef.shard.allContentChecksum.slice(0, 19)}… in ${textRef.dir}'s): the shards read different copies or versions of the data, and one figure over them would mix the two; run every shard over the same data (a shard run again goes into a new --run-dir)`,
      );
    // a shard's config against the first one's with the comparison a resume makes (resume-compare.ts), the index by its
    // content (merge-config.ts): a field the older shard's lexcase did not record is "unknown", not a difference
    const whole = (x: typeof ref): Record<string, unknown> => ({ seed: x.config.seed, ...unsharded(x.config.config) });
    const [there, here] = [whole(ref), whole(s)];
    // a shard whose lexcase drew its items' seeds otherwise (no `seedDerivation`: FNV-1a alone) is not part of one run
    // with the other: refused, as a replay refuses it, where a resume only warns that its new items are drawn otherwise
    if (stableJson(there.seedDerivation) !== stableJson(here.seedDerivation))
      throw errors.runInvalid(
        s.dir,
        `has a different config.json than ${ref.dir} (field "seedDerivation" differs: ${describeDifference('seedDerivation', there, here, ['there', 'here'])}): shards merge only when they ran the same settings over the same index; run the shard again into a new --run-dir`,
      );
    const { older, compared } = compareShards(there, here);
    if (compared.difference)
      throw errors.runInvalid(
        s.dir,
        `has a different config.json than ${ref.dir} (${compared.difference}): shards merge only when they ran the same settings over the same index; run the shard again into a new --run-dir`,
      );
    if (compared.unrecorded.length) {
      const [old, other] = older === 'here' ? [s.dir, ref.dir] : [ref.dir, s.dir];
      unchecked.push(
        `${old}/config.json was written by an older lexcase and ${unrecordedText(compared.unrecorded)}: the merge cannot check that its items were made with the same as ${other}'s`,
      );
    }
  }
  const byId = new Map<string, { rec: ResultRecord; dir: string }>();
  for (const s of shards) {
    const kept = new Set(s.shard.keptIds);
    for (const rec of s.results) {
      if (!kept.has(rec.id)) throw errors.runInvalid(s.dir, `item "${rec.id}" is not one of this shard's items`);
      const prev = byId.get(rec.id);
      if (prev) throw errors.runInvalid(s.dir, `item "${rec.id}" is also in ${prev.dir} (duplicate item)`);
      byId.set(rec.id, { rec, dir: s.dir });
    }
  }
  for (const id of ref.shard.allIds) {
    if (!byId.has(id)) {
      const owner = shards.find((s) => s.shard.keptIds.includes(id));
      throw errors.runInvalid(
        owner?.dir ?? ref.dir,
        `item "${id}" has no result (missing item): resume that shard with \`lexcase reproduce … --shard ${owner?.shard.shard.index ?? '?'}/${ref.shard.shard.count}\` first`,
      );
    }
  }
  const textUnchecked = shards.length > 1 ? shards.filter((s) => !s.shard.allContentChecksum).map((s) => s.dir) : [];
  return { runId, shards, byId, allIds: ref.shard.allIds, unchecked, textUnchecked };
}

/**
 * A shard's cell that failed only because none of its items succeeded (its `lexcase run` exited 1 after
 * running them all): reproduction.json's `noItemSucceeded`, or, as an older lexcase wrote it, the error line.
 */
const ranEveryItem = (s: RunState): boolean => s.status === 'failed' && (s.noItemSucceeded === true || NO_ITEM_LINE.test(s.error ?? ''));

const textUncheckedText = (dirs: readonly string[]): string =>
  `${dirs.join(', ')} ${dirs.length === 1 ? 'was' : 'were'} written by an older lexcase, whose shard.json records no checksum of the items' text (allContentChecksum): the merge cannot check that the shards read the same question text (only the item ids are checked)`;

async function writeMergedRun(p: PlannedRun, out: string): Promise<{ items: number; warnings: string[] }> {
  const ref = p.shards[0];
  const to = runDirOf(out, p.runId);
  await mkdir(join(to, RUN_FILES.traces), { recursive: true });
  for (const s of p.shards) await copyItemFiles(s.dir, to);
  await writeFile(join(to, RUN_FILES.results), p.allIds.map((id) => jsonLine(p.byId.get(id)!.rec)).join(''));
  // config.json: the merged run's item count and dataset checksum (as the unsharded run records them),
  // and each shard's own count, dataset checksum and results.jsonl checksum
  const merged = p.allIds.map((id) => p.byId.get(id)!.rec);
  const prov = ref.config.provenance as Record<string, unknown> | undefined;
  const config = unsharded(ref.config.config);
  // each shard's code, start and resumes (the merged provenance is shard 1's, with every shard's git sha where they differ)
  const mergedFrom = p.shards.map((s) => {
    const sp = s.config.provenance as { datasetChecksum?: string } | undefined;
    return {
      dir: s.dir,
      shard: s.shard.shard,
      items: s.results.length,
      datasetChecksum: sp?.datasetChecksum ?? null,
      resultsSha256: s.resultsSha256,
      ...shardProvenance(s.config, config),
    };
  });
  const mixed = mixedCodeWarning(p.runId, mergedFrom);
  // what the merge could not check (a field an older shard did not record), then the shards' code
  const warnings = [...p.unchecked.map((u) => `run ${p.runId}: ${u}`), ...(mixed ? [mixed] : [])];
  // recorded in the run's config.json; said once for the whole merge (textUncheckedNote)
  const textNote = p.textUnchecked.length ? [`run ${p.runId}: ${textUncheckedText(p.textUnchecked)}`] : [];
  // shards that ran different code: the provenance names every sha with its shards and items (gitSha stays shard 1's, a string)
  const gitShas = mergedGitShas(mergedFrom);
  // the items' text checksum over the merged items, where every record has one (shards of an older lexcase: none)
  const { contentChecksum: _shard1Content, ...provRest } = prov ?? {};
  const content = datasetContentChecksum(merged);
  // every shard's interrupts (the requests of items under way then, in no results.jsonl line), each with its shard: before,
  // shard 1's alone (its config.json's), and report.md's request count left out the other shards' under-way requests
  const interrupts = p.shards.flatMap((s) =>
    Array.isArray(s.config.interrupts) ? (s.config.interrupts as object[]).map((x) => ({ ...x, shard: s.shard.shard.index })) : [],
  );
  // every shard's resumes, each with its shard (eval/run-resumes.ts): before, shard 1's alone, so report.md's
  // "resumed" left out the other shards' and their interrupts had no resume that ran their items again
  const resumes = shardResumes(mergedFrom);
  const { interrupts: _shard1Interrupts, resumes: _shard1Resumes, ...refConfig } = ref.config;
  await writeJsonAtomic(join(to, RUN_FILES.config), {
    ...refConfig,
    ...(interrupts.length ? { interrupts } : {}),
    ...(resumes.length ? { resumes } : {}),
    config,
    ...(prov
      ? {
          provenance: {
            ...provRest,
            ...(gitShas.length > 1 ? { gitShas } : {}),
            items: merged.length,
            datasetChecksum: datasetChecksum(
              merged,
              (r: ResultRecord) => r.gold,
              (r: ResultRecord) => r.itemChecksum,
            ),
            ...(content ? { contentChecksum: content } : {}),
          },
        }
      : {}),
    mergedItems: merged.length,
    mergedFrom,
    ...(warnings.length || textNote.length ? { mergeWarnings: [...warnings, ...textNote] } : {}),
  });
  await writeReport(to);
  return { items: p.allIds.length, warnings };
}

/**
 * The recipe the merged table is built with against the one the shards ran (reproduction.json's
 * recipeSha256): the same name can be another text (the shards ran a copy of the recipe given by path,
 * or another lexcase's). Before, merge built the table from the recipe of that name with no word, its
 * rows, metrics and paper figures other than the shards'. Taken by name, another text is refused; given
 * with --recipe, it is the user's choice and only warned about.
 */
function checkTableRecipe(shardSha: string, shardDir: string, source: { file: string; text: string; explicit: boolean }): string[] {
  const got = sha256(source.text);
  if (got === shardSha) return [];
  const what = `the recipe ${source.file} (sha256 ${got.slice(0, 12)}) is not the one the shards ran (sha256 ${shardSha.slice(0, 12)}, ${shardDir}/reproduction.json)`;
  if (!source.explicit)
    throw errors.usage(
      `merge: ${what}: its rows, metrics and paper figures may differ from the shards'`,
      'pass --recipe FILE with the recipe file the shards ran (or, to build the table from another recipe, name it with --recipe and it is taken with a warning)',
    );
  return [`${what}: the table is built from it as --recipe asks; its rows, metrics and paper figures may differ from those the shards ran`];
}

/** Put OUT back as merge found it: removed when merge made it, emptied when it was an empty dir. */
async function undoMerge(out: string, existed: boolean): Promise<void> {
  if (!existed) return rm(out, { recursive: true, force: true });
  for (const e of await readdir(out)) await rm(join(out, e), { recursive: true, force: true });
}

export interface MergeResult {
  out: string;
  shards: number;
  runs: { id: string; status: string; items?: number }[];
  table: TableJson;
  tableMd: string;
  /** A field an older shard did not record (resume-unrecorded.ts), the shards of a run ran different code (merge-config.ts mixedCodeWarning); also on stderr and in the run's config.json and report.md. */
  warnings?: string[];
}

/**
 * Merge into `out`, which must be new or empty (the shared output-dir rule: never the working
 * directory, a shard dir or a folder holding one, never a directory with anything in it). Every
 * shard and run is read and checked before anything is written; `out` is locked meanwhile.
 */
export async function mergeShards(
  out: string,
  dirs: string[],
  recipe: Recipe,
  source?: { file: string; text: string; explicit: boolean; arg?: string },
): Promise<MergeResult> {
  // the recipe the rerun commands name: the one --recipe gave, as given
  const recipeArg = source?.explicit ? (source.arg ?? source.file) : undefined;
  checkOutputDir(out, { what: 'the merged reproduction', hint: 'merge into a new or empty directory' }, dirs, [INDEX_DIR, RUN_DIR]);
  const repros = await checkShardSet(dirs, new Set(recipe.runs.map((r) => r.id)));
  if (repros[0].recipe !== recipe.id) throw errors.usage(`merge: the shards are from recipe ${repros[0].recipe}, not ${recipe.id}`);
  const recipeWarnings = source ? checkTableRecipe(repros[0].recipeSha256, dirs[0], source) : [];
  for (const w of recipeWarnings) log.warn(`merge: ${w}`);
  const plans: { run: Recipe['runs'][number]; plan?: PlannedRun; states: (RunState | undefined)[] }[] = [];
  for (const run of recipe.runs) {
    const states = repros.map((r) => r.runs.find((s) => s.id === run.id));
    const started = dirs.some((d) => existsSync(join(runDirOf(d, run.id), 'shard.json')));
    plans.push({ run, states, ...(started ? { plan: await planMergeRun(run.id, dirs) } : {}) });
  }
  const existed = existsSync(out);
  await mkdir(join(out, 'runs'), { recursive: true });
  const lock = lockReproductionDir(out, 'merge');
  let done = false;
  try {
    checkOutputDir(
      out,
      {
        what: 'the merged reproduction',
        existing: (_d, entries) =>
          entries.every((e) => e === 'runs' || e.startsWith(REPRODUCTION_LOCK)) ? undefined : { reason: 'something else is writing into it' },
      },
      dirs,
    );
    const runs: RunState[] = [];
    const summary: MergeResult['runs'] = [];
    const warnings: string[] = [...recipeWarnings];
    // shards of an older lexcase (no allContentChecksum): one note for the whole merge, naming every such shard run dir
    const textUnchecked = plans.flatMap((x) => x.plan?.textUnchecked ?? []);
    if (textUnchecked.length) {
      const note = `merge: ${textUncheckedText(textUnchecked)}`;
      log.warn(note);
      warnings.push(note.slice('merge: '.length));
    }
    for (const { run, plan, states } of plans) {
      if (!plan) {
        const s = states.find((x) => x);
        if (!s) {
          // no shard was asked to run it (left out by --only in every shard): "not run", as in the
          // unsharded reproduction, which records no state for it either
          summary.push({ id: run.id, status: 'not run' });
          continue;
        }
        // a shard was asked and it never reached the runner (unavailable here, no endpoint, no dense
        // index…) or did not finish: its own status, and never "done" without results
        runs.push({ ...s, status: s.status === 'done' ? 'failed' : s.status });
        summary.push({ id: run.id, status: runs[runs.length - 1].status });
        continue;
      }
      // a shard whose run did not finish (it failed: a resume refused for a changed config, an error midway): the
      // merged run failed, as the unsharded reproduction's would — before, it was "done" with whatever results the
      // shards' run dirs held from an earlier attempt, printed as the recipe's figures
      // a shard all of whose items failed ran to its end (its run exits 1, "no item succeeded"): its items are merged,
      // and whether no item succeeded is decided over the whole run below — before, the whole run was dropped as
      // failed when another shard's items succeeded (the unsharded run's figure became "— (failed)", merge exit 0)
      const unfinished = states.findIndex((x) => x !== undefined && x.status !== 'done' && !ranEveryItem(x));
      if (unfinished >= 0) {
        const s = states[unfinished]!;
        const error = `shard ${unfinished + 1} (${dirs[unfinished]}): ${s.status}${s.error ? ` — ${s.error}` : ''}`;
        runs.push({ ...s, status: 'failed', error });
        summary.push({ id: run.id, status: 'failed' });
        const note = `run ${run.id} is failed in the merge: ${error}`;
        log.warn(`merge: ${note}`);
        warnings.push(note);
        continue;
      }
      const written = await writeMergedRun(plan, out);
      for (const warning of written.warnings) {
        log.warn(`merge: ${warning}`);
        warnings.push(warning);
      }
      const { items } = written;
      const argv = states.find((x) => x?.argv)?.argv;
      const rerun = argv ? { argv: mergedArgv(argv, out, run.id, recipeArg) } : {};
      // no item of the merged run succeeded: failed, as the unsharded run's `lexcase run` exits 1 and its cell is failed
      const none = noItemSucceeded(plan.allIds.map((id) => plan.byId.get(id)!.rec));
      if (none !== undefined) {
        runs.push({ id: run.id, system: run.system, status: 'failed', ...rerun, error: none, noItemSucceeded: true });
        summary.push({ id: run.id, status: 'failed', items });
        const note = `run ${run.id} is failed in the merge: ${none}`;
        log.warn(`merge: ${note}`);
        warnings.push(note);
        continue;
      }
      runs.push({ id: run.id, system: run.system, status: 'done', ...rerun });
      summary.push({ id: run.id, status: 'done', items });
    }
    const now = new Date().toISOString();
    const argv = repros[0].argv ? { argv: gridArgvFor(withRecipe(repros[0].argv, recipeArg), out) } : {};
    const repro: ReproductionFile = { ...repros[0], shard: null, ...argv, createdAt: now, updatedAt: now, runs };
    await writeJsonAtomic(reproductionPath(out), { ...repro, mergedFrom: dirs });
    await writeChecksums(
      out,
      recipe.runs.map((r) => r.id),
    );
    const { table, markdown } = await writeTable(out, recipe, repro);
    done = true;
    return { out, shards: dirs.length, runs: summary, table, tableMd: markdown, ...(warnings.length ? { warnings } : {}) };
  } finally {
    lock.release();
    // a merge that stopped midway leaves OUT as it found it (new or empty), so the retry is not refused for its half
    if (!done) await undoMerge(out, existed).catch(() => undefined);
  }
}
