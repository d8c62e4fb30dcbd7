import { describe, expect, it } from 'vitest';
import { mmluProQuestion } from './mmlu-pro.js';

// question 866 of the bundled MMLU-Pro law file (10 options, answer D)
const q866 = {
  question_id: 866,
  question: 'A woman was standing in the aisle of a subway car and put her purse on the seat next to her. … of what crime can the man properly be convicted?',
  options: [
    "Fraud, because he took the purse without the woman's consent.",
    "Larceny, because he took the purse without the woman's permission.",
    'Burglary, because he entered the subway car with the intention of committing a theft.',
    'Robbery, because he used force in leaving with the purse.',
    'Robbery, because he used force to take possession of the purse.',
    "Robbery, because he used force to remove the woman from the purse's vicinity.",
    'Larceny, because force was not used until after he took the purse.',
    'Assault, because he pushed the woman out of the way.',
    'Larceny, because he made no threat to use force.',
    "Robbery, because he physically took the purse from the woman's presence.",
  ],
  answer: 'D',
  answer_index: 3,
  src: 'ori_mmlu-professional_law',
};

describe('mmluProQuestion: options 2..10, as its header and error say', () => {
  it('reads a 10-option question and a 2-option one', () => {
    expect(mmluProQuestion(q866, 'law.jsonl', 1).choices).toHaveLength(10);
    expect(mmluProQuestion({ ...q866, options: q866.options.slice(0, 2), answer: 'B', answer_index: 1 }, 'law.jsonl', 1).choices).toHaveLength(2);
  });

  it('refuses an 11th option (no letter past J), naming the file, line and field', () => {
    const rec = { ...q866, options: [...q866.options, 'Embezzlement, because he kept the purse.'] };
    expect(() => mmluProQuestion(rec, 'law.jsonl', 7)).toThrow(/law\.jsonl.*7[\s\S]*question 866: field "options" must be an array of 2\.\.10 strings/);
  });

  it('refuses a single option', () => {
    expect(() => mmluProQuestion({ ...q866, options: ['Robbery.'], answer: 'A' }, 'law.jsonl', 2)).toThrow(/must be an array of 2\.\.10 strings/);
  });

  it('refuses an answer that answer_index contradicts (which is the gold is not known), naming both fields; agreeing or absent answer_index reads', () => {
    expect(() => mmluProQuestion({ ...q866, answer_index: 4 }, 'law.jsonl', 3)).toThrow(
      /law\.jsonl.*3[\s\S]*question 866: field "answer" is D \(options\[3\]\) but field "answer_index" is 4: the two name different golds/,
    );
    expect(mmluProQuestion({ ...q866, answer_index: '3' }, 'law.jsonl', 3).answer).toBe('D');
    expect(mmluProQuestion({ ...q866, answer_index: undefined }, 'law.jsonl', 3).answer).toBe('D');
  });

  it('refuses an option that is not text (before: null read as the option "null") and an empty question', () => {
    const options = [...q866.options];
    options[7] = null as unknown as string;
    expect(() => mmluProQuestion({ ...q866, options }, 'law.jsonl', 4)).toThrow(/question 866: field "options\[7\]" must be a string, got null/);
    expect(() => mmluProQuestion({ ...q866, question: '  ' }, 'law.jsonl', 5)).toThrow(/question 866: field "question" is missing or empty/);
  });
});
