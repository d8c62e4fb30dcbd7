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
 *
 * From 2026-12-02 (later) the same count covers two more replies, both read as before:
 * - a Yes/No answer (ACAL's judge `decision`, its baselines' and LegalBench's `answer`) whose text names the
 *   other label: "Answer: No" beside {"decision": "Yes"} (labelsNamed: "if the answer is yes, …" names none);
 * - a reply in json_schema or prompt mode (and a forced call's arguments) whose reasoning names another
 *   answer than its answer field: {"reasoning": "… so the answer is C.", "answer": "B"}, or "The answer is
 *   No." before a {"decision": "Yes"} object. Only the answer field and the reasoning fields the schema declares
 *   (core/llm/answer-fields.ts: `choice` and `analysis` for a system of one's own; a schema declaring none is read for
 *   `answer`, `vote`, `verdict`, `decision` and `reasoning`, `rationale`, `explanation`, `justification`) and the
 *   prose outside the JSON object are read, by the same rule (a letter in an answer field named otherwise than
 *   `vote` or `verdict` named after "answer": "the answer is C" beside {"choice": "B"}): a
 *   letter or label named as the answer, never a mention ("option C is tempting, but …" names none) nor one under a
 *   condition ("If the answer is B, the seller would win; …" beside C: counted before 2026-12-02's fourth change), and
 *   a sentence "Option C is the correct answer." names C (not counted before that change); a
 *   debater's `argument` quoting its opponent's answer is not read.
 */
import type { z } from 'zod';
import { log } from '../log.js';
import { declaredAnswerFields } from './answer-fields.js';
import { answersNamed, labelsNamed } from './named-answer.js';
import { NAMED_ANSWER_READINGS } from './named-answer-readings.js';
import { currentUsageScope } from './usage.js';

/**
 * The fields read for a schema that declares none (answer-fields.ts; every system of lexcase's declares its own):
 * those that may carry an answer, an option letter or Yes/No, and those that may hold the reasoning beside it.
 */
const ANSWER_FIELDS = ['answer', 'vote', 'verdict', 'decision'] as const;
const REASONING_FIELDS = ['reasoning', 'rationale', 'explanation', 'justification'] as const;
/** The words prose names a letter with (answersNamed); a letter in an answer field of another name is named after "answer". */
const NAMING_WORDS: readonly string[] = ['answer', 'vote', 'verdict'];
const ONE_LETTER = /^[A-Z]$/;
const YES_NO = /^(?:Yes|No)$/;

/**
 * What `tokens.textOtherAnswer` counts, recorded in an LLM run's config.json (`textOtherAnswerReading`): a run dir an
 * older lexcase wrote, which counted a forced call's text naming another letter only, resumes with a warning, and
 * report.md says how many of the lines that older lexcase wrote are still in the run, not counted so (eval/item-counts.ts).
 */
export const TEXT_OTHER_ANSWER_READING = NAMED_ANSWER_READINGS.textOtherAnswerReading.current;

/** Text a reply holds beside the answer read: its prose, with `json` where that prose is itself a JSON object (a forced call's `content`). */
export type Beside = { text: string; json?: unknown };

/** The answer fields `schema` declares (answer-fields.ts), else ANSWER_FIELDS. */
const answerFieldsOf = (schema: z.ZodType): readonly string[] => {
  const d = declaredAnswerFields(schema);
  return d ? (d.answer === null ? [] : [d.answer]) : ANSWER_FIELDS;
};

/** The reasoning fields of a reply's object, those `schema` declares (else REASONING_FIELDS), each as text beside its answer. */
export function reasoningOf(obj: unknown, schema: z.ZodType): Beside[] {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return [];
  const fields = declaredAnswerFields(schema)?.reasoning ?? REASONING_FIELDS;
  return fields.map((f) => (obj as Record<string, unknown>)[f]).flatMap((v) => (typeof v === 'string' && v.trim() ? [{ text: v }] : []));
}

/** The answers (letters, or Yes/No labels) `b` names for `field`, in order. */
function namedIn(b: Beside, field: string, kind: 'letter' | 'label'): string[] {
  if (b.json && typeof b.json === 'object' && !Array.isArray(b.json)) {
    const v = (b.json as Record<string, unknown>)[field];
    return typeof v === 'string' ? [v] : [];
  }
  if (kind === 'label') return labelsNamed(b.text);
  const word = NAMING_WORDS.includes(field) ? field : 'answer';
  return answersNamed(b.text)
    .filter((n) => n.word === word)
    .map((n) => n.letter);
}

/** `named` read as `schema` reads `field` (on the reply's own object, else on the value read), where it reads as an answer of `kind`. */
function readAs<S extends z.ZodType>(schema: S, bases: unknown[], field: string, named: string, kind: 'letter' | 'label'): string | undefined {
  for (const base of bases) {
    if (!base || typeof base !== 'object') continue;
    const r = schema.safeParse({ ...(base as Record<string, unknown>), [field]: named });
    if (!r.success) continue;
    const v = (r.data as Record<string, unknown>)[field];
    return typeof v === 'string' && (kind === 'letter' ? ONE_LETTER : YES_NO).test(v) ? v : undefined;
  }
  return undefined;
}

/**
 * The answers the text beside a reply's answer names for a field whose value read is another ("C", or "C then D";
 * "No"), each read as `schema` reads it; undefined when the text names none, or names the one read among them.
 * `args`: the reply's object (a forced call's arguments, or the JSON object of a text reply); `read`: its value.
 */
export function otherAnswerBeside<S extends z.ZodType>(
  beside: Beside[],
  args: unknown,
  read: z.infer<S>,
  schema: S,
): { field: string; text: string; call: string } | undefined {
  const texts = beside.filter((b) => b.text.trim());
  if (!texts.length || !read || typeof read !== 'object') return undefined;
  for (const field of answerFieldsOf(schema)) {
    const called = (read as Record<string, unknown>)[field];
    if (typeof called !== 'string') continue;
    const kind = ONE_LETTER.test(called) ? 'letter' : YES_NO.test(called) ? 'label' : undefined;
    if (!kind) continue;
    const named = texts.flatMap((b) => namedIn(b, field, kind)).map((n) => readAs(schema, [args, read], field, n, kind));
    const answers = [...new Set(named.filter((l) => l !== undefined))];
    if (answers.length && !answers.includes(called)) return { field, text: answers.join(' then '), call: called };
  }
  return undefined;
}

/**
 * Count (on the item under way) and log a reply whose text named another answer than the one read: its forced
 * call's (`where` "call") or its JSON object's answer field ("field").
 */
export function countTextOtherAnswer(what: string, d: { field: string; text: string; call: string }, where: 'call' | 'field' = 'call'): void {
  currentUsageScope()?.note('textOtherAnswer');
  const read = where === 'call' ? `its forced call ${d.call}; the call` : `its ${d.field} field ${d.call}; the field`;
  log.warn(`${what}: the reply's text names ${d.field} ${d.text}, ${read} was read (counted: tokens.textOtherAnswer)`);
}

/** "1 reply named another answer in its text than the one read": the one wording (end-of-run line, report.md). */
export function textOtherAnswerText(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? "reply named another answer in its text than the one read (its call's or answer field's)" : "replies named another answer in their text than the one read (their calls' or answer fields')"}`;
}
