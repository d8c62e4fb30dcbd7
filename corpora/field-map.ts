/**
 * Maps a raw record (a JSON object, a CSV row, a Parquet row) onto the one Passage model. Field
 * names are configurable (`--id-field`, `--text-field`, ...); by default the first present of a
 * few common names is used (id/idx/_id/docid/pid, text/contents/passage/body, ...).
 */
import { errors } from '../src/errors.js';
import type { Passage } from './types.js';

export interface FieldMapping {
  id?: string;
  text?: string;
  title?: string;
  docId?: string;
  source?: string;
}

export const DEFAULT_FIELDS: Required<{ [K in keyof FieldMapping]: string[] }> = {
  id: ['id', 'idx', '_id', 'docid', 'doc_id', 'pid', 'passage_id'],
  text: ['text', 'contents', 'passage', 'body', 'content'],
  title: ['title'],
  docId: ['doc_id', 'docId', 'document_id'],
  source: ['source'],
};

export interface MapContext {
  file: string;
  /** Line (JSONL/CSV) or row number (Parquet), 1-based. */
  line: number;
  /** Used as `source` when the record has none. */
  defaultSource: string;
}

function pick(rec: Record<string, unknown>, explicit: string | undefined, candidates: string[]): { field: string; value: unknown } {
  if (explicit) return { field: explicit, value: rec[explicit] };
  for (const f of candidates) if (rec[f] !== undefined && rec[f] !== null) return { field: f, value: rec[f] };
  return { field: candidates[0], value: undefined };
}

function asString(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * Record → Passage. A missing or empty id is an error naming file, line and field; empty or missing
 * text is allowed (the passage is indexed with no terms); docId defaults to none.
 */
export function toPassage(rec: unknown, map: FieldMapping, ctx: MapContext): Passage {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) {
    throw errors.corpusParse(ctx.file, ctx.line, 'expected an object per line/row');
  }
  const r = rec as Record<string, unknown>;
  const id = pick(r, map.id, DEFAULT_FIELDS.id);
  const idStr = asString(id.value)?.trim();
  if (!idStr) {
    throw errors.corpusParse(ctx.file, ctx.line, `missing passage id (field "${id.field}")${map.id ? '' : `; set --id-field to one of: ${Object.keys(r).join(', ')}`}`);
  }
  const text = asString(pick(r, map.text, DEFAULT_FIELDS.text).value) ?? '';
  const p: Passage = { id: idStr, text, source: asString(pick(r, map.source, DEFAULT_FIELDS.source).value) || ctx.defaultSource };
  const title = asString(pick(r, map.title, DEFAULT_FIELDS.title).value);
  if (title) p.title = title;
  const docId = asString(pick(r, map.docId, DEFAULT_FIELDS.docId).value);
  if (docId && docId !== idStr) p.docId = docId;
  else if (docId && map.docId) p.docId = docId;
  return p;
}
