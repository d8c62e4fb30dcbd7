/**
 * The requests of a run's items under way, kept on disk as they are sent, so a run that ends without
 * its signal handler (kill -9, the out-of-memory killer, a crash, a power loss) still has them counted:
 *
 *   <runDir>/under-way/<item>.sent   one line per request the item's attempt sent (each retry too): the time
 *
 * The runner appends a line at each send (core/llm/record-replay.ts ExchangeLog `onSent`) and removes the
 * item's file in the write of its results.jsonl line (eval/run-dir.ts ResultsWriter `afterWrite`); a
 * Ctrl-C or SIGTERM records the items under way in config.json `interrupts` and removes the dir
 * (src/cli/run-interrupt.ts). So a file left there at a resume is an attempt that ended with no line and
 * no record: the resume records it as one more `interrupts` entry (signal "killed"), and report.md, the
 * counts line and resumes[].underWay count its requests as a Ctrl-C's. Before, such a run resumed read
 * as an uninterrupted one: 3-ply killed twice mid-triple sent 42 requests for 30 in its LLM calls, and
 * nothing said so.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RUN_FILES, traceFileName } from './run-dir.js';

export const SENT_DIR = RUN_FILES.underWay;
/** The signal an `interrupts` entry of a killed attempt names: none was taken, the process ended without its handler. */
export const KILLED = 'killed';

const journalPath = (runDir: string, id: string) => join(runDir, SENT_DIR, traceFileName(id).replace(/\.json$/, '.sent'));

/**
 * One request of item `id` sent: a line appended (synchronously: a kill right after leaves it). The dir
 * is made only when the append finds it missing (the first request of a run, or after a signal's handler
 * or the end of a run removed it): one system call per request, not a mkdir and an append each time.
 * A write that fails (a full disk) is let go: the request is then counted only in memory, as before.
 */
export function noteSentRequest(runDir: string, id: string): void {
  const line = `${new Date().toISOString()}\n`;
  try {
    try {
      appendFileSync(journalPath(runDir, id), line);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(join(runDir, SENT_DIR), { recursive: true });
      appendFileSync(journalPath(runDir, id), line);
    }
  } catch {
    // best effort: the run's own writes report a full disk
  }
}

/** Item `id`'s line is written: its requests are in it, its file goes. */
export function dropSentJournal(runDir: string, id: string): void {
  rmSync(journalPath(runDir, id), { force: true });
}

/** Remove every item's file (the attempts it held are recorded in config.json `interrupts`). */
export function dropSentJournals(runDir: string): void {
  rmSync(join(runDir, SENT_DIR), { recursive: true, force: true });
}

/** Remove the dir once it holds no file (the end of a run whose items all have their line): run dirs hold it only while needed. */
export function dropEmptySentDir(runDir: string): void {
  try {
    rmdirSync(join(runDir, SENT_DIR));
  } catch {
    // absent, or a file left (an item aborted with no line): kept for the resume
  }
}

/**
 * The attempts a killed run left under way: the items whose file holds a line, the requests in all, and
 * the times of the last one sent (`at`) and the first (`from`); undefined when none (or the dir cannot be read). `recorded`: the items
 * results.jsonl holds a line without an error for — a file of one of them is left from a kill between its
 * line's write and the file's removal: its requests are in that line, not under way (before 2026-12-05
 * counted twice, and said to be "run again now" though they were not). A failed line's item is not among
 * them: its file may be a retry's that wrote no line.
 */
export function killedAttempts(runDir: string, recorded: Iterable<string> = []): { items: number; requests: number; at: string; from: string } | undefined {
  const dir = join(runDir, SENT_DIR);
  if (!existsSync(dir)) return undefined;
  const done = new Set([...recorded].map((id) => basename(journalPath(runDir, id))));
  let items = 0;
  let requests = 0;
  let at = '';
  let from = '';
  try {
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.sent') && !done.has(n))) {
      const sent = readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
      if (!sent.length) continue;
      items++;
      requests += sent.length;
      for (const t of sent) {
        if (t > at) at = t;
        if (!from || t < from) from = t;
      }
    }
  } catch {
    return undefined;
  }
  return requests ? { items, requests, at, from } : undefined;
}
