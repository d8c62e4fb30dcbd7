/**
 * The one rule for a letter a model's prose names as its answer, vote or verdict (core/llm/named-answer.ts),
 * tried on the replies real models send. Before 2026-12-02 two copies of it (text beside a forced call,
 * text after a marked option letter) read the article of "Answer: A lawyer must …" as the letter A, and
 * neither read "**Answer:** Option C", "ANSWER: C" or (beside a call) "the answer is c".
 */
import { describe, expect, it } from 'vitest';
import { answersNamed } from './named-answer.js';

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
