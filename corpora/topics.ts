/**
 * Topics (queries) of a user's own test collection, in the formats Pyserini, Anserini, TREC and
 * MS MARCO use (`--topics-format`, TOPICS_FORMATS):
 *   - tsv:     `qid<TAB>text`, one topic a line, no header (Pyserini topics .tsv)
 *   - msmarco: MS MARCO queries (queries.dev.small.tsv …): `qid<TAB>query` with integer qids
 *   - jsonl:   `{"id": "q1", "text": "…"}` one object a line (`qid` / `query` accepted as aliases)
 *   - trec:    TREC ad hoc SGML topics, `<top> <num> Number: 301 <title> … </top>` (topics-trec.ts);
 *              the title is the query unless `fields` says otherwise (title, description, narrative)
 *   - auto:    from the extension (.tsv → tsv, .jsonl / .json / .ndjson → jsonl; a trailing .gz is
 *              ignored), else from the first non-blank line: `<top` → trec, `{` → jsonl, a tab → tsv.
 * Blank lines are skipped. Every malformed line is an error that names file:line: a missing tab, an
 * empty text, a duplicate qid, a qid containing whitespace (TREC run files are whitespace-separated,
 * so such a qid could never be evaluated) or starting with "#" (its run lines would read as comments), a JSONL qid that is a JSON number whose text would change
 * (`1.0`, `1e1`, a number beyond 2^53), a non-numeric MS MARCO qid, a broken TREC topic.
 */
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { formatCharWord, visibleWord } from './format-chars.js';
import { jsonMemberText } from './json-member-text.js';
import { bomNote } from './jsonl.js';
import { readNamedLines } from './named-lines.js';
import { rawNumberIdProblem } from './passage-rules.js';
import type { Line } from './read-lines.js';
import { parseTrecTopics, type TopicField } from './topics-trec.js';

/**
 * Why a qid may not start with "#": its run and qrels lines would start with "#", which lexcase's
 * `eval run` and trec_eval 10 skip as comments (named-lines.ts) and trec_eval 9.0.8 reads — the
 * topic's judgements were dropped ("1 run topic without judgements") while other tools scored it.
 */
export const COMMENT_QID =
  "a TREC run or qrels line that starts with # is a comment to lexcase and trec_eval 10 (9.0.8 reads it), so the topic's results and judgements would be dropped or kept depending on the tool";

export interface Topic {
  id: string;
  text: string;
}

export type TopicsFormat = 'tsv' | 'jsonl' | 'trec' | 'msmarco';
export const TOPICS_FORMATS: readonly TopicsFormat[] = ['tsv', 'jsonl', 'trec', 'msmarco'];
export type { TopicField };
export { TOPIC_FIELDS, parseTopicFields } from './topics-trec.js';

/** The --topics-format help: every format and auto. */
export const TOPICS_FORMAT_HELP =
  'auto (default: from the extension, else the first line) | tsv ("qid<TAB>text") | jsonl ({"id","text"}) | trec (TREC SGML <top><num><title>…) | msmarco (MS MARCO queries: "qid<TAB>query", integer qids)';

/** tsv | jsonl from the file name, or undefined when the extension says nothing (.txt: TREC topics and TSV alike). */
export function topicsFormatOf(file: string): TopicsFormat | undefined {
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.tsv')) return 'tsv';
  if (name.endsWith('.jsonl') || name.endsWith('.json') || name.endsWith('.ndjson')) return 'jsonl';
  return undefined;
}

/** A --topics-format value: a format, or undefined for auto. */
export function parseTopicsFormat(v: string): TopicsFormat | undefined {
  const f = v.trim().toLowerCase();
  if (f === 'auto') return undefined;
  if ((TOPICS_FORMATS as readonly string[]).includes(f)) return f as TopicsFormat;
  throw errors.invalidInput('--topics-format', `expected auto, ${TOPICS_FORMATS.join(', ')}, got "${v}"`);
}

/** The format of a topics file from its first non-blank line, or undefined. */
export function sniffTopicsFormat(firstLine: string): TopicsFormat | undefined {
  const t = firstLine.trimStart();
  if (/^<top\b/i.test(t)) return 'trec';
  if (t.startsWith('{')) return 'jsonl';
  if (t.includes('\t')) return 'tsv';
  return undefined;
}

function tsvTopic(file: string, line: number, text: string): Topic {
  const cols = text.split('\t');
  if (cols.length < 2)
    throw errors.fileParse(
      file,
      line,
      'expected "qid<TAB>text", found no tab',
      'TSV topics are one "qid<TAB>query text" a line (Pyserini style); other formats: --topics-format jsonl|trec|msmarco',
    );
  if (cols.length > 2) throw errors.fileParse(file, line, `expected 2 tab-separated columns (qid, text), found ${cols.length}`);
  return { id: cols[0].trim(), text: cols[1].trim() };
}

function msmarcoTopic(file: string, line: number, text: string): Topic {
  const cols = text.split('\t');
  if (cols.length !== 2)
    throw errors.fileParse(
      file,
      line,
      `expected "qid<TAB>query" (MS MARCO queries), found ${cols.length === 1 ? 'no tab' : `${cols.length} tab-separated columns`}`,
    );
  const id = cols[0].trim();
  if (!/^\d+$/.test(id)) throw errors.fileParse(file, line, `MS MARCO qids are integers, got "${id}"`, 'for other ids use --topics-format tsv');
  return { id, text: cols[1].trim() };
}

