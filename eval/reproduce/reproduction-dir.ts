/**
 * The files of a reproduction dir that the runner (run-grid.ts), the table (table.ts) and the merge
 * (merge.ts) share: reproduction.json, runs/<runId>/, checksums.json (layout: run-grid.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../../core/errors.js';
import { resultsPath, writeJsonAtomic } from '../run-dir.js';
import type { Shard } from './shard.js';
import { acquireLock, type DirLock } from '../../core/dir-lock.js';

export type RunStatus = 'done' | 'failed' | 'unavailable';

export interface RunState {
  id: string;
  system: string;
  status: RunStatus;
  argv?: string[];
  error?: string;
  /**
   * The cell ran every item and each failed (its `lexcase run` exited 1 with "no item succeeded"): a
   * shard's own outcome, which a merge does not take for the whole run's — it decides over the merged
   * items (merge.ts). Absent in a reproduction.json an older lexcase wrote (merge reads the error line).
   */
  noItemSucceeded?: true;
}

export interface ReproductionFile {
  recipe: string;
  recipeSha256: string;
  limit: number | null;
  shard: Shard | null;
  model: string | null;
  /**
   * The command that reruns the whole grid (`reproduce <recipe>` without `lexcase`): what the grid
   * was given that its cells depend on — --index, --data, --config, --no-cache, --llm-provider,
   * --replay, --run-dir, --shard, --limit, --model — as each cell's argv keeps them (not --endpoint:
   * its URL may hold credentials); absent in a reproduction.json an older lexcase wrote.
   */
  argv?: string[];
  createdAt: string;
  updatedAt: string;
  runs: RunState[];
}

/** A grid's whole command (`argv`) for another dir: the unsharded one a merge writes into `dir`, or (`keepShard`) the shard's own where it lies now. */
export function gridArgvFor(argv: string[], dir: string, keepShard = false): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--shard' && !keepShard) i++;
    else if (argv[i] === '--run-dir') out.push('--run-dir', dir), i++;
    else out.push(argv[i]);
  }
  return out;
}

export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
export const reproductionPath = (dir: string) => join(dir, 'reproduction.json');
export const runDirOf = (dir: string, runId: string) => join(dir, 'runs', runId);

export async function readReproduction(dir: string): Promise<ReproductionFile | undefined> {
  if (!existsSync(reproductionPath(dir))) return undefined;
  try {
    return JSON.parse(await readFile(reproductionPath(dir), 'utf8')) as ReproductionFile;
  } catch (e) {
    throw errors.runInvalid(dir, `reproduction.json is not valid JSON: ${(e as Error).message}`);
  }
}

export async function writeChecksums(dir: string, runIds: string[]): Promise<Record<string, string>> {
  const sums: Record<string, string> = {};
  for (const id of runIds) {
    const f = resultsPath(runDirOf(dir, id));
    if (existsSync(f)) sums[`runs/${id}/results.jsonl`] = sha256(await readFile(f));
  }
  await writeJsonAtomic(join(dir, 'checksums.json'), sums);
  return sums;
}

/**
 * The results files of `dir` that checksums.json (written when a reproduce of it last finished)
 * lists and that differ from it now: `rel`, the sha256 now ('missing' when gone) and the recorded one.
 */
export async function changedSinceChecksums(dir: string): Promise<{ rel: string; got: string; want: string }[]> {
  const file = join(dir, 'checksums.json');
  if (!existsSync(file)) return [];
  let sums: Record<string, unknown>;
  try {
    sums = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return [];
  }
  const out: { rel: string; got: string; want: string }[] = [];
  for (const [rel, want] of Object.entries(sums ?? {})) {
    if (typeof want !== 'string') continue;
    const f = join(dir, rel);
    const got = existsSync(f) ? sha256(await readFile(f)) : 'missing';
    if (got !== want) out.push({ rel, got, want });
  }
  return out;
}

export const REPRODUCTION_LOCK = 'reproduce.lock';

/** Take `dir/reproduce.lock` for `what` (reproduce, merge): LOCKED when another live process holds it. */
export function lockReproductionDir(dir: string, what: string): DirLock {
  return acquireLock(join(dir, REPRODUCTION_LOCK), dir, what);
}
