/**
 * A run that is refused or stops before it records any item (a replay whose flags differ from the
 * recording's, a setup error, an endpoint the deferred preflight finds unusable) leaves its run dir as
 * it found it, so the corrected command is not refused for what the failed one wrote ("field jurors
 * differs") and a resume that fails loses nothing the earlier attempts recorded:
 *
 *   const before = await makeRunDir(dir);   // mkdir (noting what it created)
 *   noteRunDir(before);                     // under the run lock: its entries and the files a resume rewrites
 *   … the run fails, having recorded nothing …
 *   await undoRunStart(before);             // entries it created removed, the files it rewrote put back
 *   removeCreatedDirs(before);              // after the lock is released: the dirs mkdir made, if empty
 *
 * The files a resume rewrites before its first item are put back byte for byte: config.json (its
 * `resumes` entry, a killed attempt's `interrupts` entry), results.jsonl (a cut-off last line, lines
 * superseded by later ones), llm/model.json and the request journal under-way/ (eval/sent-journal.ts:
 * its record of a killed attempt moves into config.json when the resume starts). Before, only
 * config.json was put back: a resume that failed before its first item (refused for its seed, a setup
 * error) left results.jsonl's cut-off line truncated and the killed attempt's journal removed, so the
 * next resume recorded neither (no `cutTail`, no `interrupts` entry, its requests in no count).
 *
 * Only what this run made goes: `before` lists the entries the dir held when the run took its lock,
 * and nothing else writes there while the lock is held.
 *
 * Except the requests it sent (keptRequests): an item that sent requests and got no record (a full
 * disk at its first write, a sibling's setup error) leaves its request journal (under-way/, beside an
 * earlier attempt's lines), so the next run of the dir, a resume or a new run, records them in
 * config.json `interrupts` (killed-attempt.ts) and report.md counts them: what the endpoint was paid
 * for is never undone. A dir that held no run then holds under-way/ alone, which the run-dir rule
 * accepts (run-dir-guard.ts).
 */
import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { RUN_FILES, writeAtomic } from './run-dir.js';
import { killedAttempts, SENT_DIR } from './sent-journal.js';

export interface RunDirBefore {
  dir: string;
  /** The first directory `mkdir -p` created for the run dir (itself or an ancestor); undefined when it existed. */
  created?: string;
  /** Entries of the dir when the run took its lock. */
  entries?: Set<string>;
  /** The bytes then of the files a run may rewrite before its first item (config.json, results.jsonl, llm/model.json, under-way/*), by path in the dir. */
  files?: Map<string, Buffer>;
}

/** The files (paths in the run dir) a run may rewrite before it records an item; under-way/'s are listed when noted. */
const REWRITTEN = [RUN_FILES.config, RUN_FILES.results, join(RUN_FILES.llm, 'model.json')];

const readOrUndefined = (file: string): Buffer | undefined => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};

/** Create the run dir (and parents) and note which directories that created. */
export async function makeRunDir(dir: string): Promise<RunDirBefore> {
  const created = await mkdir(dir, { recursive: true });
  return { dir: resolve(dir), ...(created ? { created: resolve(created) } : {}) };
}

/** Note what the run dir holds now (call once the run holds its lock). */
export function noteRunDir(before: RunDirBefore): void {
  before.entries = new Set(readdirSync(before.dir));
  const journals = before.entries.has(SENT_DIR) ? readdirOrNone(join(before.dir, SENT_DIR)).map((n) => join(SENT_DIR, n)) : [];
  before.files = new Map();
  for (const name of [...REWRITTEN, ...journals]) {
    const bytes = readOrUndefined(join(before.dir, name));
    if (bytes) before.files.set(name, bytes);
  }
}

const readdirOrNone = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Remove what a run that recorded nothing created in its dir, and put back the files it rewrote or removed. */
export async function undoRunStart(before: RunDirBefore): Promise<void> {
  const { dir, entries } = before;
  if (!entries) return;
  for (const [name, bytes] of before.files ?? []) {
    const file = join(dir, name);
    const now = readOrUndefined(file);
    if (now?.equals(bytes)) continue;
    // an item's request journal: the requests this run sent stay beside the earlier attempt's (keptRequests)
    const journal = dirname(name) === SENT_DIR && now !== undefined;
    if (journal && now.subarray(0, bytes.length).equals(bytes)) continue;
    await mkdir(dirname(file), { recursive: true });
    await writeAtomic(file, journal ? Buffer.concat([bytes, now]) : bytes);
  }
  for (const name of [RUN_FILES.config, RUN_FILES.results, RUN_FILES.traces, RUN_FILES.llm, SENT_DIR]) {
    if (name === SENT_DIR && killedAttempts(dir)) continue; // keptRequests
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
