/**
 * A forced call (tool mode, structured.ts) whose reply also has text that names another answer:
 * `content` "Answer: C" beside arguments {"answer": "B"}. The call is read (B); before 2026-12-02
 * nothing said the reply disagreed with itself. Now each such reply is counted on the item's usage
 * (results.jsonl `tokens.textOtherAnswer`), said in the end-of-run line, report.md's Tokens section and
 * report.json, and logged with both letters. Only an option letter the text names unambiguously
 * counts: a JSON object in the text with the same field, or one letter after "answer"/"vote"/"verdict"
 * ("Answer: C", "the answer is (C)", "**Answer:** C"); prose naming none, or two, is not counted.
 */
import type { z } from 'zod';
import { log } from '../log.js';
import { currentUsageScope } from './usage.js';

/** The fields that carry an option letter in the systems that ask for one (baselines, MAD, EMAR: `answer`; CASE's jurors: `vote`; MAD's judge: `verdict`). */
const LETTER_FIELDS = ['answer', 'vote', 'verdict'] as const;
const ONE_LETTER = /^[A-Z]$/;
/**
 * "Answer: C", "the answer is (c)", "Vote: B", "verdict: (D)": the letter after the field's name; in
 * Markdown emphasis too ("**Answer:** C", "**Answer: C**", "Answer: **C**", "*Verdict*: B"), as chat
 * models write it — before 2026-12-02's second change such a reply was not counted.
 */
const NAMED = /\b([Aa]nswer|[Vv]ote|[Vv]erdict)[*_]*(?:\s+is|\s*:)[*_]*\s*[*_]*(?:\(([A-Za-z])\)|([A-Z])(?![\p{L}\p{N}'’]))/gu;

/** The letter `text` (or the JSON object `json` read from it) names for `field`; undefined when it names none or several. */
function namedIn(text: string, json: unknown, field: string): string | undefined {
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const v = (json as Record<string, unknown>)[field];
    return typeof v === 'string' ? v : undefined;
  }
  const letters = new Set([...text.matchAll(NAMED)].filter((m) => m[1].toLowerCase() === field).map((m) => (m[2] ?? m[3]).toUpperCase()));
  return letters.size === 1 ? [...letters][0] : undefined;
}

/** The option letter the reply's text names for a field whose call named another, read as `schema` reads it; undefined when they agree or the text names none. */
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
    const named = namedIn(text, json, field);
    if (named === undefined) continue;
    const r = schema.safeParse({ ...(args as Record<string, unknown>), [field]: named });
    const other = r.success ? (r.data as Record<string, unknown>)[field] : undefined;
    if (typeof other === 'string' && ONE_LETTER.test(other) && other !== called) return { field, text: other, call: called };
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
