/**
 * Whether a question's gold passages are in the index a run reads. A question none of whose gold
 * passages is in the index can only miss every gold figure (Recall@k, gold in an advocate's
 * evidence, gold cited): `eval retrieval` refuses an index that holds none of them, and the runs
 * mark each item `goldInIndex` (true/false) in its metrics — the retrieval grid runs
 * (reproduce/retrieval-run.ts) and the agent runs that report gold-evidence figures (CASE, its
 * baselines, MAD: agents/common/gold-in-index.ts). From those flags every surface that prints a
 * gold figure (the runs' own output, report.md, `lexcase report`, the explorer) says how many items
 * count as misses for that reason, and prints a figure over items none of which has its gold
 * passage in the index as NO_GOLD_IN_INDEX, never as 0%.
 */
import type { Question } from '../corpora/types.js';
import { errors } from '../core/errors.js';
import type { ResultRecord } from './types.js';

/** What the checks read of an index's doc store. */
export type DocIds = { indexOf(id: string): number };

/** The per-item metric: the question has gold ids and at least one of them is in the index. */
export const GOLD_IN_INDEX = 'goldInIndex';

/** How a gold figure over items none of which has its gold passage in the index is printed. */
export const NO_GOLD_IN_INDEX = '— (no gold passage in this index)';

/** Whether the question has gold ids and none of them is in the index's doc store: it can only score 0. */
export const goldMissingFrom = (docs: DocIds, q: Question): boolean => q.goldPassageIds.length > 0 && q.goldPassageIds.every((g) => docs.indexOf(g) < 0);

/** Questions with gold ids of which none is in the index's doc store (of an opened index). */
export function countGoldMissing(docs: DocIds, questions: readonly Question[]): { questions: number; examples: string[] } {
  const missing = questions.filter((q) => goldMissingFrom(docs, q));
  return { questions: missing.length, examples: missing.slice(0, 5).map((q) => q.id) };
}

/**
 * A likely cause for gold ids of a question file that no passage of the index has, where one shows
 * (as eval/trec/qrels-in-index.ts gives for qrels): the id is in the index in the other Unicode
 * normalisation form (NFC/NFD), or it is several ids in one field (`p1;p2`, `p1, p2`, every part an
 * id of the index) — not an index without those passages, as the warning alone said. Undefined when
 * none shows.
 */
export function goldMissingHint(docs: DocIds, questions: readonly Question[]): string | undefined {
  const forms: string[] = [];
  const lists: string[] = [];
  for (const q of questions) {
    if (!goldMissingFrom(docs, q)) continue;
    for (const g of q.goldPassageIds) {
      const other = [g.normalize('NFC'), g.normalize('NFD')].find((f) => f !== g && docs.indexOf(f) >= 0);
      if (other !== undefined && forms.length < 3) forms.push(`${esc(g)} (question ${q.id}) is ${esc(other)} in the index`);
      const parts = g.split(/[,;|\s]+/).filter(Boolean);
      if (parts.length > 1 && parts.every((p) => docs.indexOf(p) >= 0) && lists.length < 3) lists.push(`${JSON.stringify(g)} (question ${q.id})`);
    }
  }
  const hints: string[] = [];
  if (forms.length)
    hints.push(`${forms.join(', ')}: another Unicode normalisation form (NFC/NFD) of the same text; write the gold ids as the corpus spells them`);
  if (lists.length)
    hints.push(
      `${lists.join(', ')} ${lists.length === 1 ? 'is' : 'are'} several passage ids of this index in one gold field, read as one id; this format has one gold passage id per question`,
    );
  return hints.length ? hints.join('; ') : undefined;
}

/** Questions (with gold ids) none of whose gold passages is in the index, with the likely cause where one shows. */
export interface GoldMissing {
  questions: number;
  examples: string[];
  hint?: string;
}

/** countGoldMissing with goldMissingHint: what a retrieval evaluation reports of its questions' gold passages. */
export function goldMissingOf(docs: DocIds, questions: readonly Question[]): GoldMissing {
  const missing: GoldMissing = countGoldMissing(docs, questions);
  const hint = goldMissingHint(docs, questions);
  return hint ? { ...missing, hint } : missing;
}

/**
 * The refusal of a retrieval evaluation none of whose questions has its gold passage in the index:
 * every metric would be 0. `of`: the questions (`124 questions of dataset "barexam" split "val"`),
 * `index`: where they were looked for (`index DIR`, `this index`), `corpus`: the index's corpus name.
 */
export function noGoldInIndexError(m: GoldMissing, of: string, index: string, corpus: string): Error {
  return errors.nothingToEvaluate(
    `none of the ${of} has its gold passage in ${index} (corpus ${corpus}, e.g. ${m.examples.join(', ')} are missing): every metric would be 0${m.hint ? `; likely cause: ${m.hint}` : ''}`,
    'index a corpus that contains the gold passages (e.g. "default" or "barexam")',
  );
}

