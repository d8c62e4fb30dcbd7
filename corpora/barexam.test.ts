import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadQuestions } from './registry.js';

describe('Bar Exam QA question format', () => {
  it('reads the upstream flat CSV form (idx, choice_a..choice_d, gold_idx) as the same Question', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-bq-'));
    const f = join(dir, 'qa.csv');
    await writeFile(
      f,
      'idx,prompt,question,choice_a,choice_b,choice_c,choice_d,answer,gold_idx,gold_passage\nmbe_9,"Facts, facts.",Is it?,yes,no,maybe,never,b,mbe_9,"Rule text"\n',
    );
    const [q] = await loadQuestions('barexam', 'all', { file: f });
    expect(q).toEqual({
      id: 'mbe_9',
      prompt: 'Facts, facts.',
      question: 'Is it?',
      choices: ['yes', 'no', 'maybe', 'never'],
      answer: 'B',
      goldPassageIds: ['mbe_9'],
      meta: {},
    });
  });

  it('rejects an answer outside the choices naming file and line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-bq-'));
    const f = join(dir, 'qa.jsonl');
    await writeFile(f, JSON.stringify({ id: 'q1', prompt: '', question: 'Q', choices: ['a', 'b'], answer: 'C', gold_idx: 'p' }) + '\n');
    await expect(loadQuestions('barexam', 'all', { file: f })).rejects.toThrow(/qa\.jsonl:1: question q1: field "answer" must be one of A\/B, got "C"/);
  });

  it('rejects duplicate question ids naming both lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-bq-'));
    const f = join(dir, 'qa.jsonl');
    const row = JSON.stringify({ id: 'q1', prompt: '', question: 'Q', choices: ['a', 'b'], answer: 'A', gold_idx: 'p' });
    await writeFile(f, `${row}\n${row}\n`);
    await expect(loadQuestions('barexam', 'all', { file: f })).rejects.toThrow(/qa\.jsonl:2: duplicate question id "q1" \(first on line 1\)/);
  });

  it('a gold or question id written as a JSON number keeps the text the file holds, or the file is refused naming file:line and field', async () => {
    // "gold_idx": 12345678901234567801 was read as "12345678901234567000": its passage (indexed under the
    // exact string id) was never found, and `eval retrieval` counted the question as a miss, "not in this index".
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-bq-'));
    const f = join(dir, 'qa.jsonl');
    const row = (id: string, gold: string) => `{"id": ${id}, "prompt": "", "question": "Q", "choices": ["a", "b"], "answer": "A", "gold_idx": ${gold}}`;
    await writeFile(f, `${row('"q0"', '"12345678901234567800"')}\n${row('"q1"', '12345678901234567801')}\n`);
    await expect(loadQuestions('barexam', 'all', { file: f })).rejects.toThrow(
      /qa\.jsonl:2: field "gold_idx" is the JSON number 12345678901234567801, which is read as 12345678901234567000/,
    );
    await writeFile(f, `${row('1.0', '"p"')}\n`);
    await expect(loadQuestions('barexam', 'all', { file: f })).rejects.toThrow(/qa\.jsonl:1: field "id" is the JSON number 1\.0, which is read as 1/);
    await writeFile(f, `${row('7', '42')}\n`);
    const [q] = await loadQuestions('barexam', 'all', { file: f });
    expect([q.id, q.goldPassageIds]).toEqual(['7', ['42']]);
  });
});

describe('Bar Exam QA fields that are not text', () => {
  it('a gold_idx written as a list (or any field as an object) is refused naming file:line and field, not read as one id "p1,p2"', async () => {
    // Before: String(["mbe_1", "mbe_2"]) = "mbe_1,mbe_2", an id no index holds: `eval retrieval --dataset-file`
    // counted the question as a miss "with no gold passage in this index" (Recall@10 0.875 → 0.750 on 8 questions).
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-bq-'));
    const f = join(dir, 'qa.jsonl');
    const row = (extra: object) => JSON.stringify({ id: 'q1', prompt: '', question: 'Q', choices: ['a', 'b'], answer: 'A', gold_idx: 'mbe_1', ...extra });
    await writeFile(f, `${row({})}\n${row({ id: 'q2', gold_idx: ['mbe_1', 'mbe_2'] })}\n`);
    await expect(loadQuestions('barexam', 'all', { file: f })).rejects.toThrow(
      /qa\.jsonl:2: field "gold_idx" must be a string or a number \(one gold passage id per question in this format\), got an array: \["mbe_1","mbe_2"\]/,
    );
    await writeFile(f, `${row({ question: { text: 'Q' } })}\n`);
    await expect(loadQuestions('barexam', 'all', { file: f })).rejects.toThrow(/qa\.jsonl:1: field "question" must be a string or a number, got an object/);
    await writeFile(f, `${row({ choices: ['a', null] })}\n`);
    await expect(loadQuestions('barexam', 'all', { file: f })).rejects.toThrow(
      /qa\.jsonl:1: field "choices\[1\]" must be a string or a number, got null: null/,
    );
    // numbers and strings are read as their text, as before
    await writeFile(f, `${row({ id: 7, gold_idx: 42, choices: [1, 'b'] })}\n`);
    const [q] = await loadQuestions('barexam', 'all', { file: f });
    expect([q.id, q.goldPassageIds, q.choices]).toEqual(['7', ['42'], ['1', 'b']]);
  });
});
