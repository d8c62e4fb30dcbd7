/** The zod schema of one multiple-choice option letter, shared by every system that asks for one. */
import { answersNamed } from '../../core/llm/named-answer.js';
import { NAMED_ANSWER_READINGS } from '../../core/llm/named-answer-readings.js';
import { LETTERS } from '../../corpora/types.js';
import { replyEnumSchema } from './reply-enum.js';

/** A letter alone or marked ("B", "(B)", "B)", "B.", "B:"), then optionally text after a space. */
const MARKED = /^(?:\(([A-Za-z])\)|([A-Za-z])([).:])?)(\s[\s\S]*)?$/;

/**
 * An upper-case letter the text after a marked letter names as an option: "(D)" or "D)" standing
 * alone (not "12(b)"), "D." or "D:" opening a later line (mid-sentence it is a party: "protects B."),
 * after "or" ("or D", "or (D)"). A letter named as the answer, vote or verdict, in either case, is
 * read by the rule every reader of a model's prose shares (core/llm/named-answer.ts).
 */
const OTHER_LETTER = /(?<![\p{L}\p{N})])\(([A-Z])\)|(?<![\p{L}\p{N}.(])([A-Z])\)|\n[^\S\n]*([A-Z])[.:](?=\s|$)|\b[Oo][Rr]\s+\(?([A-Z])(?![\p{L}\p{N}'’])/gu;

/** Whether `rest` names an option letter other than `letter` (one of `letters` when given). */
function namesAnotherLetter(rest: string, letter: string, letters?: readonly string[]): boolean {
  const names = (named: string | undefined) => named !== undefined && named !== letter && (!letters || letters.includes(named));
  for (const m of rest.matchAll(OTHER_LETTER)) if (names(m[1] ?? m[2] ?? m[3] ?? m[4])) return true;
  return answersNamed(rest).some((n) => names(n.letter));
}

/** Each option's text by its letter ({ A: 'The contract is void.', … }): what a reply's "B. <text>" is checked against. */
export type OptionTexts = Readonly<Record<string, string>>;

/** `choices` (a question's options, in order) by letter: LETTERS[i] for choices[i]; empty options left out. */
export function optionTexts(choices: readonly string[]): OptionTexts {
  return Object.fromEntries(choices.flatMap((c, i) => (c.trim() && LETTERS[i] ? [[LETTERS[i], c]] : [])));
}

/** An option's text as a reply may copy it: markup, quotes, case, spacing and closing punctuation aside. */
const plainOption = (s: string) =>
  s
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“‘]+|["'”’]+$/g, '')
    .replace(/[\s.;:!]+$/, '')
    .trim()
    .toLowerCase();

/**
 * Whether `rest` (the text after a marked letter) is another option's text, copied whole, and not `letter`'s own:
 * "B. The contract is void." where that is option A's text names A as well as B.
 */
function copiesAnotherOption(rest: string, letter: string, texts: OptionTexts): boolean {
  const r = plainOption(rest);
  if (!r || (texts[letter] !== undefined && plainOption(texts[letter]) === r)) return false;
  return Object.entries(texts).some(([l, t]) => l !== letter && plainOption(t) === r);
}

/**
 * The option letter a reply names, upper-cased: "b", "(B)", "B)", "B.", "B:", and the same followed
 * by text after a delimiter ("B. text", "B) text", "B: text", "(B) text"). Free text after a bare
 * letter ("A or D", "C is wrong; D") names no letter: undefined; so does text after a marked letter
 * that names another option ("(A) or (D)", "A. or D.", "B)\nC)", "B. Not B; the answer is C", "B. Not B;
 * the answer is c", "B. Option C is the correct answer.") — another of `letters` when given, any upper-case letter (or lower-case one named as
 * the answer) otherwise — or, `texts` given, is another option's text whole ("B. The contract is void." where that is
 * option A's text and not B's; before 2026-12-05 read as B).
 */
export function optionLetterOf(text: string, letters?: readonly string[], texts?: OptionTexts): string | undefined {
  const m = MARKED.exec(text.trim());
  if (!m) return undefined;
  const rest = m[4];
  if (m[2] !== undefined && !m[3] && rest !== undefined) return undefined;
  const letter = (m[1] ?? m[2]).toUpperCase();
  if (rest !== undefined && namesAnotherLetter(rest, letter, letters)) return undefined;
  if (rest !== undefined && texts && copiesAnotherOption(rest, letter, texts)) return undefined;
  return letter;
}

/**
 * One option letter among `letters` (`optionLetterOf`; `texts`: the options' texts the model was shown, so a
 * letter followed by another option's text is none); anything else fails the enum (the structured-output
 * layer then repairs once or records the step as failed).
 */
export function optionLetterSchema(letters: string[], message?: string, texts?: OptionTexts) {
  return replyEnumSchema((v) => optionLetterOf(v, letters, texts), letters as [string, ...string[]], message);
}

/**
 * How a run reads an option letter, recorded in its config.json (`optionLetterReading`) by every
 * system that asks for one (CASE's jurors, the MCQ baselines, MAD's roles and baselines, EMAR): an
 * older lexcase read "A or D" and "C is wrong; D" as their first letter (before 2026-11-30), then
 * "(A) or (D)", "A. or D." and "B. Not B; the answer is C" too, so a run dir it started resumes
 * with a warning naming the field (eval/resume-unrecorded.ts): its earlier items may hold votes and
 * answers this lexcase refuses. The reading recorded until 2026-12-01 (without "the answer is c":
 * a lower-case letter named as the answer named none, so "B. Not B; the answer is c" read as B)
 * resumes with the same warning ("records an older optionLetterReading"), and so does the one
 * recorded until 2026-12-02, before a letter named as the answer was read by one rule
 * (core/llm/named-answer.ts): it read "B. Final answer: **C**", "B. ANSWER: C", "B. The answer is
 * option C" and "B. My vote: C" as B, refused "B. Answer: A lawyer must …" (the article read as A),
 * and counted "Answer: A lawyer …" beside a forced call B as another answer (tokens.textOtherAnswer),
 * which this reading does not, while it counts "Answer: C … answer: D" beside B. A letter under a condition
 * ("C. If the answer is B, the seller would win, but it is not.", "C. The answer is B only if …") names none
 * (core/llm/named-answer.ts, CONDITIONAL): those readings refused such a reply as two answers. A sentence that is
 * only "Option C is the correct answer." names C (OPTION_IS_ANSWER): those readings read "B. Option C is the
 * correct answer." as B; "B. Option A is correct." is still B (said of a true statement, it names no answer). A condition cut by
 * a clause set off inside it ("C. If, as the buyer argues, the answer is B, …", "Assuming, arguendo, that the answer is
 * B") names none either; the reading recorded before it refused such a reply as two answers, and resumes with the same
 * warning ("records an older optionLetterReading"). Nor does another party's position reported ("C. The seller
 * argues that the answer is B."), which the reading recorded before refused as two answers. Since the seventh change of
 * 2026-12-02 a phrase set off between "answer" and "is" ("C. The answer, in my view, is B.") names B (refused as two
 * answers), and another party's position with other verbs ("The court held that …", "Many believe …") or a letter followed
 * by a condition after a comma or dash ("The answer is B, but only if …") names none; the reading recorded before resumes
 * with "records an older optionLetterReading".
 */
export const OPTION_LETTER_READING = NAMED_ANSWER_READINGS.optionLetterReading.current;
