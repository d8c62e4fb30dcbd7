/**
 * The fixed input every system's requests.ts renders its prompts on for the run's request
 * fingerprint (eval/request-fingerprint.ts): placeholders, never an item, so the fingerprint
 * depends on the templates only.
 */
import type { Question } from '../../corpora/types.js';

export const PROBE_TEXT = '{text}';

/** A four-option question of placeholders. */
export const PROBE_QUESTION: Question = {
  id: 'probe',
  prompt: '{facts}',
  question: '{question}',
  choices: ['{A}', '{B}', '{C}', '{D}'],
  answer: 'A',
  goldPassageIds: [],
};

export const PROBE_LETTERS = ['A', 'B', 'C', 'D'];

/** One passage of placeholder text. */
export const PROBE_PASSAGE = { id: 'probe-passage', text: '{passage}' };
