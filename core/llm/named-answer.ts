/**
 * The option letters (and, labelsNamed below, the Yes/No labels) a model's free text names as its answer, vote or verdict — the one rule for
 * reading a letter out of prose: text beside a forced call (core/llm/text-beside-call.ts, counted
 * as `tokens.textOtherAnswer`) and the text after a marked letter in an option-letter field
 * (agents/common/option-letter.ts, where another letter named so refuses the reply).
 *
 * After "answer", "vote" or "verdict" (any case) and "is" or ":", Markdown emphasis allowed around
 * either ("**Answer:** C", "Answer: **C**") and an "option"/"choice" before the letter ("Answer:
 * Option C"), a letter in any case is named when it is
 * - in parentheses: "the answer is (c)";
 * - followed by the end of the text or its line, or by punctuation that ends it ("Answer: A.",
 *   "Answer: A) the deed", "answer: c,"; never "i.e." or "e.g.");
 * - any letter but A and I followed by a word ("Answer: B because …", "the answer is c since …"),
 *   except "or" and "and" ("Answer: C or D", "Answer: B and C" name none);
 * - A or I (English words: an article, a pronoun) followed by a word only where that word cannot
 *   follow the article or the pronoun — "is", "was", "because", "since", "as" — or by "(" or a dash
 *   ("The answer is A because …", "Answer: A (the deed …)"). "Answer: A lawyer must …" and "the
 *   answer is I think B" name no letter: before 2026-12-02 the first was read as A.
 * A sentence that is only "Option X is the answer" also names X as the answer (OPTION_IS_ANSWER): "option" or
 * "choice", the letter (or "(x)"), "is the answer" with "correct", "right" or "best" allowed before "answer", opening
 * the text, a line or a sentence and ending it: "Option C is the correct answer.", "**Choice (d) is the best
 * answer.**" (before 2026-12-02's fourth change, none). Not "Option A is correct.": a reply weighing each option of
 * an "all EXCEPT" question says that of every true statement; nor "Many think option C is the answer.", "If option C
 * is the answer, …", "Option C is the answer the seller would give".
 * Anything else names none: "The answer is not A", "I'd say (b)", "**B**" alone, "Option C" alone.
 *
 * A letter or label named under a condition is discussed, not named (one guard, CONDITIONAL, for both rules):
 * - "answer"/"vote"/"verdict"/"decision" in the clause of "if", "whether", "unless", "assuming", "supposing",
 *   "provided"/"providing" — after it, an optional "or not" and "that", and at most two words ("the", "the
 *   correct", "your final"), no punctuation between: "If the answer is B, the buyer wins; but the answer is C."
 *   names C only; "whether the answer is D", "Assuming that the answer is A, …", "unless the answer is B", "even if
 *   the correct answer is (c)", "if the answer is yes, …" name none; so does "Suppose the answer is A" where
 *   "suppose" opens a sentence or follows "let's"/"let us" ("I suppose the answer is B" names B). A clause set off
 *   inside the condition (ASIDE: between commas, dashes or parentheses, or "arguendo") leaves it a condition: "If, as
 *   the buyer argues, the answer is B, …", "Assuming, arguendo, that the answer is B", "If — as the seller claims —
 *   the answer is B" name none. A condition ended by punctuation before it (words of its own before the comma) leaves
 *   the answer named, the main clause concluding: "If the deed was delivered, the answer is B.", "If we read the facts
 *   closely, the answer is B.", "Even if, as the buyer argues, the deed was delivered, the answer is B." name B;
 * - "answer"/"vote"/"verdict" after another party's reported position (REPORTED: "argues", "contends", "claims",
 *   "asserts", "insists", "maintains" in the third person or past, or "would/might/could/may" + "argue", "say", …), an
 *   optional "that" and at most two words: "The seller argues that the answer is C", "Opposing counsel would say the
 *   answer is B" name none; so do "held", "ruled", "found", "concluded", "believe(s)", "think(s)", … ("The court held that
 *   the answer is C", "Many believe the answer is C"; before 2026-12-02's seventh change each named C); after "I" or "we",
 *   up to two words between, it names: "I argued that the answer is B", "We would say the answer is B", "I really think
 *   the answer is B" name B, and so does the reply's own work as the subject ("This analysis concludes that the answer
 *   is B", "My review found the answer is B"; before 2026-12-03 each named none);
 * - a phrase set off between the answer word and "is" (INTERJECTION) leaves the letter named ("The answer, in my view, is
 *   B"; before 2026-12-02's seventh change, none) unless it holds a condition or a reported position;
 * - a letter or label followed, with no punctuation between, by "if", "only if", "unless", "provided",
 *   "providing", "assuming" or "supposing": "the answer is B only if the deed was delivered", "the answer is (c)
 *   unless …" name none; after a comma or dash only "only if", "but only if", "unless", "provided", "providing",
 *   "assuming", "supposing", "on condition that" do ("The answer is B, but only if …", "The answer is B, unless …" name
 *   none; before 2026-12-02's seventh change each named B): "The answer is B, even if …", "The answer is B, because …",
 *   "The answer is B, if anything." and a condition after a semicolon name B.
 * "If the answer were B" names none as before any guard: only "is" or ":" names.
 * Before 2026-12-02 (its fourth change) a letter under a condition was read as named ("C. If the answer is B, the
 * seller would win, but it is not." refused as two answers; a reasoning "if the answer is B, …" counted beside C),
 * and a label only after "if the"/"whether the" exactly ("if the correct answer is yes" named Yes).
 */

