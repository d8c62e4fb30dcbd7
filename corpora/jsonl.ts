/** Streaming JSONL loader (plain or .gz): one JSON object per line; blank lines are skipped. */
import { basename } from 'node:path';
import { errors } from '../core/errors.js';
import { readLines, type ReadLinesOptions } from './read-lines.js';
import { FileFields, toPassage, type FieldMapping } from './field-map.js';
import { jsonMemberText } from './json-member-text.js';
import type { Passage } from './types.js';

export interface JsonRecord {
  line: number;
  value: unknown;
  /** The line as read (for the source text of a member: json-member-text.ts). */
  text: string;
}

/** Parsed JSON values, one per non-blank line; a malformed line → CORPUS_PARSE naming file:line. */
export async function* readJsonl(file: string, opts: ReadLinesOptions = {}): AsyncGenerator<JsonRecord> {
  for await (const { line, text } of readLines(file, opts)) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw errors.corpusParse(file, line, `malformed JSON: ${(e as Error).message}`, e);
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
  let first = true;
  for await (const { line, value, text } of readJsonl(file, opts)) {
    const from = first ? `the first record (line ${line})` : `line ${line}`;
    first = false;
    yield toPassage(value, fields, { file, line, defaultSource, fields: chosen, from, rawText: (field) => jsonMemberText(text, field) });
  }
}
