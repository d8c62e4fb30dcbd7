/** MMLU-Pro (law) records → Question: {question_id, question, options[2..10], answer "A".."J", src}. */
import { errors } from '../core/errors.js';
import { refuseEmptyGoldOption } from './gold-option.js';
import { ONE_OBJECT_A_LINE } from './one-object-a-line.js';
import { LETTERS, type Question } from './types.js';

export function mmluProQuestion(rec: unknown, file: string, line: number): Question {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec))
    throw errors.corpusParse(file, line, `expected an object${Array.isArray(rec) ? `, got an array: ${ONE_OBJECT_A_LINE}` : ''}`);
  const r = rec as Record<string, unknown>;
  const id = String(r.question_id ?? r.id ?? '').trim();
  if (!id) throw errors.corpusParse(file, line, 'missing question id (field "question_id")');
  if (!Array.isArray(r.options) || r.options.length < 2 || r.options.length > LETTERS.length)
    throw errors.corpusParse(file, line, `question ${id}: field "options" must be an array of 2..10 strings`);
  const choices = r.options.map((o) => String(o));
  const answer = String(r.answer ?? '')
    .trim()
    .toUpperCase();
  if (!LETTERS.slice(0, choices.length).includes(answer)) {
    throw errors.corpusParse(file, line, `question ${id}: field "answer" must be a letter A..${LETTERS[choices.length - 1]}, got "${String(r.answer)}"`);
  }
  refuseEmptyGoldOption(id, choices, answer, (i) => `options[${i}]`, file, line);
  return {
    id,
    prompt: '',
    question: String(r.question ?? '').trim(),
    choices,
    answer,
    goldPassageIds: [],
    meta: { src: r.src, answer_index: r.answer_index },
  };
}
