/**
 * Maps a raw record (a JSON object, a CSV row, a Parquet row) onto the one Passage model. Field
 * names are configurable (`--id-field`, `--text-field`, ...); by default the first of a few common
 * names (id/idx/_id/docid/pid, text/contents/passage/body, ...) that the file has, chosen once per
 * file (FileFields) so that every row is read from the same fields.
 */
import { errors } from '../core/errors.js';
import type { Passage } from './types.js';
import { describeType, idProblem, idValueProblem, quoteId, rawNumberIdProblem } from './passage-rules.js';
import { setPassageOrigin } from './passage-origin.js';
import { ONE_OBJECT_A_LINE } from './one-object-a-line.js';

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
   * The file's fields, each chosen once (FileFields): every row is read from them, and a row
   * without the id or text field is an error — never read from another candidate name.
   */
  fields?: FileFields;
  /** Where `fields` chooses from when this row fixes a field ("the header", "the first record (line 1)"). */
  from?: string;
}

/** A field fixed for a whole file: given (`--id-field`) or the first default name the file has. */
export interface ChosenField {
  field: string;
  /** Where it was chosen from, for messages ("the first record (line 1)", "the header"); undefined when given. */
  from?: string;
}

type FieldKey = Exclude<keyof FieldMapping, 'keep'>;
const FLAG: Record<FieldKey, string> = { id: 'id', text: 'text', title: 'title', docId: 'doc-id', source: 'source' };

/**
 * The fields of one file, each chosen once: the explicit one (`--text-field`), else the first of
 * DEFAULT_FIELDS[key] among the columns (the CSV header, the Parquet schema, the keys of a JSONL
 * record). The id and text fields are fixed by the first row (if it has no default name, the first
 * default name: every row then misses it, and the error lists the columns); title, doc id and
 * source by the first row that has one of their names.
 */
export class FileFields {
  private readonly chosen: Partial<Record<FieldKey, ChosenField>> = {};
  constructor(private readonly map: FieldMapping) {}

  /** Fields fixed from a file's columns up front (the CSV/TSV header, the Parquet schema). */
  static fromColumns(map: FieldMapping, columns: readonly string[], from: string): FileFields {
    const f = new FileFields(map);
    for (const key of Object.keys(FLAG) as FieldKey[]) f.of(key, columns, from);
    return f;
  }

  of(key: FieldKey, columns: readonly string[], from: string | undefined): ChosenField {
    const fixed = this.chosen[key];
    if (fixed) return fixed;
    const explicit = this.map[key];
    if (explicit) return (this.chosen[key] = { field: explicit });
    const found = DEFAULT_FIELDS[key].find((c) => columns.includes(c));
    if (found === undefined && key !== 'id' && key !== 'text') return { field: DEFAULT_FIELDS[key][0] };
    return (this.chosen[key] = { field: found ?? DEFAULT_FIELDS[key][0], from });
  }
}

/** Parquet BYTE_ARRAY columns without a UTF8 annotation come back as bytes: read them as UTF-8. */
const decoded = (v: unknown): unknown => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8') : v);

const present = (rec: Record<string, unknown>, f: string): boolean => rec[f] !== undefined && rec[f] !== null;

/**
 * The value of `key` in this row, read from the file's chosen field. An optional field (title, doc
 * id, source) whose chosen name the row lacks while it has another default name is refused: its
 * value would otherwise be dropped with no word.
 */
function pick(r: Record<string, unknown>, key: FieldKey, ctx: MapContext & { fields: FileFields }): ChosenField & { value: unknown } {
  const chosen = ctx.fields.of(key, Object.keys(r), ctx.from);
  if (key !== 'id' && key !== 'text' && !present(r, chosen.field) && chosen.from) {
    const other = DEFAULT_FIELDS[key].find((c) => c !== chosen.field && present(r, c));
    if (other) {
      throw errors.corpusParse(
        ctx.file,
        ctx.line,
        `field "${other}" is not read: the ${FLAG[key]} field of this file is "${chosen.field}" (chosen from ${chosen.from}); use one name per file or set --${FLAG[key]}-field`,
      );
    }
  }
  return { ...chosen, value: decoded(r[chosen.field]) };
}

