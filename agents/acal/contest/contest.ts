/**
 * Library API for human contestation of a saved ACAL run:
 *   contest(runDir, itemId, action, {who}) → loads <runDir>/acal/<itemId>.graph.json, applies the
 *   action, recomputes deterministically, saves the graph and appends the audit entry.
 *
 * One contest at a time per run: the read, change and save happen under `<runDir>/acal/contest.lock`
 * (core/dir-lock.ts; a second contest, from any process, waits for it up to CONTEST_LOCK_WAIT_MS and
 * then fails with LOCKED), and the save is a compare-and-set on the graph's revision
 * (store.ts commitContest). So concurrent contests each land on the revision before them: eight at
 * once make revisions r+1 … r+8, eight audit lines, eight changes kept — or a contest fails with a
 * non-zero exit and writes nothing. `expectRevision` makes the caller's own view part of the check:
 * the action applies only to the revision the caller looked at (REVISION_CONFLICT otherwise).
 */
import { userInfo } from 'node:os';
import { acquireLock } from '../../../core/dir-lock.js';
import { errors } from '../../../core/errors.js';
import { commitContest, contestLockPath, graphPath, readGraph } from '../graph/store.js';
import type { AcalGraph } from '../graph/types.js';
import { parseContestAction, type ContestAction } from './actions.js';
import { applyContest, type AuditEntry } from './apply-contest.js';

/** How long a contest waits for another one on the same run (they take milliseconds). */
export const CONTEST_LOCK_WAIT_MS = 30_000;

export interface ContestOptions {
  who?: string;
  /** Clock for the audit entry (default: now). */
  now?: () => Date;
  /** Apply only when the graph is at this revision (REVISION_CONFLICT otherwise, nothing written). */
  expectRevision?: number;
}

export function contest(runDir: string, itemId: string, action: ContestAction | unknown, opts: ContestOptions = {}): { graph: AcalGraph; entry: AuditEntry } {
  const parsed = parseContestAction(action);
  readGraph(runDir, itemId); // NOT_FOUND / RUN_INVALID before taking the lock
  const lock = acquireLock(contestLockPath(runDir), runDir, 'acal contest', { waitMs: CONTEST_LOCK_WAIT_MS });
  try {
    const graph = readGraph(runDir, itemId);
    if (opts.expectRevision !== undefined && graph.revision !== opts.expectRevision)
      throw errors.revisionConflict(graphPath(runDir, itemId), opts.expectRevision, graph.revision);
    const out = applyContest(graph, parsed, {
      who: opts.who ?? defaultWho(),
      when: (opts.now ?? (() => new Date()))().toISOString(),
    });
    commitContest(runDir, out.graph, out.entry);
    return out;
  } finally {
    lock.release();
  }
}

function defaultWho(): string {
  try {
    return process.env.LEXCASE_USER || userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
