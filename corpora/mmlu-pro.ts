/** MMLU-Pro (law) records → Question: {question_id, question, options[2..10], answer "A".."J", src}. */
import { errors } from '../core/errors.js';
import { refuseEmptyGoldOption, refuseTwinGoldOption } from './gold-option.js';
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
  // an option that is not text was read as its String(): null as the option "null", an object as "[object Object]"
  const choices = r.options.map((o, i) => {
    if (typeof o === 'string' || typeof o === 'number') return String(o);
    throw errors.corpusParse(file, line, `question ${id}: field "options[${i}]" must be a string, got ${JSON.stringify(o)?.slice(0, 80)}`);
  });
  const answer = String(r.answer ?? '')
    .trim()
    .toUpperCase();
  if (!LETTERS.slice(0, choices.length).includes(answer)) {
    throw errors.corpusParse(file, line, `question ${id}: field "answer" must be a letter A..${LETTERS[choices.length - 1]}, got "${String(r.answer)}"`);
  }
  refuseEmptyGoldOption(id, choices, answer, (i) => `options[${i}]`, file, line);
  refuseTwinGoldOption(id, choices, answer, (i) => `options[${i}]`, file, line);
  // MMLU-Pro gives the gold twice (answer "D", answer_index 3): where the two disagree, which is the gold is not known
  const ix = r.answer_index;
  if (ix !== undefined && ix !== null && ix !== '' && String(ix).trim() !== String(LETTERS.indexOf(answer)))
    throw errors.corpusParse(
      file,
      line,
      `question ${id}: field "answer" is ${answer} (options[${LETTERS.indexOf(answer)}]) but field "answer_index" is ${JSON.stringify(ix)}: the two name different golds`,
    );
  const question = String(r.question ?? '').trim();
  if (!question) throw errors.corpusParse(file, line, `question ${id}: field "question" is missing or empty`);
  return {
    id,
    prompt: '',
    question,
    choices,
    answer,
    goldPassageIds: [],
    meta: { src: r.src, answer_index: r.answer_index },
  };
}
