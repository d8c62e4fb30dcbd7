/**
 * Dense and phrase signals of the evidence selector's candidates (evidence-selector.ts, the
 * 108-feature model): for every candidate passage p of a question,
 *  - dense: the cosine of p with each option's hypothesis, with the facts and with the question
 *    sentence, and p's rank among all of the index's passages for each of those queries (the dense
 *    retriever's own search; the index must be small enough to rank whole, see DENSE_DEPTH);
 *  - phrase: the share of each query's word bigrams (analysed terms, stopwords dropped, adjacent
 *    pairs) that p contains, for each hypothesis, the facts and the question sentence.
 * All are query-dependent; nothing is a function of the passage alone.
 */
import type { Retriever } from '../../retrieval/types.js';
import { createAnalyzer, type Analyzer } from '../../retrieval/analyzer.js';
import { errors } from '../../core/errors.js';

/** Passages ranked per dense query; candidates outside get the last hit's cosine and rank DENSE_DEPTH + 1. */
export const DENSE_DEPTH = 10_000;

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

async function denseMatches(dense: Retriever, text: string, ids: string[]): Promise<DenseMatch[]> {
  const hits = text.trim() ? await dense.search(text, { k: DENSE_DEPTH }) : [];
  const byId = new Map(hits.map((h) => [h.id, h]));
  const last = hits.length ? hits[hits.length - 1].score : 0;
  return ids.map((id) => {
    const h = byId.get(id);
    return h ? [h.score, h.rank] : [last, DENSE_DEPTH + 1];
  });
}

export async function gatherCandidateSignals(
  dense: Retriever,
  passageText: (id: string) => Promise<string | undefined>,
  input: SignalInput,
): Promise<CandidateSignals> {
  const queries = [...input.hypotheses, input.facts, input.question];
  const perQuery: DenseMatch[][] = [];
  for (const q of queries) perQuery.push(await denseMatches(dense, q, input.ids));
  const qb = queries.map(bigrams);
  const phrase: number[][] = [];
  for (const id of input.ids) {
    const text = await passageText(id);
    if (text === undefined) throw errors.notFound('passage text for the evidence selector', id);
    const pb = bigrams(text);
    phrase.push(qb.map((b) => bigramShare(b, pb)));
  }
  return { dense: input.ids.map((_, c) => perQuery.map((m) => m[c])), phrase };
}
