/**
 * A resume takes the record of an attempt killed with its items under way (kill -9, out of memory, a
 * crash: their requests kept in under-way/, eval/sent-journal.ts) into config.json as one `interrupts`
 * entry (signal "killed"), says so, and removes the journal once config.json holds the entry:
 *
 *   const taken = takeKilledAttempt(runDir, file);   // the entry added to `file`, the warning said (nothing when none)
 *   await writeJsonAtomic(configPath(runDir), file);
 *   taken();                                          // the journal goes: its requests are in config.json now
 *
 * In this order a kill between the two steps leaves the journal beside the entry (counted twice) rather
 * than neither; a resume that fails before its first item puts both back (run-start-undo.ts). A new run over
 * a dir that holds only such a journal (a run stopped before its first record) takes it the same way.
 */
import { log } from '../core/log.js';
import type { RunConfigFile } from './run-config-file.js';
import { underWayText } from './run-counts.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dropSentJournals, KILLED, killedAttempts, SENT_DIR } from './sent-journal.js';

/**
 * Record in `file` the killed attempt `runDir`'s journal holds; returns what to do once `file` is written (drop the journal).
 * `recorded`: the items results.jsonl holds a line without an error for (their files are no attempt under way: sent-journal.ts killedAttempts).
 */
export function takeKilledAttempt(runDir: string, file: RunConfigFile, recorded: Iterable<string> = []): () => void {
  const killed = killedAttempts(runDir, recorded);
  if (!killed && existsSync(join(runDir, SENT_DIR))) return () => dropSentJournals(runDir); // only recorded items' files: stale
  if (!killed) return () => undefined;
  file.interrupts = [...(file.interrupts ?? []), { signal: KILLED, at: killed.at, items: killed.items, requests: killed.requests }];
  const it = killed.requests === 1;
  log.warn(
    `${runDir}: the attempt before this one ended with no record of its items under way (killed: kill -9, out of memory, a crash; or stopped by an error before its first record, a failed write or a setup error) and ${underWayText(killed)}; ${it ? 'it is' : 'they are'} in no results.jsonl line (${killed.items === 1 ? 'the item is' : 'those items are'} run again now): recorded in config.json (interrupts), report.md counts ${it ? 'it' : 'them'}`,
  );
  return () => dropSentJournals(runDir);
}
