/**
 * `lexcase merge <out> <shardDir>…`: join the run dirs of `reproduce --shard i/n` (one per host)
 * into one reproduction dir, as if the grid had run on one machine. Refuses, naming the shard and
 * the item, unless: every shard 1..n is there once, all come from the same recipe (sha256) and
 * --limit, every results.jsonl still has the checksum its shard recorded, each run's config and
 * seed agree across shards, every item of a run is in exactly one shard (no duplicate, no missing
 * item: a shard that stopped early must be resumed first). Results are written in the unsharded
 * item order; traces and per-item files are copied; report.md and the table are rebuilt.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../../core/errors.js';
import { writeReport } from '../report/write-report.js';
import { RUN_FILES, readConfig, readResults, writeJsonAtomic } from '../run-dir.js';
import type { ResultRecord } from '../types.js';
import type { Recipe } from './recipe.js';
import { readReproduction, reproductionPath, runDirOf, sha256, writeChecksums, type ReproductionFile, type RunState } from './reproduction-dir.js';
import { writeTable, type TableJson } from './table.js';

interface ShardFile {
  shard: { index: number; count: number };
  allIdsSha256: string;
  allIds: string[];
  keptIds: string[];
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, val) => (val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => a.localeCompare(b))) : val));

async function readJson<T>(file: string): Promise<T | undefined> {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (e) {
    throw errors.fileParse(file, undefined, `not valid JSON: ${(e as Error).message}`);
  }
}

async function checkShardSet(dirs: string[]): Promise<ReproductionFile[]> {
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
    if (r.recipe !== first.recipe || r.recipeSha256 !== first.recipeSha256) throw errors.runInvalid(dirs[i], `is from recipe ${r.recipe} (sha256 ${r.recipeSha256.slice(0, 12)}), not ${first.recipe} (sha256 ${first.recipeSha256.slice(0, 12)}) like ${dirs[0]}`);
    if (r.limit !== first.limit) throw errors.runInvalid(dirs[i], `ran with --limit ${r.limit ?? 'none'}, ${dirs[0]} with ${first.limit ?? 'none'}`);
    if (r.shard!.count !== first.shard!.count) throw errors.runInvalid(dirs[i], `is shard ${r.shard!.index}/${r.shard!.count}, ${dirs[0]} is one of ${first.shard!.count}`);
  });
  const n = first.shard!.count;
  const byIndex = new Map<number, string>();
  repros.forEach((r, i) => {
    const other = byIndex.get(r.shard!.index);
    if (other) throw errors.runInvalid(dirs[i], `is shard ${r.shard!.index}/${n} again (also ${other})`);
    byIndex.set(r.shard!.index, dirs[i]);
  });
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) throw errors.usage(`merge: shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${n}`).join(', ')} missing`, 'pass every shard dir of the grid');
  // checksums: each results.jsonl as its shard recorded it
  for (const d of dirs) {
    const sums = (await readJson<Record<string, string>>(join(d, 'checksums.json'))) ?? {};
    for (const [rel, want] of Object.entries(sums)) {
      const f = join(d, rel);
      if (!existsSync(f)) throw errors.runInvalid(d, `${rel} is missing (checksums.json lists it)`);
      const got = sha256(await readFile(f));
      if (got !== want) throw errors.runInvalid(d, `${rel} does not match its checksum (sha256 ${got.slice(0, 12)}, recorded ${want.slice(0, 12)}): the copy is damaged or was changed after the run`);
    }
  }
  return repros;
}

/** Copy a run dir's per-item files (traces, graphs…) except the files merge rebuilds. */
async function copyItemFiles(from: string, to: string): Promise<void> {
  const skip = new Set([RUN_FILES.results, RUN_FILES.config, RUN_FILES.reportMd, RUN_FILES.reportJson, 'shard.json']);
  for (const e of await readdir(from, { withFileTypes: true })) {
    if (skip.has(e.name)) continue;
    if (e.isDirectory()) await cp(join(from, e.name), join(to, e.name), { recursive: true, force: true });
  }
}

