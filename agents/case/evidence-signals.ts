/**
 * Dense and phrase signals of the evidence selector's candidates (evidence-selector.ts, the
 * 108-feature model): for every candidate passage p of a question,
 *  - dense: the cosine of p with each option's hypothesis, with the facts and with the question
 *    sentence, and p's rank among all of the index's passages for each of those queries (the dense
 *    retriever's similarities(): exact, what its search would rank);
 *  - phrase: the share of each query's word bigrams (analysed terms, stopwords dropped, adjacent
 *    pairs) that p contains, for each hypothesis, the facts and the question sentence.
 * All are query-dependent; nothing is a function of the passage alone.
 */
import type { DenseRetriever } from '../../retrieval/dense.js';
import type { Retriever } from '../../retrieval/types.js';
import { createAnalyzer, type Analyzer } from '../../retrieval/analyzer.js';
import { errors } from '../../core/errors.js';

/** [cosine, rank] of one candidate for one dense query. */
export type DenseMatch = [number, number];

export interface CandidateSignals {
  /** dense[c] = [per option [cos, rank]..., facts [cos, rank], question [cos, rank]]. */
  dense: DenseMatch[][];
  /** phrase[c] = [per option bigram share..., facts, question]. */
  phrase: number[][];
}

export interface SignalInput {
  facts: string;
  question: string;
  hypotheses: string[];
  ids: string[];
}

let analyzer: Analyzer | undefined;
/** Word bigrams of `text` (default analyzer: lowercased, English stopwords dropped, Porter stems). */
export function bigrams(text: string): Set<string> {
  const t = (analyzer ??= createAnalyzer()).tokens(text);
  const out = new Set<string>();
  for (let i = 1; i < t.length; i++) out.add(`${t[i - 1]} ${t[i]}`);
  return out;
}

/** Share of the query's bigrams that the passage contains (0 for a query without bigrams). */
export function bigramShare(query: Set<string>, passage: Set<string>): number {
  if (!query.size) return 0;
  let n = 0;
  for (const b of query) if (passage.has(b)) n++;
  return n / query.size;
}

/** What the signals read: the index's dense retriever (exact similarities) and its passage texts. */
export interface SignalSource {
  dense: Required<Pick<DenseRetriever, 'similarities'>>;
  passageText: (id: string) => Promise<string | undefined>;
}

// One similarities function per (retriever, query rule), so the bigram cache below keeps one entry per opened index.
const underRule = new WeakMap<object, Map<number, SignalSource['dense']['similarities']>>();

/**
 * A dense retriever's exact similarities and its embedder id, when it has both (an ANN table has no
 * exact similarities). `queryWords`: embed the signal queries under that rule (retrieval/dense-query.ts;
 * 0 = the whole query, N = the last N words) — the rule a selector model was trained with — instead
 * of the retriever's own.
 */
export function exactDense(dense: Retriever | undefined, queryWords?: number): { embedder: string; dense: SignalSource['dense'] } | undefined {
  const d = dense as (Retriever & Partial<Pick<DenseRetriever, 'embedder' | 'similarities'>>) | undefined;
  if (!d?.embedder || !d.similarities) return undefined;
  const base = d.similarities;
  if (queryWords === undefined) return { embedder: d.embedder.id, dense: { similarities: base } };
  let byRule = underRule.get(base);
  if (!byRule) underRule.set(base, (byRule = new Map()));
  let fn = byRule.get(queryWords);
  if (!fn) byRule.set(queryWords, (fn = (q, ids) => base(q, ids, { queryWords })));
  return { embedder: d.embedder.id, dense: { similarities: fn } };
}

/** [cosine, rank] of each id for one query; an empty query matches nothing (cosine 0, rank beyond every row). */
async function denseMatches(dense: SignalSource['dense'], text: string, ids: string[]): Promise<DenseMatch[]> {
  if (!text.trim()) return ids.map(() => [0, Number.MAX_SAFE_INTEGER]);
  return (await dense.similarities(text, ids)).map((m) => [m.score, m.rank]);
}

// Bigram sets of passages, per dense retriever (keyed by its similarities function: one per opened index), bounded.
const passageBigrams = new WeakMap<object, Map<string, Set<string>>>();
const CACHE_MAX = 50_000;

export async function gatherCandidateSignals(source: SignalSource, input: SignalInput): Promise<CandidateSignals> {
  const queries = [...input.hypotheses, input.facts, input.question];
  const perQuery: DenseMatch[][] = [];
  for (const q of queries) perQuery.push(await denseMatches(source.dense, q, input.ids));
  const qb = queries.map(bigrams);
  let cache = passageBigrams.get(source.dense.similarities);
  if (!cache) passageBigrams.set(source.dense.similarities, (cache = new Map()));
  const phrase: number[][] = [];
  for (const id of input.ids) {
    let pb = cache.get(id);
    if (!pb) {
      const text = await source.passageText(id);
      if (text === undefined) throw errors.notFound('passage text for the evidence selector', id);
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(id, (pb = bigrams(text)));
    }
    phrase.push(qb.map((b) => bigramShare(b, pb)));
  }
  return { dense: input.ids.map((_, c) => perQuery.map((m) => m[c])), phrase };
}
