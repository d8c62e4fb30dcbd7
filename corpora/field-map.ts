/**
 * Maps a raw record (a JSON object, a CSV row, a Parquet row) onto the one Passage model. Field
 * names are configurable (`--id-field`, `--text-field`, ...); by default the first present of a
 * few common names is used (id/idx/_id/docid/pid, text/contents/passage/body, ...).
 */
import { errors } from '../core/errors.js';
import type { Passage } from './types.js';
import { describeType, idProblem, idValueProblem, quoteId, rawNumberIdProblem } from './passage-rules.js';

export interface FieldMapping {
  id?: string;
  text?: string;
  title?: string;
  docId?: string;
  source?: string;
  /**
   * Further fields kept as they are (JSON values) in Passage.meta: stored in the doc store, returned
   * in LangChain metadata and matched by its filter; never searched (`--keep-fields a,b`).
   */
  keep?: string[];
}

export const DEFAULT_FIELDS: Required<{ [K in Exclude<keyof FieldMapping, 'keep'>]: string[] }> = {
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
  /** The source text of a field's value (JSONL: `1.0` where the parsed value is the number 1). */
  rawText?: (field: string) => string | undefined;
  /**
   * The id field chosen once for the file (chooseIdField): every row is read from it, and a row
   * without it is "missing passage id" — never indexed under another candidate's value.
   */
  idField?: ChosenField;
}

/** A field fixed for a whole file: given (`--id-field`) or the first default name the file has. */
export interface ChosenField {
  field: string;
  /** Where it was chosen from, for messages ("the first row (line 1)", "the header"); undefined when given. */
  from?: string;
}

/**
 * The id field of a file, chosen once: the explicit one, else the first of DEFAULT_FIELDS.id among
 * `columns` (the CSV header, the Parquet schema, the keys of the first JSONL record), else the first
 * default name (every row is then missing its id, and the error lists the columns).
 */
export function chooseIdField(map: FieldMapping, columns: readonly string[], from: string): ChosenField {
  if (map.id) return { field: map.id };
  const present = new Set(columns);
  return { field: DEFAULT_FIELDS.id.find((c) => present.has(c)) ?? DEFAULT_FIELDS.id[0], from };
}

/** Parquet BYTE_ARRAY columns without a UTF8 annotation come back as bytes: read them as UTF-8. */
const decoded = (v: unknown): unknown => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8') : v);

function pick(rec: Record<string, unknown>, explicit: string | undefined, candidates: string[]): { field: string; value: unknown } {
  if (explicit) return { field: explicit, value: decoded(rec[explicit]) };
  for (const f of candidates) if (rec[f] !== undefined && rec[f] !== null) return { field: f, value: decoded(rec[f]) };
  return { field: candidates[0], value: undefined };
}

function asString(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * Record → Passage. A missing or empty id, an id with control characters, a missing text field or a
 * text that is not a string (a number, an object) is an error naming file, line and field. An empty
 * text string is allowed (the passage is indexed with no terms); docId defaults to none.
 */
export function toPassage(rec: unknown, map: FieldMapping, ctx: MapContext): Passage {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) {
    throw errors.corpusParse(ctx.file, ctx.line, 'expected an object per line/row');
  }
  const r = rec as Record<string, unknown>;
  const chosen = ctx.idField ?? chooseIdField(map, Object.keys(r), 'this row');
  const id = pick(r, chosen.field, DEFAULT_FIELDS.id);
  if (id.value !== undefined && id.value !== null && typeof id.value === 'object') {
    throw errors.corpusParse(ctx.file, ctx.line, `passage id (field "${id.field}") must be a string or a number, got ${describeType(id.value)}`);
  }
  const badValue = idValueProblem(id.value);
  if (badValue) throw errors.corpusParse(ctx.file, ctx.line, `passage id (field "${id.field}") ${badValue}`);
  if (typeof id.value === 'number' && ctx.rawText) {
    const raw = ctx.rawText(id.field);
    const badRaw = raw === undefined ? undefined : rawNumberIdProblem(id.value, raw);
    if (badRaw) throw errors.corpusParse(ctx.file, ctx.line, `passage id (field "${id.field}") ${badRaw}`);
  }
  const idStr = asString(id.value)?.trim();
  if (!idStr) {
    throw errors.corpusParse(
      ctx.file,
      ctx.line,
      `missing passage id (field "${id.field}")${chosen.from ? ` (the id field, chosen from ${chosen.from}); set --id-field to one of: ${Object.keys(r).join(', ')}` : ''}`,
    );
  }
  const bad = idProblem(idStr);
  if (bad) throw errors.corpusParse(ctx.file, ctx.line, `passage id ${quoteId(idStr)} (field "${id.field}") ${bad}`);
  const t = pick(r, map.text, DEFAULT_FIELDS.text);
  if (t.value === undefined || t.value === null) {
    throw errors.corpusParse(
      ctx.file,
      ctx.line,
      `passage "${idStr}" has no text (field "${t.field}")${map.text ? '' : `; set --text-field to one of: ${Object.keys(r).join(', ')}`}`,
    );
  }
  if (typeof t.value !== 'string') {
    throw errors.corpusParse(ctx.file, ctx.line, `passage "${idStr}": text (field "${t.field}") must be a string, got ${describeType(t.value)}`);
  }
  const p: Passage = { id: idStr, text: t.value, source: asString(pick(r, map.source, DEFAULT_FIELDS.source).value) || ctx.defaultSource };
  const title = asString(pick(r, map.title, DEFAULT_FIELDS.title).value);
  if (title) p.title = title;
  const docId = asString(pick(r, map.docId, DEFAULT_FIELDS.docId).value);
  if (docId && docId !== idStr) p.docId = docId;
  else if (docId && map.docId) p.docId = docId;
  if (map.keep?.length) {
    const meta: Record<string, unknown> = {};
    for (const f of map.keep) {
      const v = decoded(r[f]);
      // Parquet INT64 columns are BigInts, which JSON cannot hold: a number where exact, else its digits.
      if (v !== undefined) meta[f] = typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v;
    }
    if (Object.keys(meta).length) p.meta = meta;
  }
  return p;
}
