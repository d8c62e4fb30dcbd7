/**
 * The options a multiple-choice system can offer for one item: the letters of the options with
 * text (an empty option is not offered: mbe_494's empty D), at least 2 and at most 10 (A–J).
 * Anything else is one failed item, its error naming the item and the field (`choices`, or the
 * empty `choices[i]` that left fewer than 2): one option with text would be the only answer the
 * reply schema allows, right whenever it is the gold, whatever the model read.
 */
import { LETTERS, type Question } from '../../corpora/types.js';
import { errors, errorText } from '../../core/errors.js';
import type { SystemOutcome } from '../../eval/types.js';

export function offeredLetters(q: Pick<Question, 'id' | 'choices'>, system: string): string[] {
  const n = q.choices.length;
  if (n > LETTERS.length) throw errors.itemOptions(q.id, 'choices', `has ${n} options: ${system} letters only ${LETTERS.length} (A–${LETTERS.at(-1)})`);
  const letters = q.choices.flatMap((c, i) => (c.trim() ? [LETTERS[i]] : []));
  if (letters.length >= 2) return letters;
  const empty = q.choices.flatMap((c, i) => (c.trim() ? [] : [i]));
  const left = letters.length ? `${letters.length} option with text (${letters[0]})` : 'no option with text';
  const needs = `${system} needs at least 2 options with text to choose between`;
  if (empty.length)
    return refuse(q.id, `choices[${empty[0]}]`, `is empty${empty.length > 1 ? ` (and ${empty.length - 1} more)` : ''}, leaving ${left}: ${needs}`);
  return refuse(q.id, 'choices', `${n ? `has ${left}` : 'is empty'}: ${needs}`);
}

function refuse(id: string, field: string, message: string): never {
  throw errors.itemOptions(id, field, message);
}

/**
 * The outcome of an item `offeredLetters` refuses (a failed item, its error in `trace.error` too, no
 * metric: nothing was searched, argued or answered), or undefined when it has 2 to 10 options with text.
 */
export function refusedOptions(q: Pick<Question, 'id' | 'choices'>, system: string, trace: Record<string, unknown>): SystemOutcome | undefined {
  try {
    offeredLetters(q, system);
    return undefined;
  } catch (e) {
    const error = (trace.error = errorText(e));
    return { prediction: null, trace, error };
  }
}
