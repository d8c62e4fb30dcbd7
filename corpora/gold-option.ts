/**
 * A question's gold answer must name an option with text. Every system that asks for a letter
 * offers only the options that have text (EMAR's schema enum, CASE's hypotheses, MAD's debaters), so
 * a gold letter on an empty option could never be answered: the question counted as wrong whatever
 * the model did (a file of 6 questions, gold D, three with D empty: a model answering D wherever it
 * was offered read 3 of 6, exit 0). Refused naming the file, line and field. So is a gold option whose
 * text (up to case and white space) another option has too: a model answering the twin's letter gave
 * the gold text and was scored wrong (4 such questions in a --dataset-file read 0.0%, exit 0), as the
 * LegalBench loader refuses one text under two answers.
 */
import { errors } from '../core/errors.js';
import { LETTERS } from './types.js';

export function refuseEmptyGoldOption(id: string, choices: readonly string[], answer: string, field: (i: number) => string, file: string, line: number): void {
  const i = LETTERS.indexOf(answer);
  if (i < 0 || choices[i]?.trim()) return;
  throw errors.corpusParse(
    file,
    line,
    `question ${id}: field "answer" is ${answer}, but field "${field(i)}" is empty: the systems offer only the options with text, so this gold answer could never be given`,
  );
}

const textKey = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Refuse a gold option whose text another option has too (up to case and white space), naming both fields. */
export function refuseTwinGoldOption(id: string, choices: readonly string[], answer: string, field: (i: number) => string, file: string, line: number): void {
  const i = LETTERS.indexOf(answer);
  if (i < 0 || !choices[i]?.trim()) return;
  const j = choices.findIndex((c, k) => k !== i && textKey(c) === textKey(choices[i]));
  if (j < 0) return;
  throw errors.corpusParse(
    file,
    line,
    `question ${id}: field "answer" is ${answer}, but field "${field(j)}" (${LETTERS[j]}) has the same text as the gold "${field(i)}": a model answering ${LETTERS[j]} gives the gold text and would be scored wrong; make the options differ or drop the question`,
  );
}
