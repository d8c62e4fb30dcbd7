/** How a Question is shown to CASE's agents: the fact pattern + question, and the lettered options. */
import { LETTERS, type Question } from '../../corpora/types.js';

/** Facts + question (the paper's retrieval query is prompt + question). */
export function factsOf(q: Pick<Question, 'prompt' | 'question'>): string {
  return [q.prompt, q.question]
    .map((s) => s.trim())
    .filter(Boolean)
    .join('\n');
}

export function optionsBlock(q: Pick<Question, 'choices'>): string {
  return q.choices.map((c, i) => `${LETTERS[i]}. ${c}`).join('\n');
}

/** Option letters that have text (mbe_494 has an empty D). */
export function optionLetters(q: Pick<Question, 'choices'>): string[] {
  return q.choices.map((c, i) => (c.trim() ? LETTERS[i] : '')).filter(Boolean);
}

/**
 * The length of `text` with its whitespace collapsed (as the prompts show it) when that is over
 * `max` and `truncate` would cut it; undefined when it is shown whole. Traces record it so a report
 * can count the passages a model saw only the start of. `collapse` false: a prompt that shows the
 * text as it is (ACAL's evidence) and cuts its raw length.
 */
export function cutFrom(text: string, max: number, collapse = true): number | undefined {
  const n = (collapse ? text.replace(/\s+/g, ' ') : text).length;
  return n > max ? n : undefined;
}

/** `text` whole when it fits in `max` UTF-16 units, else its start and '…', never split inside a surrogate pair (core/truncate.ts). */
export { truncate } from '../../core/truncate.js';