/**
 * The warning beside retrieval figures some of whose questions (`unit`: question, topic) have no gold
 * passage in the index: they count as misses. `bundled`: the questions are the bundled Bar Exam QA's.
 */
export function goldMissingLine(m: GoldMissing, evaluated: number, unit: string, bundled: boolean): string {
  const int = (n: number) => n.toLocaleString('en-US');
  return `${int(m.questions)} of ${int(evaluated)} ${unit}s have no gold passage in this index (e.g. ${m.examples.join(', ')}); they count as misses. ${m.hint ? `Likely cause: ${m.hint}.` : `Index a corpus that contains the gold passages${bundled ? ' (e.g. "default" or "barexam")' : ''}.`}`;
}

/** An id quoted with its non-ASCII characters escaped, so two Unicode forms that print alike read apart. */
const esc = (id: string): string => JSON.stringify(id).replace(/[^\u0020-\u007e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The metric for a question (none for a question without gold ids). */
export const goldInIndexMetric = (docs: DocIds, q: Question): Record<string, boolean> =>
  q.goldPassageIds.length ? { [GOLD_IN_INDEX]: !goldMissingFrom(docs, q) } : {};

export interface GoldCoverage {
  /** Items that record `goldInIndex`. */
  items: number;
  /** Of them, those with no gold passage in the index. */
  missing: number;
  /** Up to 5 of their ids. */
  examples: string[];
}

/** The run's items that record `goldInIndex` and how many of them have no gold passage in the index; undefined when none records it (older runs). */
export function goldCoverage(records: readonly ResultRecord[]): GoldCoverage | undefined {
  const marked = records.filter((r) => typeof r.metrics?.[GOLD_IN_INDEX] === 'boolean');
  if (!marked.length) return undefined;
  const missing = marked.filter((r) => r.metrics?.[GOLD_IN_INDEX] === false);
  return { items: marked.length, missing: missing.length, examples: missing.slice(0, 5).map((r) => r.id) };
}

/** Whether every item a gold figure over the boolean metric `key` counts has no gold passage in the index (the figure is 0 by construction). */
export function goldAbsentFor(records: readonly ResultRecord[], key: string): boolean {
  const counted = records.filter((r) => typeof r.metrics?.[key] === 'boolean');
  return counted.length > 0 && counted.every((r) => r.metrics?.[GOLD_IN_INDEX] === false);
}

/** The line beside a run's gold figures when some of its items have no gold passage in the index; undefined when all have. */
export function goldCoverageNote(c: GoldCoverage | undefined): string | undefined {
  if (!c?.missing) return undefined;
  if (c.missing === c.items) return `none of the ${c.items} items has its gold passage in this index: the gold figures are not given (accuracy is unaffected)`;
  return `${c.missing} of ${c.items} items have no gold passage in this index (e.g. ${c.examples.join(', ')}): the gold figures count them as misses`;
}

/** The warning a run prints at its start when some of its questions have no gold passage in the index; undefined when all have. */
export function goldMissingWarning(docs: DocIds, questions: readonly Question[], where: string): string | undefined {
  const withGold = questions.filter((q) => q.goldPassageIds.length > 0).length;
  const missing = countGoldMissing(docs, questions);
  if (!missing.questions) return undefined;
  const what =
    missing.questions === withGold
      ? `none of the ${withGold} questions has its gold passage in ${where} (e.g. ${missing.examples.join(', ')}): the gold figures are not given (accuracy is unaffected)`
      : `${missing.questions} of ${withGold} questions have no gold passage in ${where} (e.g. ${missing.examples.join(', ')}): the gold figures count them as misses`;
  return `${what}; index a corpus that contains the gold passages (e.g. "default" or "barexam")`;
}

/**
 * "3 failed items count as misses", or "3 failed items count with what was found before they failed: 1 as a hit": the
 * note of a gold figure over failed items, whose flags are what was found before they failed (nothing when they failed
 * first). `hits`: the failed items whose flag is true. Before 2026-12-05 the note said "count as misses" whatever the
 * flags were, while a failed item whose advocates had found the gold counted as a hit.
 */
export const failedMissesNote = (failed: number, hits = 0): string =>
  hits
    ? `${failed} failed item${failed === 1 ? '' : 's'} count${failed === 1 ? 's' : ''} with what was found before ${failed === 1 ? 'it' : 'they'} failed: ${hits} as ${hits === 1 ? 'a hit' : 'hits'}`
    : `${failed} failed item${failed === 1 ? '' : 's'} count${failed === 1 ? 's' : ''} as ${failed === 1 ? 'a miss' : 'misses'}`;
