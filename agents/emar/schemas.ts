/**
 * zod schemas of EMAR's JSON replies. Sent to the endpoint in the strict subset
 * (core/llm/strict-schema.ts): the option letter is an enum of the case's letters, so a
 * schema-following server can only write a letter the parser takes.
 */
import { z } from 'zod';
import { LETTERS } from '../../corpora/types.js';
import { declareAnswerFields } from '../../core/llm/answer-fields.js';
import { optionLetterSchema, optionTexts } from '../common/option-letter.js';

const str = z.preprocess((v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)), z.string());
const list = z.preprocess((v) => (typeof v === 'string' ? [v] : (v ?? [])), z.array(str));

/** The letters of a case's options that have text (an empty option cannot be argued for). */
export function caseLetters(choices: string[]): string[] {
  const letters = choices.map((c, i) => (c.trim() ? LETTERS[i] : '')).filter(Boolean);
  return letters.length ? letters : LETTERS.slice(0, choices.length);
}

/**
 * One option letter among `letters` ("b", "(B)", "B. text" → "B"; agents/common/option-letter.ts); sent as an enum of `letters`.
 * `choices`: the case's options as shown, so "B. <option A's text>" names no letter.
 */
export function letterSchema(letters: string[], choices?: readonly string[]) {
  return optionLetterSchema(letters, `expected one of ${letters.join(', ')}`, choices && optionTexts(choices));
}

export const factsSchema = z.object({ facts: list });

/**
 * A party's position. The evidence and the reasoning come before the conclusion and the option: a
 * schema-following server writes keys in schema order, so the party reasons before it decides.
 */
export const claimSchema = (letters: string[], choices?: readonly string[]) =>
  // a party's argument answers the other party's ("the proponent's answer is B, but …"): it is not read
  declareAnswerFields(z.object({ evidence: list, argument: str, claim: str, answer: letterSchema(letters, choices) }), { answer: 'answer', reasoning: [] });

/** The judge: established facts, then the rationale, then the option (reasoning before the decision). */
export const judgeSchema = (letters: string[], choices?: readonly string[]) =>
  declareAnswerFields(z.object({ established_facts: list, rationale: str, answer: letterSchema(letters, choices) }), {
    answer: 'answer',
    reasoning: ['rationale'],
  });
