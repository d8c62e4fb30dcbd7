/**
 * A run that is refused or stops before it records any item (a replay whose flags differ from the
 * recording's, a setup error) leaves its run dir as it found it, so the corrected command is not
 * refused for what the failed one wrote ("field jurors differs"):
 *
 *   const before = await openRunDir(dir);   // mkdir (noting what it created); call under the run lock
 *   … the run fails, having recorded nothing …
 *   await undoRunStart(dir, before);        // entries it created removed, a config.json it rewrote put back
 *   removeCreatedDirs(before);              // after the lock is released: the dirs mkdir made, if empty
 *
 * Only what this run made goes: `before` lists the entries the dir held when the run took its lock,
 * and nothing else writes there while the lock is held.
 */
import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { RUN_FILES, configPath } from './run-dir.js';
import { SENT_DIR } from './sent-journal.js';

export interface RunDirBefore {
  dir: string;
  /** The first directory `mkdir -p` created for the run dir (itself or an ancestor); undefined when it existed. */
  created?: string;
  /** Entries of the dir when the run took its lock. */
  entries?: Set<string>;
  /** config.json's bytes then, when it had one. */
  config?: Buffer;
}

/** Create the run dir (and parents) and note which directories that created. */
export async function makeRunDir(dir: string): Promise<RunDirBefore> {
  const created = await mkdir(dir, { recursive: true });
  return { dir: resolve(dir), ...(created ? { created: resolve(created) } : {}) };
}

/** Note what the run dir holds now (call once the run holds its lock). */
export function noteRunDir(before: RunDirBefore): void {
  before.entries = new Set(readdirSync(before.dir));
  try {
    before.config = readFileSync(configPath(before.dir));
  } catch {
    before.config = undefined;
  }
}

/** Remove what a run that recorded nothing created in its dir, and put back a config.json it rewrote. */
export async function undoRunStart(before: RunDirBefore): Promise<void> {
  const { dir, entries } = before;
  if (!entries) return;
  if (before.config) {
    const tmp = `${configPath(dir)}.tmp-${process.pid}`;
    await writeFile(tmp, before.config);
    await rename(tmp, configPath(dir));
  }
  for (const name of [RUN_FILES.config, RUN_FILES.results, RUN_FILES.traces, RUN_FILES.llm, SENT_DIR]) {
    if (!entries.has(name)) await rm(join(dir, name), { recursive: true, force: true });
  }
}

/** Remove the directories makeRunDir created, deepest first, while they are empty (after the lock is gone). */
export function removeCreatedDirs(before: RunDirBefore): void {
  if (!before.created) return;
  for (let d = before.dir; ; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty (another file, a lock still held): keep it and everything above
    }
    if (d === before.created || dirname(d) === d) return;
  }
}