/** The words that open a condition after the letter (CONDITIONAL); before the answer word "whether" does too. */
const CONDITION = 'if|unless|assuming|supposing|provided|providing';

/**
 * A clause set off inside a condition (header): between commas, dashes (an em or en dash, or a spaced "-"/"--") or
 * parentheses, within one sentence — ", as the buyer argues,", " — as the seller claims —", " (on these facts)" —
 * or "arguendo", "hypothetically", "for argument's sake", "for the sake of argument".
 */
const ASIDE = String.raw`(?:[^\S\n]*,[^,.!?;:\n]{1,80},|[^\S\n]*[—–][^—–.!?;\n]{1,80}[—–]|[^\S\n]+--?[^\S\n][^.!?;\n]{1,80}[^\S\n]--?(?=\s)|[^\S\n]*\([^()\n]{1,80}\)|\s+(?:arguendo|hypothetically|for\s+(?:argument['’]s\s+sake|the\s+sake\s+of\s+argument)))`;

/** The reply's own work as a subject ("This analysis concludes …", "My review found …"): the speaker, as "I" is, not another party. */
const OWN_WORK = String.raw`\b(?:this|my|our|the\s+(?:above|foregoing|preceding))\s+(?:analysis|reasoning|review|assessment|evaluation|memo|memorandum|discussion)`;

/**
 * The one guard of both rules for a condition (header): a lookbehind for the answer word in a condition's clause, and a
 * lookahead (placed after the letter or label) for a condition following it.
 */
/**
 * Another party's position reported (header): a reporting verb in the third person or after a modal — "The seller argues
 * that the answer is C", "Opposing counsel would say the answer is B" — not after "I", "we" or the reply's own work
 * (OWN_WORK: "I argued that the answer is B", "We would say the answer is B", "This analysis concludes that the answer is B" name B).
 */
const REPORTED = String.raw`(?<!\b(?:(?:I|we)(?:['’](?:d|ll|ve|m))?|${OWN_WORK})(?:\s+[\p{L}'’]+){0,2}\s+)\b(?:argues|argued|argue|contends|contended|contend|claims|claimed|claim|asserts|asserted|assert|insists|insisted|insist|maintains|maintained|maintain|holds|held|ruled|finds|found|concludes|concluded|conclude|decided|determined|believes|believed|believe|thinks|think|feels|felt|(?:would|might|could|may)\s+(?:argue|say|contend|claim|insist|suggest))`;

/**
 * A phrase set off between the answer word and "is" (header): between commas, dashes or parentheses, up to 40 characters, naming
 * no condition and no other party's position — "The answer, in my view, is B", "The answer — I think — is B"; not "The answer,
 * if the deed was delivered, is B" nor "The answer, the seller argues, is B".
 */
const INTERJECTION = String.raw`(?:[^\S\n]*,(?![^,\n]*\b(?:whether|suppose|${CONDITION})\b)(?![^,\n]*${REPORTED})[^,.!?;:\n]{1,40},|[^\S\n]*[—–](?![^—–\n]*\b(?:whether|suppose|${CONDITION})\b)(?![^—–\n]*${REPORTED})[^—–.!?;:\n]{1,40}[—–]|[^\S\n]*\((?![^()\n]*\b(?:whether|suppose|${CONDITION})\b)(?![^()\n]*${REPORTED})[^()\n]{1,40}\))`;

/** The words that, after the letter and a comma, semicolon or dash, make it hypothetical (CONDITIONAL.after); not "if" alone, nor "even if". */
const CONDITION_AFTER_PUNCTUATION = String.raw`(?:but\s+)?only\s+if|unless|provided|providing|assuming|supposing|on\s+condition\s+that`;

