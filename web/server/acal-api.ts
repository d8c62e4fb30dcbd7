/**
 * ACAL endpoints over a run's saved argument graphs, through the same library API as
 * `lexcase acal show|contest`: readGraph + withResult (the result is always recomputed),
 * contest(runDir, itemId, action, {who}) (apply, recompute, save, append to the audit log),
 * readAudit and compareSemantics. Items are only those whose graph file exists in the run.
 */
import { readRegularFileSync } from '../../core/read-regular.js';
import { join } from 'node:path';
import { z } from 'zod';
import { contestActionSchema } from '../../agents/acal/contest/actions.js';
import { contest } from '../../agents/acal/contest/contest.js';
import type { AuditEntry } from '../../agents/acal/contest/apply-contest.js';
import { compareSemantics } from '../../agents/acal/graph/compare.js';
import { withResult } from '../../agents/acal/graph/recompute.js';
import { acalDir, graphPath, parseGraph, readAudit, readGraph } from '../../agents/acal/graph/store.js';
import { notFound } from '../../serve/http/http-util.js';
import { graphFiles, resolvesInside, type RunEntry } from './runs.js';

export const graphQuerySchema = z
  .object({
    run: z.string().min(1).max(500),
    item: z.string().min(1).max(500),
  })
  .strict();

export const contestBodySchema = z
  .object({
    run: z.string().min(1).max(500),
    item: z.string().min(1).max(500),
    action: contestActionSchema,
    who: z
      .string()
      .trim()
      .min(1)
      .max(80)
      .regex(/^[^\u0000-\u001f]+$/, 'no control characters')
      .optional(),
    /** Apply only to this revision of the graph (the one the client shows): 409 REVISION_CONFLICT otherwise. */
    expectRevision: z.number().int().min(0).optional(),
  })
  .strict();

export function listGraphs(run: RunEntry) {
  const dir = acalDir(run.dir);
  const out = [];
  for (const f of graphFiles(run.root, run.dir).sort()) {
    const file = join(dir, f);
    try {
      const g = withResult(parseGraph(JSON.parse(readRegularFileSync(file)), file));
      out.push({
        itemId: g.itemId,
        task: g.task ?? null,
        claim: g.claim.text,
        revision: g.revision,
        arguments: g.arguments.length,
        claimStrength: g.result!.claimStrength,
        verdict: g.result!.verdict,
      });
    } catch (e) {
      out.push({ itemId: f.replace(/\.graph\.json$/, ''), error: (e as Error).message });
    }
  }
  return out;
}

/** The item must be one of the run's graphs, found by the library's own file naming. */
function checkItem(run: RunEntry, item: string): void {
  const known = listGraphs(run)
    .filter((g) => !('error' in g))
    .map((g) => g.itemId);
  if (!known.includes(item) || !resolvesInside(run.root, graphPath(run.dir, item))) throw notFound(`no argument graph "${item}" in run "${run.id}"`);
}

/** What an ACAL view reply carries (audit entries as stored in audit.jsonl). */
export interface GraphReply {
  run: { id: string };
  graph: ReturnType<typeof withResult>;
  audit: Record<string, unknown>[];
  compare: ReturnType<typeof compareSemantics>;
}

export function graphView(run: RunEntry, item: string): GraphReply {
  checkItem(run, item);
  const graph = withResult(readGraph(run.dir, item));
  return { run: { id: run.id }, graph, audit: readAudit(run.dir, item), compare: compareSemantics(graph) };
}

export function contestGraph(run: RunEntry, body: z.infer<typeof contestBodySchema>): GraphReply & { entry: AuditEntry } {
  checkItem(run, body.item);
  const { graph, entry } = contest(run.dir, body.item, body.action, { who: body.who ?? 'explorer', expectRevision: body.expectRevision });
  return { run: { id: run.id }, entry, graph, audit: readAudit(run.dir, body.item), compare: compareSemantics(graph) };
}
