/**
 * Topics (queries) of a user's own test collection, in the two formats Pyserini and MS MARCO use:
 *   - TSV:   `qid<TAB>text`, one topic a line, no header (MS MARCO queries.*.tsv, Pyserini topics .tsv)
 *   - JSONL: `{"id": "q1", "text": "…"}` one object a line (`qid` / `query` accepted as aliases)
 * The format comes from the extension (.tsv / .txt → tsv, .jsonl / .json → jsonl; a trailing .gz is
 * ignored) or is given explicitly. Blank lines are skipped. Every malformed line is an error that
 * names file:line: a missing tab, an empty text, a duplicate qid, a qid containing whitespace (TREC
 * run files are whitespace-separated, so such a qid could never be evaluated).
 */
import { errors } from '../core/errors.js';
import { readNamedLines } from './named-lines.js';

export interface Topic {
  id: string;
  text: string;
}

export type TopicsFormat = 'tsv' | 'jsonl';
export const TOPICS_FORMATS: readonly TopicsFormat[] = ['tsv', 'jsonl'];

/** tsv | jsonl from the file name, or undefined when the extension says nothing. */
export function topicsFormatOf(file: string): TopicsFormat | undefined {
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.tsv') || name.endsWith('.txt')) return 'tsv';
  if (name.endsWith('.jsonl') || name.endsWith('.json') || name.endsWith('.ndjson')) return 'jsonl';
  return undefined;
}

export function parseTopicsFormat(v: string): TopicsFormat {
  const f = v.trim().toLowerCase();
  if (f === 'tsv' || f === 'jsonl') return f;
  throw errors.invalidInput('--topics-format', `expected tsv or jsonl, got "${v}"`);
}

function tsvTopic(file: string, line: number, text: string): Topic {
  const cols = text.split('\t');
  if (cols.length < 2) throw errors.fileParse(file, line, 'expected "qid<TAB>text", found no tab', 'TSV topics are one "qid<TAB>query text" a line (MS MARCO / Pyserini style)');
  if (cols.length > 2) throw errors.fileParse(file, line, `expected 2 tab-separated columns (qid, text), found ${cols.length}`);
  return { id: cols[0].trim(), text: cols[1].trim() };
}

function jsonlTopic(file: string, line: number, text: string): Topic {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw errors.fileParse(file, line, `malformed JSON: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw errors.fileParse(file, line, 'expected a JSON object {"id": …, "text": …}');
  const o = v as Record<string, unknown>;
  const id = o.id ?? o.qid;
  const body = o.text ?? o.query;
  if (typeof id !== 'string' && typeof id !== 'number') throw errors.fileParse(file, line, 'field "id": expected a string or number');
  if (typeof body !== 'string') throw errors.fileParse(file, line, `field "text": expected a string, got ${body === undefined ? 'nothing' : typeof body}`);
  return { id: String(id).trim(), text: body.trim() };
}

export async function loadTopics(file: string, opts: { format?: TopicsFormat } = {}): Promise<Topic[]> {
  const format = opts.format ?? topicsFormatOf(file);
  if (!format) throw errors.usage(`cannot tell the format of topics file ${file} from its extension`, 'name it .tsv or .jsonl, or pass --topics-format tsv|jsonl');
  const topics: Topic[] = [];
  const seen = new Map<string, number>();
  for await (const { line, text } of readNamedLines('topics file', file)) {
    if (!text.trim()) continue;
    const t = format === 'tsv' ? tsvTopic(file, line, text) : jsonlTopic(file, line, text);
    if (t.id === '') throw errors.fileParse(file, line, 'empty qid');
    if (/\s/.test(t.id)) throw errors.fileParse(file, line, `qid "${t.id}" contains whitespace; TREC run files are whitespace-separated`);
    if (t.text === '') throw errors.fileParse(file, line, `topic "${t.id}" has an empty text`);
    const first = seen.get(t.id);
    if (first !== undefined) throw errors.fileParse(file, line, `duplicate qid "${t.id}" (first on line ${first})`);
    seen.set(t.id, line);
    topics.push(t);
  }
  if (topics.length === 0) throw errors.fileParse(file, undefined, 'no topics in the file');
  return topics;
}
