/**
 * Where an ACAL run keeps its graphs and audit log:
 *   <runDir>/acal/<itemId>.graph.json   (one per item; rewritten atomically on each contest)
 *   <runDir>/acal/audit.jsonl           (append-only, one line per contestation action)
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { appendRegularFileSync, readRegularFileSync } from '../../../core/read-regular.js';
import { join } from 'node:path';
import { errors } from '../../../core/errors.js';
import { graphSchema, type AcalGraph } from './types.js';

export const safeItemId = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, '_');
export const acalDir = (runDir: string) => join(runDir, 'acal');
export const graphPath = (runDir: string, itemId: string) => join(acalDir(runDir), `${safeItemId(itemId)}.graph.json`);
export const auditPath = (runDir: string) => join(acalDir(runDir), 'audit.jsonl');

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

export function writeGraph(runDir: string, graph: AcalGraph): string {
  mkdirSync(acalDir(runDir), { recursive: true });
  const file = graphPath(runDir, graph.itemId);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(graph, null, 2) + '\n');
  renameSync(tmp, file);
  return file;
}

export function appendAudit(runDir: string, entry: unknown): void {
  mkdirSync(acalDir(runDir), { recursive: true });
  appendRegularFileSync(auditPath(runDir), JSON.stringify(entry) + '\n');
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
