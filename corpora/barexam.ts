/**
 * The Bar Exam QA format (reglab/barexam_qa, public MBE subset). Two record shapes are accepted,
 * from JSONL or CSV:
 *  - lexcase's bundled form: {id, prompt, question, choices[4], answer "A".."D", gold_idx, source, subject, question_number}
 *  - the upstream flat form: {idx, prompt, question, choice_a..choice_d, answer, gold_idx[, gold_passage]}
 * Passages are {id (= gold_idx), text}. The retrieval query of the paper is prompt + question
 * (see `retrievalQuery`).
 */
import { errors } from '../core/errors.js';
import { LETTERS, type Question } from './types.js';

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export function barexamQuestion(rec: unknown, file: string, line: number): Question {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) throw errors.corpusParse(file, line, 'expected an object');
  const r = rec as Record<string, unknown>;
  const id = str(r.id ?? r.idx).trim();
  if (!id) throw errors.corpusParse(file, line, 'missing question id (field "id" or "idx")');
  let choices: string[];
  if (Array.isArray(r.choices)) choices = r.choices.map(str);
  else if ('choice_a' in r) choices = ['choice_a', 'choice_b', 'choice_c', 'choice_d'].map((k) => str(r[k]));
  else throw errors.corpusParse(file, line, `question ${id}: missing field "choices" (or choice_a..choice_d)`);
  const answer = str(r.answer).trim().toUpperCase();
  if (!LETTERS.slice(0, choices.length).includes(answer)) {
    throw errors.corpusParse(file, line, `question ${id}: field "answer" must be one of ${LETTERS.slice(0, choices.length).join('/')}, got "${str(r.answer)}"`);
  }
  const gold = str(r.gold_idx).trim();
  const meta: Record<string, unknown> = {};
  for (const k of ['source', 'subject', 'question_number']) if (r[k] !== undefined && r[k] !== '') meta[k] = r[k];
  return {
    id,
    prompt: str(r.prompt).trim(),
    question: str(r.question).trim(),
    choices,
    answer,
    goldPassageIds: gold ? [gold] : [],
    meta,
  };
}

/** The query text used for retrieval evaluation: prompt (fact pattern) + "\n" + question. */
export function retrievalQuery(q: Pick<Question, 'prompt' | 'question'>): string {
  return [q.prompt, q.question].filter((s) => s && s.trim()).join('\n');
}
