/** Streaming JSONL loader (plain or .gz): one JSON object per line; blank lines are skipped. */
import { basename } from 'node:path';
import { errors } from '../core/errors.js';
import { readLines, type ReadLinesOptions } from './read-lines.js';
import { FileFields, toPassage, type FieldMapping } from './field-map.js';
import { jsonMemberText } from './json-member-text.js';
import { documentNote } from './one-object-a-line.js';
import type { Passage } from './types.js';

export interface JsonRecord {
  line: number;
  value: unknown;
  /** The line as read (for the source text of a member: json-member-text.ts). */
  text: string;
}

/**
 * Why a line that starts with a byte-order mark is not JSON, in words: JSON.parse's own message
 * quotes the mark, which prints as nothing ("Unexpected token '', …"). The mark is dropped at the
 * start of a file only (read-lines.ts); inside one it is where another file was joined on.
 */
export function bomNote(text: string): string | undefined {
  if (text.charCodeAt(0) !== 0xfeff) return undefined;
  return "the line starts with a byte-order mark (U+FEFF, bytes EF BB BF), as a file joined onto another does (cat a.jsonl b.jsonl): remove it (sed 's/^\\xEF\\xBB\\xBF//')";
}

/** Parsed JSON values, one per non-blank line; a malformed line → CORPUS_PARSE naming file:line. */
export async function* readJsonl(file: string, opts: ReadLinesOptions = {}): AsyncGenerator<JsonRecord> {
  for await (const { line, text } of readLines(file, opts)) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw errors.corpusParse(file, line, `malformed JSON: ${bomNote(text) ?? documentNote(text) ?? (e as Error).message}`, e);
    }
    yield { line, value, text };
  }
}

export interface PassageLoadOptions extends ReadLinesOptions {
  fields?: FieldMapping;
  /** `source` for records that carry none (default: the file name). */
  source?: string;
}

export async function* loadJsonlPassages(file: string, opts: PassageLoadOptions = {}): AsyncGenerator<Passage> {
  const defaultSource = opts.source ?? basename(file);
  const fields = opts.fields ?? {};
  // Each field is chosen once (id and text from the first record): a later record without it is an error, not read from another name.
  const chosen = new FileFields(fields);
  // an explicit optional field (--title-field, --doc-id-field, --source-field, --keep-fields) no record holds is
  // refused at the end, as a CSV header without the column is at the start — before 2026-12-04 a misspelt one
  // built an index with no titles or doc ids, exit 0 (the build writes to a temp dir: nothing is replaced)
  const unseen = new Map<string, string>([
    ...(['title', 'docId', 'source'] as const).flatMap((k) => (fields[k] ? [[fields[k]!, `--${k === 'docId' ? 'doc-id' : k}-field`] as [string, string]] : [])),
    ...(fields.keep ?? []).map((f) => [f, '--keep-fields'] as [string, string]),
  ]);
  let first = true;
  for await (const { line, value, text } of readJsonl(file, opts)) {
    const from = first ? `the first record (line ${line})` : `line ${line}`;
    first = false;
    const passage = toPassage(value, fields, { file, line, defaultSource, fields: chosen, from, rawText: (field) => jsonMemberText(text, field) });
    if (unseen.size)
      for (const f of unseen.keys())
        if ((value as Record<string, unknown>)[f] !== undefined && (value as Record<string, unknown>)[f] !== null) unseen.delete(f);
    yield passage;
  }
  const [missing] = unseen;
  if (missing) throw errors.corpusField(file, missing[0], `no record has this field (${missing[1]})`);
}
