/**
 * Where an ACAL run keeps its graphs and audit log:
 *   <runDir>/acal/<itemId>.graph.json   (one per item; rewritten atomically on each contest)
 *   <runDir>/acal/audit.jsonl           (append-only, one line per contestation action)
 *   <runDir>/acal/contest.lock          (held while a contest reads, changes and saves a graph)
 *
 * A contest saves with `commitContest`: the graph's new revision and its audit line land together
 * or not at all (a failed write leaves the graph and the log as they were).
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { appendRegularFileSync, readRegularFileSync } from '../../../core/read-regular.js';
import { join } from 'node:path';
import { errors } from '../../../core/errors.js';
import { jsonLine } from '../../../core/jsonl.js';
import { graphSchema, type AcalGraph } from './types.js';

export const safeItemId = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, '_');
export const acalDir = (runDir: string) => join(runDir, 'acal');
export const graphPath = (runDir: string, itemId: string) => join(acalDir(runDir), `${safeItemId(itemId)}.graph.json`);
export const auditPath = (runDir: string) => join(acalDir(runDir), 'audit.jsonl');
export const contestLockPath = (runDir: string) => join(acalDir(runDir), 'contest.lock');

export function parseGraph(json: unknown, file: string): AcalGraph {
  const r = graphSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw errors.runInvalid(file, `argument graph field "${issue.path.join('.') || '(root)'}": ${issue.message}`);
  }
  return r.data;
}

export function readGraph(runDir: string, itemId: string): AcalGraph {
  const file = graphPath(runDir, itemId);
  if (!existsSync(file)) throw errors.notFound('argument graph', `${itemId} (looked for ${file})`);
  let json: unknown;
  try {
    json = JSON.parse(readRegularFileSync(file));
  } catch (e) {
    throw errors.runInvalid(file, `not valid JSON: ${(e as Error).message}`);
  }
  return parseGraph(json, file);
}

/** Save an item's graph; one its own reader would refuse (parseGraph) is refused here (RUN_INVALID naming the field) and nothing is written. */
export function writeGraph(runDir: string, graph: AcalGraph): string {
  const file = graphPath(runDir, graph.itemId);
  parseGraph(graph, file);
  mkdirSync(acalDir(runDir), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(graph, null, 2) + '\n');
  renameSync(tmp, file);
  return file;
}

/**
 * Save a contested graph (revision r + 1) and its audit entry, all or nothing: the graph goes to a
 * temp file, the audit line is appended, then the temp file is renamed over the graph. The graph on
 * disk must still be at revision r (compare-and-set: a writer that did not take the lock changed
 * it → REVISION_CONFLICT, nothing written). A failed write removes the temp file and cuts the audit
 * log back to its length before.
 */
export function commitContest(runDir: string, graph: AcalGraph, entry: unknown): void {
  const file = graphPath(runDir, graph.itemId);
  const onDisk = readGraph(runDir, graph.itemId).revision;
  if (onDisk !== graph.revision - 1) throw errors.revisionConflict(file, graph.revision - 1, onDisk);
  const tmp = `${file}.tmp-${process.pid}`;
  const audit = auditPath(runDir);
  const auditBytes = existsSync(audit) ? statSync(audit).size : undefined;
  let auditTouched = false;
  try {
    writeFileSync(tmp, JSON.stringify(graph, null, 2) + '\n');
    auditTouched = true;
    appendRegularFileSync(audit, jsonLine(entry));
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (auditTouched) {
      try {
        if (auditBytes === undefined) rmSync(audit, { force: true });
        else truncateSync(audit, auditBytes);
      } catch {
        /* the error below says what failed */
      }
    }
    throw e;
  }
}

export function appendAudit(runDir: string, entry: unknown): void {
  mkdirSync(acalDir(runDir), { recursive: true });
  appendRegularFileSync(auditPath(runDir), jsonLine(entry));
}

export function readAudit(runDir: string, itemId?: string): AuditEntryLike[] {
  const file = auditPath(runDir);
  if (!existsSync(file)) return [];
  return readRegularFileSync(file)
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      try {
        return JSON.parse(line) as AuditEntryLike;
      } catch {
        throw errors.runInvalid(file, `line ${i + 1} is not valid JSON`);
      }
    })
    .filter((e) => !itemId || e.itemId === itemId);
}

interface AuditEntryLike {
  itemId: string;
  [k: string]: unknown;
}