function jsonlTopic(file: string, line: number, text: string): Topic {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw errors.fileParse(file, line, `malformed JSON: ${bomNote(text) ?? (e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw errors.fileParse(file, line, 'expected a JSON object {"id": …, "text": …}');
  const o = v as Record<string, unknown>;
  const idField = o.id !== undefined && o.id !== null ? 'id' : 'qid';
  const id = o[idField];
  const body = o.text ?? o.query;
  if (typeof id !== 'string' && typeof id !== 'number') throw errors.fileParse(file, line, 'field "id": expected a string or number');
  // A numeric qid keeps the text the file holds (1.0 is not qid "1"), as a passage id does.
  const raw = typeof id === 'number' ? jsonMemberText(text, idField) : undefined;
  const bad = raw === undefined ? undefined : rawNumberIdProblem(id as number, raw);
  if (bad) throw errors.fileParse(file, line, `qid (field "${idField}") ${bad}`);
  if (typeof body !== 'string') throw errors.fileParse(file, line, `field "text": expected a string, got ${body === undefined ? 'nothing' : typeof body}`);
  return { id: String(id).trim(), text: body.trim() };
}

/** The format auto picks: the extension's, else the first non-blank line's. */
async function detectFormat(file: string): Promise<TopicsFormat | undefined> {
  const byName = topicsFormatOf(file);
  if (byName) return byName;
  for await (const { line, text } of readNamedLines('topics file', file)) {
    if (!text.trim()) continue;
    const f = sniffTopicsFormat(text);
    if (!f)
      throw errors.fileParse(
        file,
        line,
        `cannot tell the topics format: the first line is neither TREC SGML (<top>), JSONL ({…}) nor "qid<TAB>text"`,
        `pass --topics-format ${TOPICS_FORMATS.join('|')}`,
      );
    return f;
  }
  return undefined;
}

/** Each topic with the line it starts on. */
async function* topicLines(file: string, format: TopicsFormat, fields: readonly TopicField[] | undefined): AsyncGenerator<Topic & { line: number }> {
  if (format === 'trec') {
    const lines: Line[] = [];
    for await (const l of readNamedLines('topics file', file)) lines.push(l);
    yield* parseTrecTopics(file, lines, fields);
    return;
  }
  if (fields) throw errors.usage(`--topic-field picks a field of TREC SGML topics; ${file} is read as ${format}`);
  for await (const { line, text } of readNamedLines('topics file', file)) {
    if (!text.trim()) continue;
    const t = format === 'tsv' ? tsvTopic(file, line, text) : format === 'msmarco' ? msmarcoTopic(file, line, text) : jsonlTopic(file, line, text);
    yield { ...t, line };
  }
}

export interface LoadTopicsOptions {
  /** The file's format; absent: auto (the extension, else the first line). */
  format?: TopicsFormat;
  /** TREC topics: the fields whose text is the query, joined by a space (default title). */
  fields?: readonly TopicField[];
}

export async function loadTopics(file: string, opts: LoadTopicsOptions = {}): Promise<Topic[]> {
  const format = opts.format ?? (await detectFormat(file));
  const topics: Topic[] = [];
  const seen = new Map<string, number>();
  let formatChars = 0;
  let firstFormatChar = '';
  if (!format) throw errors.fileParse(file, undefined, 'no topics in the file');
  for await (const { line, ...t } of topicLines(file, format, opts.fields)) {
    if (t.id === '') throw errors.fileParse(file, line, 'empty qid');
    // bytes that are not UTF-8 read as U+FFFD: qids that differ only there would be one topic (their qrels merged)
    if (t.id.includes('\uFFFD'))
      throw errors.fileParse(
        file,
        line,
        `qid "${t.id}" holds U+FFFD: bytes that are not UTF-8 (or the replacement character), so qids that differ only there would read as one`,
        'convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8)',
      );
    if (/\s/.test(t.id)) throw errors.fileParse(file, line, `qid "${t.id}" contains whitespace; TREC run files are whitespace-separated`);
    if (t.id.startsWith('#')) throw errors.fileParse(file, line, `qid "${t.id}" starts with "#": ${COMMENT_QID}`, 'rename the topic (and its qrels lines)');
    if (t.text === '') throw errors.fileParse(file, line, `topic "${t.id}" has an empty text`);
    const first = seen.get(t.id);
    if (first !== undefined) throw errors.fileParse(file, line, `duplicate qid "${t.id}" (first on line ${first})`);
    seen.set(t.id, line);
    const word = formatCharWord(t.text);
    if (word !== undefined && !formatChars++) firstFormatChar = `${file}:${line}: topic "${t.id}", the word "${visibleWord(word)}"`;
    topics.push(t);
  }
  if (topics.length === 0) throw errors.fileParse(file, undefined, 'no topics in the file');
  if (formatChars)
    log.warn(
      `${formatChars} of ${topics.length} topics have an invisible format character inside a word (soft hyphen U+00AD, zero-width space U+200B, word joiner U+2060, U+FEFF or a bidirectional control; the first: ${firstFormatChar}): such a word is not searched as typed (the default analyzer searches its pieces, the lucene preset a term that holds the character); remove the characters if the word was meant`,
    );
  return topics;
}
