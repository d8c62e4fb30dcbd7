/** Direct Claim Adoption (CASE §4 (1a)): the answer options are the competing hypotheses. */
import { LETTERS, type Question } from '../../corpora/types.js';
import type { Hypothesis } from './types.js';

export function directHypotheses(q: Pick<Question, 'choices'>): Hypothesis[] {
  return q.choices.map((text, i) => ({ key: LETTERS[i], text: text.trim(), letter: LETTERS[i] })).filter((h) => h.text.length > 0);
}
