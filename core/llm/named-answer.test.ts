/**
 * The one rule for a letter a model's prose names as its answer, vote or verdict (core/llm/named-answer.ts),
 * tried on the replies real models send. Before 2026-12-02 two copies of it (text beside a forced call,
 * text after a marked option letter) read the article of "Answer: A lawyer must …" as the letter A, and
 * neither read "**Answer:** Option C", "ANSWER: C" or (beside a call) "the answer is c".
 */
import { describe, expect, it } from 'vitest';
import { answersNamed, labelsNamed } from './named-answer.js';

const letters = (text: string) => answersNamed(text).map((n) => `${n.word} ${n.letter}`);

describe('answersNamed: the letters a reply names as its answer, vote or verdict', () => {
  it.each([
    ['Answer: A', ['answer A']],
    ['Answer: A.', ['answer A']],
    ['Answer: (A)', ['answer A']],
    ['Answer: A) the deed was void', ['answer A']],
    ['The statement is hearsay.\n\n**Answer:** C', ['answer C']],
    ['Answer: **C**', ['answer C']],
    ['Answer is B', ['answer B']],
    ['ANSWER: C', ['answer C']],
    ['**Answer:** Option C', ['answer C']],
    ['So the answer is c.', ['answer C']],
    ['The answer is A because the deed was void', ['answer A']],
    ['Answer: A (the deed was void)', ['answer A']],
    ['Answer: B because the deed was void', ['answer B']],
    ['Answer: B\n\nExplanation: option A is wrong', ['answer B']],
    ['We discussed A at length.\n\nFinal answer: D', ['answer D']],
    ['Answer: A lawyer may not act.\n\nFinal answer: D', ['answer D']],
    ['Answer: C at first; on reflection, answer: D', ['answer C', 'answer D']],
    ['Vote: B. Verdict: (d)', ['vote B', 'verdict D']],
    // before (2026-12-02, seventh change): a phrase set off between "answer" and "is" named nothing
    ['The answer, in my view, is B.', ['answer B']],
    ['The answer, I think, is B because the deed was void.', ['answer B']],
    ['The correct answer — on these facts — is (d).', ['answer D']],
    ['The answer (on balance) is C.', ['answer C']],
  ])('%j names %j', (text, named) => {
    expect(letters(text)).toEqual(named);
  });

  it.each([
    'Answer: A lawyer must disclose the conflict.',
    'The answer is a good one for the grantee.',
    'Answer: I think B',
    "Answer: I'd say B",
    "I'd say (b)",
    'The answer is not A; it is B',
    '**B**',
    'Option C',
    'Answer: C or D',
    'Answer: B and C',
    'The answer is e.g. estoppel.',
    'Whatever the answer is, a good faith purchaser prevails.',
    'Answer: Because the deed was never delivered.',
  ])('%j names none', (text) => {
    expect(letters(text)).toEqual([]);
  });
});

