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
    expect(mmluProQuestion({ ...q866, options: q866.options.slice(0, 2), answer: 'B' }, 'law.jsonl', 1).choices).toHaveLength(2);
  });

  it('refuses an 11th option (no letter past J), naming the file, line and field', () => {
    const rec = { ...q866, options: [...q866.options, 'Embezzlement, because he kept the purse.'] };
    expect(() => mmluProQuestion(rec, 'law.jsonl', 7)).toThrow(/law\.jsonl.*7[\s\S]*question 866: field "options" must be an array of 2\.\.10 strings/);
  });

  it('refuses a single option', () => {
    expect(() => mmluProQuestion({ ...q866, options: ['Robbery.'], answer: 'A' }, 'law.jsonl', 2)).toThrow(/must be an array of 2\.\.10 strings/);
  });
});
