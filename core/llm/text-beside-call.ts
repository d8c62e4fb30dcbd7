/**
 * A forced call (tool mode, structured.ts) whose reply also has text that names another answer:
 * `content` "Answer: C" beside arguments {"answer": "B"}. The call is read (B); before 2026-12-02
 * nothing said the reply disagreed with itself. Now each such reply is counted on the item's usage
 * (results.jsonl `tokens.textOtherAnswer`), said in the end-of-run line, report.md's Tokens section and
 * report.json, and logged with the letters. Only an option letter the text names as the answer counts:
 * a JSON object in the text with the same field, or a letter named after "answer"/"vote"/"verdict" by
 * the one rule of core/llm/named-answer.ts ("Answer: C", "the answer is (c)", "**Answer:** C", "Answer:
 * Option C"; never the article of "Answer: A lawyer must …", which before 2026-12-02's third change was
 * counted as A). Prose naming none is not counted; text naming two or more letters counts when none of
 * them is the call's ("Answer: C … on reflection, answer: D" beside B: before, two letters were never
 * counted), and not when one is (the text may have settled on the call's).
 */
import type { z } from 'zod';
import { log } from '../log.js';
import { answersNamed } from './named-answer.js';
import { currentUsageScope } from './usage.js';

/** The fields that carry an option letter in the systems that ask for one (baselines, MAD, EMAR: `answer`; CASE's jurors: `vote`; MAD's judge: `verdict`). */
const LETTER_FIELDS = ['answer', 'vote', 'verdict'] as const;
const ONE_LETTER = /^[A-Z]$/;

/** The letters `text` (or the JSON object `json` read from it) names for `field`, in order, each once. */
function namedIn(text: string, json: unknown, field: string): string[] {
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const v = (json as Record<string, unknown>)[field];
    return typeof v === 'string' ? [v] : [];
  }
  return [
    ...new Set(
      answersNamed(text)
        .filter((n) => n.word === field)
        .map((n) => n.letter),
    ),
  ];
}

/**
 * The option letters the reply's text names for a field whose call named another ("C", or "C then D"), each read as
 * `schema` reads it; undefined when the text names none of the schema's letters, or names the call's among them.
 */
export function otherAnswerInText<S extends z.ZodType>(
  text: string,
  json: unknown,
  args: unknown,
  read: z.infer<S>,
  schema: S,
): { field: string; text: string; call: string } | undefined {
  if (!text.trim() || !args || typeof args !== 'object' || !read || typeof read !== 'object') return undefined;
  for (const field of LETTER_FIELDS) {
    const called = (read as Record<string, unknown>)[field];
    if (typeof called !== 'string' || !ONE_LETTER.test(called)) continue;
    const named = namedIn(text, json, field).map((n) => {
      const r = schema.safeParse({ ...(args as Record<string, unknown>), [field]: n });
      const letter = r.success ? (r.data as Record<string, unknown>)[field] : undefined;
      return typeof letter === 'string' && ONE_LETTER.test(letter) ? letter : undefined;
    });
    const letters = [...new Set(named.filter((l) => l !== undefined))];
    if (letters.length && !letters.includes(called)) return { field, text: letters.join(' then '), call: called };
  }
  return undefined;
}

/** Count (on the item under way) and log a reply whose text named another answer than its call. */
export function countTextOtherAnswer(what: string, d: { field: string; text: string; call: string }): void {
  currentUsageScope()?.note('textOtherAnswer');
  log.warn(`${what}: the reply's text names ${d.field} ${d.text}, its forced call ${d.call}; the call was read (counted: tokens.textOtherAnswer)`);
}

/** "1 reply named another answer in its text than in its call; the call was read": the one wording (end-of-run line, report.md). */
export function textOtherAnswerText(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'reply named another answer in its text than in its call' : 'replies named another answer in their text than in their call'}; the call was read`;
}
