/**
 * Library API for human contestation of a saved ACAL run:
 *   contest(runDir, itemId, action, {who}) → loads <runDir>/acal/<itemId>.graph.json, applies the
 *   action, recomputes deterministically, saves the graph and appends the audit entry.
 */
import { userInfo } from 'node:os';
import { readGraph, writeGraph, appendAudit } from '../graph/store.js';
import type { AcalGraph } from '../graph/types.js';
import { parseContestAction, type ContestAction } from './actions.js';
import { applyContest, type AuditEntry } from './apply-contest.js';

export interface ContestOptions {
  who?: string;
  /** Clock for the audit entry (default: now). */
  now?: () => Date;
}

export function contest(
  runDir: string,
  itemId: string,
  action: ContestAction | unknown,
  opts: ContestOptions = {},
): { graph: AcalGraph; entry: AuditEntry } {
  const parsed = parseContestAction(action);
  const graph = readGraph(runDir, itemId);
  const out = applyContest(graph, parsed, {
    who: opts.who ?? defaultWho(),
    when: (opts.now ?? (() => new Date()))().toISOString(),
  });
  writeGraph(runDir, out.graph);
  appendAudit(runDir, out.entry);
  return out;
}

function defaultWho(): string {
  try {
    return process.env.LEXCASE_USER || userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
