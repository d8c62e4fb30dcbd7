/**
 * TREC ad hoc topics (SGML, as NIST distributes them and Anserini's TrecTopicReader reads them):
 *
 *   <top>
 *   <num> Number: 301
 *   <title> International Organized Crime
 *   <desc> Description:
 *   Identify organizations that participate in international criminal activity, ...
 *   <narr> Narrative:
 *   A relevant document must as a minimum identify the organization and ...
 *   </top>
 *
 * A field runs from its tag to the next tag (so a title may span lines, and `</title>`-style closing
 * tags, as in TREC 2018 Core and FIRE topics, are fine); `<top lang='bn'>` opens a topic too. The
 * labels "Number:", "Topic:", "Description:" and "Narrative:" are dropped and whitespace collapsed.
 * The query is the title by default (Anserini's -topicField title); `fields` picks others, joined
 * by a space in the order given (title, description: the "title+description" queries of many
 * papers). The qid is the number as written (lexcase keeps ids as strings: "301", "AR26").
 * Errors name file:line — a topic without <num> or </top>, text outside a topic, a chosen field empty.
 */
import { errors } from '../core/errors.js';
import type { Line } from './read-lines.js';

/** A topic read (the Topic of topics.ts) and the line it opens on. */
export interface TrecTopic {
  id: string;
  text: string;
  line: number;
}

export const TOPIC_FIELDS = ['title', 'description', 'narrative'] as const;
export type TopicField = (typeof TOPIC_FIELDS)[number];

const FIELD_OF_TAG: Record<string, TopicField | 'num'> = { num: 'num', title: 'title', desc: 'description', narr: 'narrative' };
const LABEL: Record<TopicField | 'num', RegExp> = {
  num: /^number\s*:\s*/i,
  title: /^topic\s*:\s*/i,
  description: /^description\s*:\s*/i,
  narrative: /^narrative\s*:\s*/i,
};
const TAG = /<(\/?)(top|num|title|desc|narr)\b[^>]*>/gi;

/** "title", "title+description", … → the fields, checked. */
export function parseTopicFields(v: string): TopicField[] {
  const parts = v
    .split(/[+,]/)
    .map((s) => s.trim().toLowerCase())
    .map((s) => (s === 'desc' ? 'description' : s === 'narr' ? 'narrative' : s));
  const bad = parts.filter((p) => !(TOPIC_FIELDS as readonly string[]).includes(p));
  if (bad.length || parts.length === 0)
    throw errors.invalidInput('--topic-field', `expected ${TOPIC_FIELDS.join(', ')} or several joined by + (e.g. title+description), got "${v}"`);
  return [...new Set(parts)] as TopicField[];
}

interface Open {
  line: number;
  current?: TopicField | 'num';
  text: Partial<Record<TopicField | 'num', string>>;
}

const clean = (s: string, label: RegExp) => s.replace(/\s+/g, ' ').trim().replace(label, '').trim();

/** The topics of a TREC SGML topics file, from its lines. */
export function parseTrecTopics(file: string, lines: Iterable<Line>, fields: readonly TopicField[] = ['title']): TrecTopic[] {
  const out: TrecTopic[] = [];
  let open: Open | undefined;
  const close = (at: number) => {
    const t = open!;
    open = undefined;
    const id = clean(t.text.num ?? '', LABEL.num);
    if (t.text.num === undefined)
      throw errors.fileParse(
        file,
        t.line,
        `the topic opened here has no <num> (closed on line ${at})`,
        'a TREC topic is <top> <num> Number: 301 <title> … <desc> … <narr> … </top>',
      );
    if (!id) throw errors.fileParse(file, t.line, 'the topic opened here has an empty <num>');
    const parts = fields.map((f) => clean(t.text[f] ?? '', LABEL[f]));
    const empty = fields.filter((_, i) => !parts[i]);
    if (empty.length)
      throw errors.fileParse(
        file,
        t.line,
        `topic ${id} has no ${empty.map((f) => `<${f === 'description' ? 'desc' : f === 'narrative' ? 'narr' : f}>`).join(' or ')} text`,
        fields.length === 1 && fields[0] === 'title' ? 'choose another field with --topic-field (description, narrative, title+description)' : undefined,
      );
    out.push({ id, text: parts.join(' '), line: t.line });
  };
  let last = 0;
  for (const { line, text } of lines) {
    last = line;
    let pos = 0;
    const append = (s: string) => {
      if (!s.trim()) return;
      if (!open)
        throw errors.fileParse(
          file,
          line,
          `text outside a <top> … </top> topic: "${s.trim().slice(0, 60)}"`,
          'TREC topics are <top> <num> Number: 301 <title> … </top>; for "qid<TAB>text" lines use --topics-format tsv',
        );
      if (!open.current) throw errors.fileParse(file, line, `text before the topic's first field tag: "${s.trim().slice(0, 60)}"`);
      open.text[open.current] = `${open.text[open.current] ?? ''} ${s}`;
    };
    for (const m of text.matchAll(TAG)) {
      append(text.slice(pos, m.index));
      pos = m.index! + m[0].length;
      const closing = m[1] === '/';
      const tag = m[2].toLowerCase();
      if (tag === 'top') {
        if (closing) {
          if (!open) throw errors.fileParse(file, line, '</top> without a <top>');
          close(line);
        } else {
          if (open) throw errors.fileParse(file, line, `<top> inside the topic opened on line ${open.line} (missing </top>)`);
          open = { line, text: {} };
        }
        continue;
      }
      if (!open) throw errors.fileParse(file, line, `<${m[1]}${tag}> outside a <top> … </top> topic`);
      if (closing) {
        open.current = undefined;
        continue;
      }
      const f = FIELD_OF_TAG[tag];
      if (open.text[f] !== undefined) throw errors.fileParse(file, line, `a second <${tag}> in the topic opened on line ${open.line}`);
      open.current = f;
      open.text[f] = '';
    }
    append(text.slice(pos));
  }
  if (open) throw errors.fileParse(file, (open as Open).line, `the topic opened here has no </top> (the file ends on line ${last})`);
  return out;
}
