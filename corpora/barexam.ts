/**
 * The Bar Exam QA format (reglab/barexam_qa, public MBE subset). Two record shapes are accepted,
 * from JSONL or CSV:
 *  - lexcase's bundled form: {id, prompt, question, choices[4], answer "A".."D", gold_idx, source, subject, question_number}
 *  - the upstream flat form: {idx, prompt, question, choice_a..choice_d, answer, gold_idx[, gold_passage]}
 * Passages are {id (= gold_idx), text}. The retrieval query of the paper is prompt + question
 * (see `retrievalQuery`).
 */
import { errors } from '../core/errors.js';
import { refuseEmptyGoldOption, refuseTwinGoldOption } from './gold-option.js';
import { ONE_OBJECT_A_LINE } from './one-object-a-line.js';
import { LETTERS, type Question } from './types.js';

/**
 * A field's text: a string, or a number's digits (CSV cells are strings; a JSONL id may be a number);
 * absent or null is '' (a choice must be there). Anything else is refused naming the field: `"gold_idx": ["p1", "p2"]` was read
 * as the one id "p1,p2", found in no index, and the question counted as a miss "with no gold passage
 * in this index"; an object became "[object Object]".
 */
function text(r: Record<string, unknown>, field: string, file: string, line: number, absentOk = true): string {
  const v = r[field];
  if ((v === undefined || v === null) && absentOk) return '';
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  const what = v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
  const one = field === 'gold_idx' ? ' (one gold passage id per question in this format)' : '';
  throw errors.corpusParse(file, line, `field "${field}" must be a string or a number${one}, got ${what}: ${JSON.stringify(v).slice(0, 80)}`);
}

export function barexamQuestion(rec: unknown, file: string, line: number): Question {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec))
    throw errors.corpusParse(file, line, `expected an object${Array.isArray(rec) ? `, got an array: ${ONE_OBJECT_A_LINE}` : ''}`);
  const r = rec as Record<string, unknown>;
  const str = (field: string) => text(r, field, file, line);
  const id = (r.id !== undefined && r.id !== null ? str('id') : str('idx')).trim();
  if (!id) throw errors.corpusParse(file, line, 'missing question id (field "id" or "idx")');
  let choices: string[];
  let choiceField: (i: number) => string;
  if (Array.isArray(r.choices)) {
    choices = r.choices.map((c, i) => text({ [`choices[${i}]`]: c }, `choices[${i}]`, file, line, false));
    choiceField = (i) => `choices[${i}]`;
  } else if ('choice_a' in r) {
    const fields = ['choice_a', 'choice_b', 'choice_c', 'choice_d'];
    choices = fields.map(str);
    choiceField = (i) => fields[i];
  } else throw errors.corpusParse(file, line, `question ${id}: missing field "choices" (or choice_a..choice_d)`);
  const answer = str('answer').trim().toUpperCase();
  if (!LETTERS.slice(0, choices.length).includes(answer)) {
    throw errors.corpusParse(file, line, `question ${id}: field "answer" must be one of ${LETTERS.slice(0, choices.length).join('/')}, got "${str('answer')}"`);
  }
  refuseEmptyGoldOption(id, choices, answer, choiceField, file, line);
  refuseTwinGoldOption(id, choices, answer, choiceField, file, line);
  const gold = str('gold_idx').trim();
  const meta: Record<string, unknown> = {};
  for (const k of ['source', 'subject', 'question_number']) if (r[k] !== undefined && r[k] !== '') meta[k] = r[k];
  return {
    id,
    prompt: str('prompt').trim(),
    question: str('question').trim(),
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
