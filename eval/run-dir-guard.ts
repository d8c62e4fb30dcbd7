/**
 * The output-dir rule and the lock for run directories (`lexcase run <system> --run-dir DIR`, the
 * runs of `reproduce`, the library's runExperiment): the shared rule of core/out-dir-rule.ts with
 * the run's own kind, and core/dir-lock.ts's advisory lock at `DIR/run.lock`.
 *
 * A run may write to a new or empty directory, or resume a run directory: one whose config.json is
 * a lexcase run config (`seed`, `config`), or — a run killed before it wrote config.json — one
 * holding only run entries. Refused (OUT_DIR_REFUSED): the working directory and its parents, a
 * file, a non-empty directory that is not a run. While a run writes, it holds `run.lock`: a second
 * run of the same directory (another process) gets LOCKED naming the first, instead of running the
 * same items again into the same results.jsonl.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, liveHolder, type DirLock, type LockInfo } from '../core/dir-lock.js';
import { checkOutputDir, listed, type ProtectedDir } from '../core/out-dir-rule.js';
import { INDEX_DIR } from '../indexer/out-dir.js';
import { RUN_FILES } from './run-files.js';

export const RUN_LOCK = 'run.lock';

/**
 * What a run dir holds without config.json: a run killed at its very start, or one that stopped before
 * it recorded an item after its items had sent requests (their journal, under-way/, kept for the next
 * run to count: run-start-undo.ts).
 */
const EARLY_ENTRIES = new Set([RUN_FILES.traces, RUN_FILES.results, RUN_FILES.underWay, RUN_LOCK, `${RUN_LOCK}.break`]);

function isRunConfig(dir: string): boolean {
  try {
    const v = JSON.parse(readFileSync(join(dir, RUN_FILES.config), 'utf8')) as { seed?: unknown; config?: unknown };
    return typeof v?.seed === 'number' && !!v.config && typeof v.config === 'object';
  } catch {
    return false;
  }
}

/** A lexcase run dir (its config.json is a run config): no output file of another command is written inside it. */
export const RUN_DIR: ProtectedDir = { what: 'a lexcase run dir', is: isRunConfig };

/** Throws OUT_DIR_REFUSED unless `dir` may be written as a run (new, empty, or a run dir to resume). */
export function checkRunDirOut(dir: string): void {
  checkOutputDir(
    dir,
    {
      what: 'a run',
      hint: 'choose a new or empty --run-dir, or an existing run dir to resume',
      existing: (target, entries) => {
        if (entries.includes(RUN_FILES.config)) {
          return isRunConfig(target) ? undefined : { reason: 'its config.json is not the config of a lexcase run' };
        }
        const other = entries.filter((e) => !EARLY_ENTRIES.has(e) && !e.startsWith(`${RUN_FILES.config}.tmp-`) && !e.startsWith(`${RUN_FILES.results}.tmp-`));
        return other.length ? { reason: `it is a non-empty directory that is not a lexcase run (no config.json; it holds ${listed(other)})` } : undefined;
      },
    },
    [],
    [INDEX_DIR, RUN_DIR],
  );
}

/** Take `dir/run.lock` for `what` (e.g. "run case"); LOCKED when another live process holds it. */
export function lockRunDir(dir: string, what: string): DirLock {
  return acquireLock(join(dir, RUN_LOCK), dir, what);
}

/** The live process writing `dir` (holding its run.lock), or undefined: no run is writing it (done, stopped or killed). */
export function runWriter(dir: string): LockInfo | undefined {
  return liveHolder(join(dir, RUN_LOCK));
}