/**
 * Why a JSON-number document id cannot be read as the id the file holds, or undefined: the same rule
 * as a passage id's text (1.0, 1e2 and numbers beyond 2^53 would become another id, and documents
 * that differ only beyond 2^53 one document under `--aggregate`), but any exact number is kept.
 */
function docIdNumberProblem(v: number, raw: string | undefined): string | undefined {
  if (raw !== undefined) return rawNumberIdProblem(v, raw);
  return Number.isInteger(v) && !Number.isSafeInteger(v) ? idValueProblem(v) : undefined;
}

/**
 * Why a kept field's JSON number cannot be kept, or undefined: an integer written beyond 2^53
 * (`12345678901234567890`) is parsed to the nearest double (12345678901234567000), so the metadata —
 * stored, returned and filtered on — would hold another number than the file, as a document id
 * would (docIdNumberProblem). A Parquet INT64 comes as a BigInt and is kept as its digits instead.
 */
function keptNumberProblem(v: unknown, raw: string | undefined): string | undefined {
  if (typeof v !== 'number' || raw === undefined || !/^-?\d+$/.test(raw) || Number.isSafeInteger(v)) return undefined;
  return `is the JSON number ${raw}, beyond 2^53, which is read as ${BigInt(v)}: the metadata would not keep the number the file holds; write it as a string, e.g. "${raw}"`;
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
    throw errors.corpusParse(ctx.file, ctx.line, `expected an object per line/row${Array.isArray(rec) ? `, got an array: ${ONE_OBJECT_A_LINE}` : ''}`);
  }
  const r = rec as Record<string, unknown>;
  const c = { ...ctx, fields: ctx.fields ?? new FileFields(map), from: ctx.from ?? 'this row' };
  const id = pick(r, 'id', c);
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
      `missing passage id (field "${id.field}")${id.from ? ` (the id field, chosen from ${id.from}); set --id-field to one of: ${Object.keys(r).join(', ')}` : ''}`,
    );
  }
  const bad = idProblem(idStr);
  if (bad) throw errors.corpusParse(ctx.file, ctx.line, `passage id ${quoteId(idStr)} (field "${id.field}") ${bad}`);
  const t = pick(r, 'text', c);
  if (t.value === undefined || t.value === null) {
    throw errors.corpusParse(
      ctx.file,
      ctx.line,
      `passage "${idStr}" has no text (field "${t.field}")${t.from ? ` (the text field, chosen from ${t.from}); set --text-field to one of: ${Object.keys(r).join(', ')}` : ''}`,
    );
  }
  if (typeof t.value !== 'string') {
    throw errors.corpusParse(ctx.file, ctx.line, `passage "${idStr}": text (field "${t.field}") must be a string, got ${describeType(t.value)}`);
  }
  const p: Passage = { id: idStr, text: t.value, source: asString(pick(r, 'source', c).value) || ctx.defaultSource };
  const title = asString(pick(r, 'title', c).value);
  if (title) p.title = title;
  const docIdField = pick(r, 'docId', c);
  if (typeof docIdField.value === 'number') {
    const badDocId = docIdNumberProblem(docIdField.value, ctx.rawText?.(docIdField.field));
    if (badDocId) throw errors.corpusParse(ctx.file, ctx.line, `passage "${idStr}": document id (field "${docIdField.field}") ${badDocId}`);
  }
  const docId = asString(docIdField.value);
  if (docId && docId !== idStr) p.docId = docId;
  else if (docId && map.docId) p.docId = docId;
  if (map.keep?.length) {
    const meta: Record<string, unknown> = {};
    for (const f of map.keep) {
      const v = decoded(r[f]);
      const bigJson = keptNumberProblem(v, ctx.rawText?.(f));
      if (bigJson) throw errors.corpusParse(ctx.file, ctx.line, `passage "${idStr}": kept field "${f}" ${bigJson}`);
      // Parquet INT64 columns are BigInts, which JSON cannot hold: a number where exact, else its digits.
      if (v !== undefined) meta[f] = typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v;
    }
    if (Object.keys(meta).length) p.meta = meta;
  }
  setPassageOrigin(p, { file: ctx.file, line: ctx.line });
  return p;
}