// A condition governs the letter (it names none) where the answer word sits in the condition's own clause — also with a
// clause set off inside it by commas, dashes or parentheses ("If, as the buyer argues, the answer is B, …") — or the
// condition follows the letter with no punctuation between. A condition closed by punctuation before the answer word
// ("If we read the facts closely, the answer is B.") is a clause of its own: the main clause after it names the answer.
// before (2026-12-02, fourth change): every row naming none named its letter; before the fifth, a condition cut by a
// set-off clause ("If, as the buyer argues, …", "Assuming, arguendo, that …", "If — as the seller claims — …") named it
const CONDITIONS: [text: string, named: string[]][] = [
  // the answer word in the condition's clause
  ['If the answer is B, the buyer wins; but the answer is C.', ['answer C']],
  ['Assuming the answer is A, the deed fails.', []],
  ['Assuming that the answer is A, the deed fails.', []],
  ['The question is whether the answer is D.', []],
  ['Whether or not the answer is D, the buyer had notice.', []],
  ['Suppose the answer is A. Then the deed fails.', []],
  ["Let's suppose the answer is A; the deed fails. The answer is C.", ['answer C']],
  ['The seller prevails unless the answer is B.', []],
  ['Even if the correct answer is (c), the buyer wins.', []],
  ['If your final answer is B, say so.', []],
  ['Provided the vote is D, the jury is split.', []],
  // a clause set off inside the condition (commas, dashes, parentheses, "arguendo")
  ['If, as the buyer argues, the answer is B, the contract fails.', []],
  ['Assuming, arguendo, that the answer is B, the statute of frauds still bars enforcement.', []],
  ['Assuming arguendo that the answer is B, the grantee takes subject to the easement.', []],
  ['If — as the seller claims — the answer is B, the warranty was breached.', []],
  ['If -- as the seller claims -- the answer is B, the warranty was breached.', []],
  ['If (as the prosecution contends) the answer is C, the confession is admissible.', []],
  ['Unless, on these facts, the correct answer is D, the adverse possessor takes title.', []],
  ['Even if, as the defendant insists, the answer is (a), the hearsay exception applies.', []],
  ['Suppose, for the sake of argument, that the answer is A. The deed still fails.', []],
  ['The court must decide whether, under the recording act, the answer is C.', []],
  ['If, as the buyer argues, the answer is B, the contract fails; but the answer is C.', ['answer C']],
  // another party's position reported: discussed, not named
  ['The seller argues that the answer is C, but the deed was never delivered.', []],
  ['The prosecution contends the answer is (a).', []],
  ['Opposing counsel would say the answer is B.', []],
  ['One might argue that the correct answer is D; the recording act says otherwise.', []],
  ['The buyer claimed that the answer is C. The answer is B.', ['answer B']],
  ['I argued that the answer is B.', ['answer B']],
  ['We would say the answer is B.', ['answer B']],
  ['I strongly argued that the answer is B.', ['answer B']],
  // before 2026-12-03: the reply's own work as the subject read as another party's position, so it named none
  ['This analysis concludes that the answer is B.', ['answer B']],
  ['My review found the answer is (b).', ['answer B']],
  ['The above analysis concludes that the answer is B.', ['answer B']],
  ['The court concluded that the answer is B.', []],
  // before (2026-12-02, seventh change): other verbs of a party's position named the letter
  ['The court held that the answer is C, so the easement survives.', []],
  ['Many believe the answer is C; the recording act says otherwise.', []],
  ['The buyer concluded that the answer is C. The answer is B.', ['answer B']],
  ['Plaintiffs argue that the answer is (d).', []],
  ['The answer, the seller argues, is B.', []],
  ['I believe the answer is C.', ['answer C']],
  ['I really think the answer is C.', ['answer C']],
  ["I'd say the answer is C.", ['answer C']],
  ['We conclude that the answer is C.', ['answer C']],
  ['Upon further thought the answer is C.', ['answer C']],
  // the letter followed by a condition, no punctuation between
  ['The answer is B only if the deed was delivered.', []],
  ['The answer is B if the deed was delivered.', []],
  ['The answer is (c) unless the deed was recorded.', []],
  ['Answer: D assuming the deed was delivered', []],
  // before (2026-12-02, seventh change): a condition after a comma or dash named the letter
  ['The answer is B, but only if the deed was delivered.', []],
  ['The answer is B, provided that the deed was delivered.', []],
  ['The answer is B, unless the deed was recorded.', []],
  ['The answer is (c) — unless the deed was recorded.', []],
  ['The answer, if the deed was delivered, is B.', []],
  ['The answer is B, because the deed was delivered.', ['answer B']],
  ['The answer is B, if anything.', ['answer B']],
  ['The answer is B; assuming the deed was recorded, the buyer still loses.', ['answer B']],
  // a condition closed by punctuation: the main clause names the answer
  ['I suppose the answer is B.', ['answer B']],
  ['If the deed was delivered, the answer is B.', ['answer B']],
  ['If we read the facts closely, the answer is B.', ['answer B']],
  ['If we read the facts closely, as the court must, the answer is B.', ['answer B']],
  ['If so, the answer is C.', ['answer C']],
  ['Even if, as the buyer argues, the deed was delivered, the answer is B.', ['answer B']],
  ['Assuming, as we must, that the deed was recorded, the answer is D.', ['answer D']],
  ['Whether or not the deed was delivered, the answer is A because the grantor intended a gift.', ['answer A']],
  ['The answer is B, even if the deed was delivered.', ['answer B']],
  ['The answer is B only because the deed was delivered.', ['answer B']],
  ['The answer is B whether or not the deed was delivered.', ['answer B']],
  ['Sniff the answer is B', ['answer B']],
];

describe('a letter or label under a condition is discussed, not named (one guard for both)', () => {
  it.each(CONDITIONS)('%j names %j', (text, named) => {
    expect(letters(text)).toEqual(named);
  });

  it.each([
    ['If the correct answer is yes, the claim fails.', []],
    ['Unless the answer is no, the statement is hearsay.', []],
    ['The answer is (yes) unless the statement is offered for its truth.', []],
    ['If the statement is offered for its truth, the answer is yes.', ['Yes']],
    ['If the answer is yes, the claim fails; but the answer is no.', ['No']],
    ['If, as the defendant argues, the answer is yes, the statement is hearsay.', []],
    ['Whether — on this record — the answer is (no) turns on the declarant’s availability.', []],
    ['If the statement is offered for its truth, as it is here, the answer is yes.', ['Yes']],
    ['The answer is yes, unless the statement is offered for its truth.', []],
    ['The answer, in my view, is no.', ['No']],
  ])('labels: %j names %j', (text, named) => {
    expect(labelsNamed(text)).toEqual(named);
  });
});

// before (2026-12-02, fourth change): "Option C is the correct answer." named no letter
describe('a sentence that is only "Option X is the answer" names X', () => {
  it.each([
    ['Option C is the correct answer.', ['answer C']],
    ['The deed was void. Option (c) is the answer', ['answer C']],
    ['**Choice D is the best answer.**', ['answer D']],
    ['The hearsay rule applies.\nOption B is the right answer', ['answer B']],
    ['Answer: B. Option C is the answer.', ['answer B', 'answer C']],
  ])('%j names %j', (text, named) => {
    expect(letters(text)).toEqual(named);
  });

  it.each([
    'Option A is correct.', // of a true statement, in an "all EXCEPT" question
    'Many think option C is the correct answer.',
    'If option C is the answer, the buyer wins.',
    'Option C is the answer the seller would give.',
    'Option C is the correct answer only if the deed was delivered.',
    'Option C is the answer? No.',
  ])('%j names none: not a sentence of its own', (text) => {
    expect(letters(text)).toEqual([]);
  });
});
