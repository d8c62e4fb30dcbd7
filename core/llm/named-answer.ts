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
 * Anything else names none: "The answer is not A", "I'd say (b)", "**B**" alone, "Option C" alone.
 */

/** "answer"/"vote"/"verdict", "is" or ":", emphasis, an optional "option"; then the letter in one of the four forms above (groups 2–5). */
const NAMED =
  /\b(answer|vote|verdict)[*_]*(?:\s+is\s*:?|\s*:)[*_\s]*(?:(?:option|choice)\s+[*_]*)?(?:\(([a-z])\)|([a-z])(?=[*_]*(?:[^\S\n]*(?:\n|$)|[.,;:!?)](?![\p{L}\p{N}])))|([b-hj-z])(?=[^\S\n]+(?!(?:or|and)\b)\S)|([ai])(?=[^\S\n]+(?:(?:is|was|because|since|as)\b|[(\-–—])))/giu;

/** Each letter `text` names as an answer, vote or verdict, in order, upper-cased, with the word that named it (lower-cased). */
export function answersNamed(text: string): { word: 'answer' | 'vote' | 'verdict'; letter: string }[] {
  return [...text.matchAll(NAMED)].map((m) => ({
    word: m[1].toLowerCase() as 'answer' | 'vote' | 'verdict',
    letter: (m[2] ?? m[3] ?? m[4] ?? m[5]).toUpperCase(),
  }));
}

/**
 * The Yes/No labels a model's free text names as its answer, verdict or decision (text beside an ACAL or LegalBench
 * Yes/No answer, core/llm/text-beside-call.ts), by the letters' rule above: after "answer", "verdict" or "decision"
 * and "is" or ":", emphasis allowed, "yes" or "no" in any case in parentheses, or followed by the end of its line or
 * punctuation ("Answer: No", "**Decision:** yes.", "the answer is (no)", "The answer is no, since …"), or by
 * "because", "since", "as", "(" or a dash. Anything else names none: "the answer is no longer clear", "the answer is
 * not yes", "Answer: yes or no", and a condition — "if the answer is yes, …", "whether the answer is no" — discusses
 * a label, it does not name one.
 */
const LABEL_NAMED =
  /(?<!\b(?:if|whether)\s+(?:the\s+)?)\b(?:answer|verdict|decision)[*_]*(?:\s+is\s*:?|\s*:)[*_\s]*(?:\((yes|no)\)|(yes|no)(?=[*_]*(?:[^\S\n]*(?:\n|$)|[.,;:!?)](?![\p{L}\p{N}])|[^\S\n]+(?:because|since|as)\b|[^\S\n]*[(\-–—])))/giu;

/** Each Yes/No label `text` names as its answer, verdict or decision, in order ("Yes" or "No"). */
export function labelsNamed(text: string): ('Yes' | 'No')[] {
  return [...text.matchAll(LABEL_NAMED)].map((m) => ((m[1] ?? m[2]).toLowerCase() === 'yes' ? 'Yes' : 'No'));
}