const CONDITIONAL = {
  before: String.raw`(?<!(?:\b(?:whether|${CONDITION})|(?:(?:^|[.!?;:(\n])[^\S\n]*|\blet(?:'s|’s|\s+us)\s+)suppose)${ASIDE}{0,2}(?:\s+or\s+not)?${ASIDE}{0,2}(?:\s+that)?${ASIDE}{0,2}(?:\s+[\p{L}'’]+){0,2}\s+|\b${REPORTED}(?:\s+that)?(?:\s+[\p{L}'’]+){0,2}\s+)`,
  after: String.raw`(?![*_]*(?:[^\S\n]+(?:but\s+)?(?:only\s+)?(?:${CONDITION})\b|(?:[^\S\n]*[,—–]|[^\S\n]+--?)[^\S\n]*(?:${CONDITION_AFTER_PUNCTUATION})\b))`,
};

/** "answer"/"vote"/"verdict", "is" or ":", emphasis, an optional "option"; then the letter in one of the four forms above (groups 2–5). */
const NAMED = new RegExp(
  String.raw`${CONDITIONAL.before}\b(answer|vote|verdict)[*_]*(?:${INTERJECTION}?\s+is\s*:?|\s*:)[*_\s]*(?:(?:option|choice)\s+[*_]*)?(?:\(([a-z])\)|([a-z])(?=[*_]*(?:[^\S\n]*(?:\n|$)|[.,;:!?)](?![\p{L}\p{N}])))|([b-hj-z])(?=[^\S\n]+(?!(?:or|and)\b)\S)|([ai])(?=[^\S\n]+(?:(?:is|was|because|since|as)\b|[(\-–—])))${CONDITIONAL.after}`,
  'giu',
);

/** A sentence that is only "Option X is the (correct|right|best) answer" (header), emphasis allowed around it: the letter in group 1 or 2. */
const OPTION_IS_ANSWER =
  /(?:^|[.!?][^\S\n]|\n)[^\S\n]*[*_]*(?:option|choice)\s+[*_]*(?:\(([a-z])\)|([a-z]))[*_]*\s+is\s+the\s+(?:(?:correct|right|best)\s+)?answer[*_]*(?=[^\S\n]*(?:[.!](?![\p{L}\p{N}])|\n|$))/giu;

/** Each letter `text` names as an answer, vote or verdict, in order, upper-cased, with the word that named it (lower-cased). */
export function answersNamed(text: string): { word: 'answer' | 'vote' | 'verdict'; letter: string }[] {
  const named = [...text.matchAll(NAMED)].map((m) => ({
    at: m.index,
    word: m[1].toLowerCase() as 'answer' | 'vote' | 'verdict',
    letter: (m[2] ?? m[3] ?? m[4] ?? m[5]).toUpperCase(),
  }));
  const concluded = [...text.matchAll(OPTION_IS_ANSWER)].map((m) => ({ at: m.index, word: 'answer' as const, letter: (m[1] ?? m[2]).toUpperCase() }));
  return [...named, ...concluded].sort((a, b) => a.at - b.at).map(({ word, letter }) => ({ word, letter }));
}

/**
 * The Yes/No labels a model's free text names as its answer, verdict or decision (text beside an ACAL or LegalBench
 * Yes/No answer, core/llm/text-beside-call.ts), by the letters' rule above: after "answer", "verdict" or "decision"
 * and "is" or ":", emphasis allowed, "yes" or "no" in any case in parentheses, or followed by the end of its line or
 * punctuation ("Answer: No", "**Decision:** yes.", "the answer is (no)", "The answer is no, since …"), or by
 * "because", "since", "as", "(" or a dash. Anything else names none: "the answer is no longer clear", "the answer is
 * not yes", "Answer: yes or no", and a label under a condition (CONDITIONAL above: "if the answer is yes, …", "whether the
 * answer is no", "the answer is (no) unless …") is discussed, not named.
 */
const LABEL_NAMED = new RegExp(
  String.raw`${CONDITIONAL.before}\b(?:answer|verdict|decision)[*_]*(?:${INTERJECTION}?\s+is\s*:?|\s*:)[*_\s]*(?:\((yes|no)\)|(yes|no)(?=[*_]*(?:[^\S\n]*(?:\n|$)|[.,;:!?)](?![\p{L}\p{N}])|[^\S\n]+(?:because|since|as)\b|[^\S\n]*[(\-–—])))${CONDITIONAL.after}`,
  'giu',
);

/** Each Yes/No label `text` names as its answer, verdict or decision, in order ("Yes" or "No"). */
export function labelsNamed(text: string): ('Yes' | 'No')[] {
  return [...text.matchAll(LABEL_NAMED)].map((m) => ((m[1] ?? m[2]).toLowerCase() === 'yes' ? 'Yes' : 'No'));
}
