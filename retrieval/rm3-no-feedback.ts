/**
 * RM3 queries that gained no feedback term. Anserini's rule keeps as a feedback term only one in at
 * most 10 % of the documents (rm3-params.ts RM3_MAX_DF_SHARE) and, under filterTerms, of
 * [a-z0-9]{2,20}; on a small corpus (under 10 passages: every term is in at least one, over 10 %) or one of
 * shared vocabulary, no term of the feedback documents may qualify. The expanded query is then the
 * original query alone and ranks as the base method does, so a `--rm3` run's figures are the base
 * run's. The figures are right (the rule is Anserini's); a batch or evaluation says how many of its
 * queries this was, so identical figures do not read as an expansion that changed nothing by
 * chance. A query with no feedback document (no first-stage hit) is not counted: it has no hit at
 * all, which the run says already.
 */
import type { Retriever } from './types.js';
import type { Rm3Expansion, Rm3Retriever } from './rm3.js';

/** For an RM3 retriever whose expansion of `query` had feedback documents but no feedback term: the note saying so (queryNoFeedbackNote); else undefined. */
export async function noFeedbackOf(retriever: Retriever, query: string): Promise<string | undefined> {
  if (!('expand' in retriever)) return undefined;
  // the expansion the search just used (rm3.ts keeps the last queries' expansions): no second first stage
  return queryNoFeedbackNote(await (retriever as Rm3Retriever).expand(query));
}

/** Whether `query`'s RM3 expansion gained no feedback term (noFeedbackOf); false for any other retriever. */
export const gainedNoFeedbackTerm = async (retriever: Retriever, query: string): Promise<boolean> => (await noFeedbackOf(retriever, query)) !== undefined;

const WHY =
  "every term of the feedback documents is in more than 10% of the documents (Anserini's rule) or is not of [a-z0-9]{2,20}, " +
  'so the expanded query is the original query alone and ranks as the base method does';

/** "N of M topics gained no RM3 feedback term …" naming the first five of `ids`, when any did. */
export function noFeedbackNote(ids: readonly string[], total: number, what: 'topics' | 'questions' = 'topics'): string | undefined {
  if (ids.length === 0) return undefined;
  const of = total === 1 ? what.slice(0, -1) : what;
  return `${ids.length} of ${total} ${of} gained no RM3 feedback term (e.g. ${ids.slice(0, 5).join(', ')}): ${WHY}`;
}

/** One query's: "the query gained no RM3 feedback term …", or undefined. */
export function queryNoFeedbackNote(e: Pick<Rm3Expansion, 'feedback' | 'feedbackTerms'>): string | undefined {
  return e.feedback.length > 0 && e.feedbackTerms === 0 ? `the query gained no RM3 feedback term: ${WHY}` : undefined;
}
