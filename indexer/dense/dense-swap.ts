/**
 * The swap of `index dense --rebuild` (rebuild-dense.ts) is two renames: the index's `dense/` aside
 * to `.dense-old-<pid>/`, then the staged `.dense-rebuild-<pid>/dense/` in its place, then the
 * manifest. A process killed exactly between the two renames leaves no `dense/` at all (the manifest
 * still records the old part): searches failed on the missing table, and the next `--rebuild` removed
 * the part set aside as a leftover.
 *
 * restoreDenseSwap(dir) notices that state and puts the old part back (it is the one the manifest
 * and dense-build.json describe, so the index is whole again as it was before the rebuild), removes
 * the stage and says so in one line. It is called by every command that opens the index
 * (openRetriever: search, batch search, eval retrieval, serve, the explorer) and by `index dense` with and without
 * --rebuild, before anything else. It acts under the index dir's lock only: while a live process
 * holds it the swap may be under way, and the dir is left alone.
 */
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireLock, liveHolder } from '../../core/dir-lock.js';
import { log } from '../../core/log.js';
import { realpathLoose } from '../../core/out-dir-rule.js';
import { DEFAULT_DENSE_URI } from './dense-section.js';

/** `<dir>/.dense-rebuild-<pid>/`: the new part while it is built. */
export const STAGE_PREFIX = '.dense-rebuild-';
/** `<dir>/.dense-old-<pid>/`: the old part during the swap. */
export const OLD_PREFIX = '.dense-old-';

/**
 * For a caller that holds the index dir's lock: no `dense/` and a `.dense-old-<pid>/` beside it put
 * back (its stage removed), with one line on stderr. Returns whether it did.
 */
export async function restoreDenseSwapLocked(dir: string): Promise<boolean> {
  const live = join(dir, DEFAULT_DENSE_URI);
  if (existsSync(live)) return false;
  const aside = (await readdir(dir)).filter((e) => e.startsWith(OLD_PREFIX)).sort();
  if (aside.length === 0) return false;
  const name = aside[aside.length - 1]!;
  await rename(join(dir, name), live);
  const stage = `${STAGE_PREFIX}${name.slice(OLD_PREFIX.length)}`;
  await rm(join(dir, stage), { recursive: true, force: true });
  log.warn(
    `${dir}: put dense/ back from ${name}, where an \`index dense --rebuild\` stopped between its two renames had left it; the dense part is the one the index had before (the one its manifest records); rerun the --rebuild to replace it`,
  );
  return true;
}

/**
 * For a command that opens the index (no lock held): restoreDenseSwapLocked under the index dir's
 * lock, taken only when that state is there and no live writer holds the lock.
 */
export async function restoreDenseSwap(dir: string): Promise<void> {
  if (existsSync(join(dir, DEFAULT_DENSE_URI))) return;
  // retrievers of one index opened at once wait for the one restore
  const key = realpathLoose(dir);
  let p = inFlight.get(key);
  if (!p) {
    p = restoreUnlocked(dir).finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  await p;
}

const inFlight = new Map<string, Promise<void>>();

async function restoreUnlocked(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return; // no index dir: opening it says so
  }
  if (!entries.some((e) => e.startsWith(OLD_PREFIX))) return;
  const lockPath = `${realpathLoose(dir)}.lock`;
  if (liveHolder(lockPath)) return; // a writer at work: maybe the swap itself
  let lock: ReturnType<typeof acquireLock>;
  try {
    lock = acquireLock(lockPath, dir, 'opening the index');
  } catch {
    return; // a writer took it meanwhile
  }
  try {
    await restoreDenseSwapLocked(dir);
  } finally {
    lock.release();
  }
}
