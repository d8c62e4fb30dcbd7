/**
 * A question's gold answer must name an option with text. Every system that asks for a letter
 * offers only the options that have text (EMAR's schema enum, CASE's hypotheses, MAD's debaters), so
 * a gold letter on an empty option could never be answered: the question counted as wrong whatever
 * the model did (a file of 6 questions, gold D, three with D empty: a model answering D wherever it
 * was offered read 3 of 6, exit 0). Refused naming the file, line and field.
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
