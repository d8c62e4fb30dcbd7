/**
 * The queries an advocate sends for one hypothesis (offline advocate, and the LLM advocate's default
 * tool plan). Measured on the Bar Exam QA *train* split (docs/case.md): with the facts in the query
 * the long fact pattern drowns the hypothesis — every option pulls up the same fact-matching
 * passages — so the hypothesis is the main query and the facts only a second, context query.
 *
 * - `hypothesis`: the hypothesis text alone;
 * - `terms`: its key legal terms — its content words that the facts do not already contain (the
 *   doctrine names and elements an option adds: "hearsay", "adverse possession", "consideration"),
 *   falling back to all its content words when every word is in the facts;
 * - `facts+hypothesis`: the facts of the case (fact pattern + question) and the hypothesis.
 */
import { englishStopwordList } from '../../retrieval/analyzer.js';

export type QueryKind = 'hypothesis' | 'terms' | 'facts+hypothesis';
export const QUERY_KINDS: readonly QueryKind[] = ['hypothesis', 'terms', 'facts+hypothesis'];

export interface AdvocateQuery {
  kind: QueryKind;
  text: string;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
/** Words that carry no legal content in an answer option. */
const FILLER = new Set([
  'because',
  'unless',
  'would',
  'could',
  'should',
  'must',
  'may',
  'might',
  'yes',
  'no',
  'not',
  'since',
  'also',
  'only',
  'even',
  'though',
  'whether',
  'will',
  'shall',
]);

function contentWords(text: string): string[] {
  const stop = englishStopwordList();
  return (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/['’]s$/, '')).filter((w) => w.length > 2 && !stop.has(w) && !FILLER.has(w));
}

/** The hypothesis's content words that the facts do not contain, in order, without repeats. */
export function keyTerms(hypothesis: string, facts: string): string[] {
  const own = [...new Set(contentWords(hypothesis))];
  const inFacts = new Set(contentWords(facts));
  const fresh = own.filter((w) => !inFacts.has(w));
  return fresh.length ? fresh : own;
}

/** The advocate's queries for `hypothesis` (kinds in `kinds` order; empty queries are left out). */
export function advocateQueries(facts: string, hypothesis: string, kinds: readonly QueryKind[] = QUERY_KINDS): AdvocateQuery[] {
  const out: AdvocateQuery[] = [];
  for (const kind of kinds) {
    const text =
      kind === 'hypothesis'
        ? hypothesis.trim()
        : kind === 'terms'
          ? keyTerms(hypothesis, facts).join(' ')
          : [facts.trim(), hypothesis.trim()].filter(Boolean).join('\n');
    if (text && !out.some((q) => q.text === text)) out.push({ kind, text });
  }
  return out;
}
