/**
 * A question file whose gold answer names an option with no text is refused naming file, line and
 * field. Every system that asks for a letter offers only the options with text (EMAR's schema enum,
 * CASE's hypotheses, MAD's debaters), so such a question counted as wrong whatever the model
 * answered: 6 questions with gold D, three of them with D empty, read 3 of 6 for a model answering D
 * wherever it was offered, exit 0.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadQuestions } from './registry.js';

const dir = mkdtempSync(join(tmpdir(), 'gold-option-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('a gold answer on an empty option', () => {
  it('the bundled Bar Exam QA question whose D is empty (mbe_494, gold A) loads; with gold D it is refused naming line and field', async () => {
    const [mbe494] = (await loadQuestions('barexam', 'all')).filter((q) => q.id === 'mbe_494');
    expect(mbe494.choices[3]).toBe('');
    expect(mbe494.answer).toBe('A');
    const row = { id: 'mbe_494', prompt: '', question: mbe494.question, choices: mbe494.choices, answer: 'A', gold_idx: 'mbe_386' };
    const ok = write('ok.jsonl', `${JSON.stringify(row)}\n`);
    expect((await loadQuestions('barexam', 'all', { file: ok })).map((q) => q.answer)).toEqual(['A']);
    const other = { ...row, id: 'mbe_1', choices: ['Yes', 'No', 'Maybe', 'Never'] };
    const bad = write('bad.jsonl', `${JSON.stringify(other)}\n${JSON.stringify({ ...row, answer: 'd' })}\n`);
    await expect(loadQuestions('barexam', 'all', { file: bad })).rejects.toThrow(
      /bad\.jsonl:2: question mbe_494: field "answer" is D, but field "choices\[3\]" is empty: the systems offer only the options with text, so this gold answer could never be given/,
    );
  });

  it('the upstream flat CSV form names choice_d', async () => {
    const csv = write(
      'qa.csv',
      'idx,prompt,question,choice_a,choice_b,choice_c,choice_d,answer,gold_idx\nq1,,Which interest is created?,A contingent remainder,A vested remainder,A springing use,,D,p1\n',
    );
    await expect(loadQuestions('barexam', 'all', { file: csv })).rejects.toThrow(/qa\.csv:2: question q1: field "answer" is D, but field "choice_d" is empty/);
  });

  it('an MMLU-Pro record names options[i]; a blank option that is not the answer loads', async () => {
    const rec = { question_id: 7, question: 'Which crime?', options: ['Larceny', 'Robbery', ' ', 'Fraud'], answer: 'C', answer_index: 2, src: 'x' };
    const bad = write('law.jsonl', `${JSON.stringify(rec)}\n`);
    await expect(loadQuestions('mmlu_pro_law', 'all', { file: bad })).rejects.toThrow(
      /law\.jsonl:1: question 7: field "answer" is C, but field "options\[2\]" is empty/,
    );
    const ok = write('law-ok.jsonl', `${JSON.stringify({ ...rec, answer: 'D', answer_index: 3 })}\n`);
    expect((await loadQuestions('mmlu_pro_law', 'all', { file: ok }))[0].answer).toBe('D');
  });
});

describe('a gold option whose text another option has too', () => {
  it('is refused naming line and both fields (a model answering the twin gave the gold text and was scored wrong); distinct options load', async () => {
    const row = { id: 'q1', prompt: '', question: 'Which?', choices: ['Alpha', 'Beta', 'beta ', 'Delta'], answer: 'C' };
    const bad = write('twin.jsonl', `${JSON.stringify({ ...row, answer: 'A' })}\n${JSON.stringify({ ...row, id: 'q2' })}\n`);
    await expect(loadQuestions('barexam', 'all', { file: bad })).rejects.toThrow(
      /twin\.jsonl:2: question q2: field "answer" is C, but field "choices\[1\]" \(B\) has the same text as the gold "choices\[2\]"/,
    );
    // a twin among the wrong options is no gold problem
    const ok = write('twin-ok.jsonl', `${JSON.stringify({ ...row, answer: 'A' })}\n`);
    expect((await loadQuestions('barexam', 'all', { file: ok })).map((q) => q.answer)).toEqual(['A']);
  });

  it('the bundled Bar Exam QA and MMLU-Pro law files have no such question', async () => {
    expect((await loadQuestions('barexam', 'all')).length).toBeGreaterThan(0);
    expect((await loadQuestions('mmlu_pro_law', 'all')).length).toBeGreaterThan(0);
  });
});
