/**
 * Topics+qrels sets the retrieval-evaluation view offers: the bundled Bar Exam QA splits (query =
 * fact pattern + question, relevant = the question's gold passage ids, as `lexcase eval retrieval`)
 * and user sets given to the server as a topics file plus a qrels file.
 *
 * User files are read by the same loaders as `search --topics` and `eval run --qrels`
 * (corpora/topics.ts: TSV `id<TAB>text` or JSONL; corpora/qrels.ts: TREC `qid iter docid rel`,
 * grade ≥ 1 relevant, every grade kept for graded nDCG). Errors name the file (by its base name) and line.
 * A user set is read again when the bytes of its topics or qrels file changed since it was last read
 * (content-key.ts: a same-size edit with its mtime set back included), so figures always come from
 * the files as they are now; what a read made while a file was rewritten is not kept.
 */
import { basename } from 'node:path';
import { retrievalQuery } from '../../corpora/barexam.js';
import { loadQrels } from '../../corpora/qrels.js';
import { loadQuestions } from '../../corpora/registry.js';
import { loadTopics } from '../../corpora/topics.js';
import { DEFAULT_SPLIT_SEED } from '../../corpora/splits.js';
import { errors } from '../../core/errors.js';
import { contentKey } from './content-key.js';

export interface EvalTopic {
  id: string;
  query: string;
  /** Ids of the relevant passages (grade ≥ 1). */
  relevant: string[];
  /**
   * A user set's graded judgements of the topic as the qrels file gives them (grade 0 included);
   * absent for a topic the qrels do not judge, and on the bundled sets (one gold passage a question).
   * With them the topic is evaluated as `eval retrieval --topics … --qrels …` evaluates it.
   */
  judged?: ReadonlyMap<string, number>;
}

export interface EvalSet {
  id: string;
  label: string;
  /** 'dataset': a bundled split, evaluated as `eval retrieval --dataset`; 'topics': a user's topics+qrels, as `eval retrieval --topics … --qrels …`. */
  kind: 'dataset' | 'topics';
  load(): Promise<EvalTopic[]>;
}

/** A user set's topics, with the qrels' topics that have no topic line (`qrelsOnly`), when there are any. */
export type EvalTopics = EvalTopic[] & { qrelsOnly?: string[] };

/** Reads a topics file and a qrels file into topics with their relevant ids. */
export type TopicsQrelsLoader = (topicsFile: string, qrelsFile: string) => Promise<EvalTopic[]>;

export interface UserEvalSet {
  topics: string;
  qrels: string;
  /** Shown name (default: the topics file's name). */
  name?: string;
}

/** Topics + qrels through the same loaders as `search --topics` / `eval run` (corpora/topics.ts, corpora/qrels.ts); relevant = grade ≥ 1, `judged` = every grade of the topic. */
export const readTopicsQrels: TopicsQrelsLoader = async (topicsFile, qrelsFile) => {
  const named = async <T>(what: string, file: string, f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      // no server path leaves the process: name the file by its base name only
      const msg = (e as Error).message.split(topicsFile).join(basename(topicsFile)).split(qrelsFile).join(basename(qrelsFile));
      throw errors.invalidInput(`${what} file ${basename(file)}`, msg);
    }
  };
  const topics = await named('topics', topicsFile, () => loadTopics(topicsFile));
  const qrels = await named('qrels', qrelsFile, () => loadQrels(qrelsFile));
  // judged topics with no topic line: not searched, out of n — said as `eval retrieval` says them (retrieval-eval-api.ts)
  const ids = new Set(topics.map((t) => t.id));
  const qrelsOnly = [...qrels.keys()].filter((q) => !ids.has(q));
  const list: EvalTopics = topics.map((t) => {
    const judged = qrels.get(t.id);
    return {
      id: t.id,
      query: t.text,
      relevant: [...(judged ?? new Map<string, number>())].filter(([, rel]) => rel >= 1).map(([doc]) => doc),
      ...(judged ? { judged } : {}),
    };
  });
  if (qrelsOnly.length) list.qrelsOnly = qrelsOnly;
  return list;
};

const BUNDLED_SPLITS = ['val', 'test'] as const;

export function evalSets(user: UserEvalSet[] = [], loader: TopicsQrelsLoader = readTopicsQrels): EvalSet[] {
  const cache = new Map<string, { stamp: string; topics: Promise<EvalTopic[]> }>();
  /** `f`'s topics, read once while `stamp()` stays the same; a new stamp reads them again (a new array: retrieval-eval-api.ts evaluates it afresh). */
  const cached =
    (id: string, f: () => Promise<EvalTopic[]>, stamp: () => Promise<string> = async () => '') =>
    async () => {
      const now = await stamp();
      const hit = cache.get(id);
      if (hit && hit.stamp === now) return hit.topics;
      // the files are hashed, then read by the loaders: rewritten in between, what was read is not of the bytes
      // `now` names, so it is not kept (a file put back to those bytes would otherwise be shown the other figures)
      const read = async (): Promise<EvalTopic[]> => {
        const topics = await f();
        if ((await stamp()) !== now && cache.get(id) === entry) cache.delete(id);
        return topics;
      };
      const entry: { stamp: string; topics: Promise<EvalTopic[]> } = { stamp: now, topics: Promise.resolve([]) };
      entry.topics = read();
      cache.set(id, entry);
      entry.topics.catch(() => {
        if (cache.get(id) === entry) cache.delete(id);
      });
      return entry.topics;
    };
  const sets: EvalSet[] = BUNDLED_SPLITS.map((split) => ({
    id: `barexam:${split}`,
    kind: 'dataset' as const,
    label: `Bar Exam QA ${split} (bundled, split seed ${DEFAULT_SPLIT_SEED})`,
    load: cached(`barexam:${split}`, async () =>
      (await loadQuestions('barexam', split)).map((q) => ({ id: q.id, query: retrievalQuery(q), relevant: q.goldPassageIds })),
    ),
  }));
  user.forEach((u, i) => {
    const id = `user:${i + 1}`;
    sets.push({
      id,
      label: u.name ?? basename(u.topics),
      kind: 'topics',
      load: cached(
        id,
        () => loader(u.topics, u.qrels),
        async () => `${await contentKey(u.topics)}|${await contentKey(u.qrels)}`,
      ),
    });
  });
  return sets;
}
