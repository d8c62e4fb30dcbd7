/**
 * Topics+qrels sets the retrieval-evaluation view offers: the bundled Bar Exam QA splits (query =
 * fact pattern + question, relevant = the question's gold passage ids, as `lexcase eval retrieval`)
 * and user sets given to the server as a topics file plus a qrels file.
 *
 * The user-file reader here is deliberately small (TO BE UNIFIED with the TREC topics/qrels loader
 * of `lexcase eval run --qrels` / `search --topics` once that lands: pass its loader as
 * `ExplorerOptions.topicsLoader`). Topics: one `id<TAB>text` per line, or JSONL `{"id", "text"|"query"}`
 * lines. Qrels: TREC `qid iter docid rel` lines (rel > 0 is relevant). Errors name file and line.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { retrievalQuery } from '../../corpora/barexam.js';
import { loadQuestions } from '../../corpora/registry.js';
import { DEFAULT_SPLIT_SEED } from '../../corpora/splits.js';
import { errors } from '../../src/errors.js';

export interface EvalTopic {
  id: string;
  query: string;
  relevant: string[];
}

export interface EvalSet {
  id: string;
  label: string;
  load(): Promise<EvalTopic[]>;
}

/** Reads a topics file and a qrels file into topics with their relevant ids. */
export type TopicsQrelsLoader = (topicsFile: string, qrelsFile: string) => Promise<EvalTopic[]>;

export interface UserEvalSet {
  topics: string;
  qrels: string;
  /** Shown name (default: the topics file's name). */
  name?: string;
}

export function parseTopics(text: string, file: string): { id: string; query: string }[] {
  const out: { id: string; query: string }[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (line.startsWith('{')) {
      let o: { id?: unknown; text?: unknown; query?: unknown };
      try {
        o = JSON.parse(line);
      } catch (e) {
        throw errors.invalidInput(`${file} line ${i + 1}`, `not valid JSON: ${(e as Error).message}`);
      }
      const q = typeof o.text === 'string' ? o.text : o.query;
      if ((typeof o.id !== 'string' && typeof o.id !== 'number') || typeof q !== 'string') throw errors.invalidInput(`${file} line ${i + 1}`, 'a JSON topic needs "id" and "text" (or "query")');
      out.push({ id: String(o.id), query: q });
      return;
    }
    const tab = line.indexOf('\t');
    if (tab <= 0) throw errors.invalidInput(`${file} line ${i + 1}`, 'expected "id<TAB>query text"');
    out.push({ id: line.slice(0, tab).trim(), query: line.slice(tab + 1).trim() });
  });
  return out;
}

export function parseQrels(text: string, file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const f = line.split(/\s+/);
    if (f.length !== 4 || !/^-?\d+$/.test(f[3])) throw errors.invalidInput(`${file} line ${i + 1}`, 'expected TREC qrels "qid iter docid rel"');
    if (Number(f[3]) <= 0) return;
    if (!out.has(f[0])) out.set(f[0], []);
    out.get(f[0])!.push(f[2]);
  });
  return out;
}

/** A file's text; an unreadable file is INVALID_INPUT naming the file by its name only (no server path leaves the process). */
async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw errors.invalidInput(`${what} file ${basename(file)}`, (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : 'not readable');
  }
}

export const readTopicsQrels: TopicsQrelsLoader = async (topicsFile, qrelsFile) => {
  const topics = parseTopics(await readText(topicsFile, 'topics'), basename(topicsFile));
  const qrels = parseQrels(await readText(qrelsFile, 'qrels'), basename(qrelsFile));
  return topics.map((t) => ({ ...t, relevant: qrels.get(t.id) ?? [] }));
};

const BUNDLED_SPLITS = ['val', 'test'] as const;

export function evalSets(user: UserEvalSet[] = [], loader: TopicsQrelsLoader = readTopicsQrels): EvalSet[] {
  const cache = new Map<string, Promise<EvalTopic[]>>();
  const cached = (id: string, f: () => Promise<EvalTopic[]>) => () => {
    let p = cache.get(id);
    if (!p) {
      p = f();
      cache.set(id, p);
      p.catch(() => cache.delete(id));
    }
    return p;
  };
  const sets: EvalSet[] = BUNDLED_SPLITS.map((split) => ({
    id: `barexam:${split}`,
    label: `Bar Exam QA ${split} (bundled, split seed ${DEFAULT_SPLIT_SEED})`,
    load: cached(`barexam:${split}`, async () => (await loadQuestions('barexam', split)).map((q) => ({ id: q.id, query: retrievalQuery(q), relevant: q.goldPassageIds }))),
  }));
  user.forEach((u, i) => {
    const id = `user:${i + 1}`;
    sets.push({ id, label: u.name ?? basename(u.topics), load: cached(id, () => loader(u.topics, u.qrels)) });
  });
  return sets;
}