async function mergeRun(runId: string, dirs: string[], out: string): Promise<{ items: number }> {
  const shards: { dir: string; shard: ShardFile; results: ResultRecord[]; config: Record<string, unknown> }[] = [];
  for (const d of dirs) {
    const rd = runDirOf(d, runId);
    const shard = await readJson<ShardFile>(join(rd, 'shard.json'));
    if (!shard) throw errors.runInvalid(rd, 'has no shard.json: this shard never started the run (resume it with the same --shard)');
    const config = (await readConfig(rd)) ?? {};
    shards.push({ dir: rd, shard, results: (await readResults(rd)).records, config });
  }
  const ref = shards[0];
  for (const s of shards.slice(1)) {
    if (s.shard.allIdsSha256 !== ref.shard.allIdsSha256) throw errors.runInvalid(s.dir, `ran a different item list than ${ref.dir} (different data or --limit)`);
    if (stable(s.config.config) !== stable(ref.config.config) || s.config.seed !== ref.config.seed) throw errors.runInvalid(s.dir, `has a different config.json than ${ref.dir}`);
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
      throw errors.runInvalid(owner?.dir ?? ref.dir, `item "${id}" has no result (missing item): resume that shard with \`lexcase reproduce … --shard ${owner?.shard.shard.index ?? '?'}/${ref.shard.shard.count}\` first`);
    }
  }
  const to = runDirOf(out, runId);
  await mkdir(join(to, RUN_FILES.traces), { recursive: true });
  for (const s of shards) await copyItemFiles(s.dir, to);
  await writeFile(join(to, RUN_FILES.results), ref.shard.allIds.map((id) => JSON.stringify(byId.get(id)!.rec) + '\n').join(''));
  await writeJsonAtomic(join(to, RUN_FILES.config), { ...ref.config, mergedFrom: shards.map((s) => ({ dir: s.dir, shard: s.shard.shard, items: s.results.length })) });
  await writeReport(to);
  return { items: ref.shard.allIds.length };
}

export interface MergeResult {
  out: string;
  shards: number;
  runs: { id: string; status: string; items?: number }[];
  table: TableJson;
  tableMd: string;
}

export async function mergeShards(out: string, dirs: string[], recipe: Recipe): Promise<MergeResult> {
  if (existsSync(reproductionPath(out))) throw errors.runInvalid(out, 'already holds a reproduction; merge into a new dir');
  const repros = await checkShardSet(dirs);
  if (repros[0].recipe !== recipe.id) throw errors.usage(`merge: the shards are from recipe ${repros[0].recipe}, not ${recipe.id}`);
  await mkdir(join(out, 'runs'), { recursive: true });
  const runs: RunState[] = [];
  const summary: MergeResult['runs'] = [];
  for (const run of recipe.runs) {
    const states = repros.map((r) => r.runs.find((s) => s.id === run.id));
    const started = dirs.some((d) => existsSync(join(runDirOf(d, run.id), 'shard.json')));
    if (!started) {
      // never reached the runner on any host (unavailable here, no endpoint, no dense index…)
      const s = states.find((x) => x) ?? { id: run.id, system: run.system, status: 'failed' as const, error: 'not run by any shard' };
      runs.push({ ...s, status: s.status === 'done' ? 'failed' : s.status });
      summary.push({ id: run.id, status: runs[runs.length - 1].status });
      continue;
    }
    const { items } = await mergeRun(run.id, dirs, out);
    runs.push({ id: run.id, system: run.system, status: 'done', ...(states[0]?.argv ? { argv: states[0].argv } : {}) });
    summary.push({ id: run.id, status: 'done', items });
  }
  const now = new Date().toISOString();
  const repro: ReproductionFile = { ...repros[0], shard: null, createdAt: now, updatedAt: now, runs };
  await writeJsonAtomic(reproductionPath(out), { ...repro, mergedFrom: dirs });
  await writeChecksums(out, recipe.runs.map((r) => r.id));
  const { table, markdown } = await writeTable(out, recipe, repro);
  return { out, shards: dirs.length, runs: summary, table, tableMd: markdown };
}
