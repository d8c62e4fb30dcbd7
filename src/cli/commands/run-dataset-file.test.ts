/**
 * `--dataset-file` on the shared run flags (`run case`, `run baseline`, `run mad`): the questions come
 * from the user's file, not the bundled copy; config.json records that file and its sha256; a resume
 * reading other bytes is refused; the default run dir names the file. Before, the flag did not exist:
 * a user's own questions could be run through `eval retrieval --dataset-file` but no system.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages, loadQuestions } from '../../../corpora/registry.js';
import type { Passage } from '../../../corpora/types.js';
import { buildIndex } from '../../../indexer/build.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { defaultRunDir } from '../../../agents/case/experiment.js';
import { madRunName } from '../../../agents/mad/experiment.js';

const LLM_VARS = ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL', 'LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY'];
let dir: string;
let index: string;
let file: string;
let rows: Record<string, unknown>[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-dataset-file-'));
  index = join(dir, 'idx');
  // six of the bundled test split's questions, renamed as a user's own (ids the learned selector never saw)
  const qs = (await loadQuestions('barexam', 'test')).slice(0, 6);
  rows = qs.map((q, i) => ({
    id: `mine_${i}`,
    prompt: q.prompt,
    question: q.question,
    choices: q.choices,
    answer: q.answer,
    gold_idx: q.goldPassageIds[0],
  }));
  file = join(dir, 'my-questions.jsonl');
  writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const gold = new Set(qs.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 200) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'test', workers: 0 },
  );
  for (const v of LLM_VARS) vi.stubEnv(v, undefined as unknown as string);
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

describe('run case --dataset-file', () => {
  it("runs the file's questions, records the file and its sha256, and refuses a resume over other bytes", async () => {
    const out = join(dir, 'run');
    const args = ['run', 'case', '--offline', '--evidence', 'plan', '--dataset-file', file, '--split', 'all', '--index', index, '--run-dir', out];
    const r = await runCli(['--json', ...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ran: 6, failed: 0 });
    const ids = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).id);
    expect(ids.sort()).toEqual(rows.map((q) => q.id).sort());
    const cfg = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config;
    expect(cfg.dataFiles).toEqual({ all: { dataset: 'barexam', split: 'all', source: 'file', file: resolve(file), sha256: sha(file) } });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`file ${resolve(file)}, sha256 ${sha(file)}`);

    // one gold answer changed in the file: the run's items are no longer those it recorded
    const changed = rows.map((q, i) => (i === 0 ? { ...q, answer: q.answer === 'A' ? 'B' : 'A' } : q));
    writeFileSync(file, `${changed.map((q) => JSON.stringify(q)).join('\n')}\n`);
    const again = await runCli(args);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/another data file \(its sha256 differs\)/);
    writeFileSync(file, `${rows.map((q) => JSON.stringify(q)).join('\n')}\n`);
  }, 60_000);

  it("names the file in the learned selector's refusal, whose hint fits a user's file", async () => {
    const trained = (await loadQuestions('barexam', 'train'))[0];
    const f = join(dir, 'with-trained.jsonl');
    writeFileSync(
      f,
      `${JSON.stringify({ id: trained.id, prompt: trained.prompt, question: trained.question, choices: trained.choices, answer: trained.answer, gold_idx: trained.goldPassageIds[0] })}\n`,
    );
    const r = await runCli(['run', 'case', '--offline', '--dataset-file', f, '--split', 'all', '--index', index, '--run-dir', join(dir, 'refused')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`1 of the 1 questions of barexam (${f}) all`);
    expect(r.stderr).toContain('leave those questions out of the file');
  });

  it('is a flag of run case, run baseline, run mad and run emar (Bar Exam QA only there)', async () => {
    for (const cmd of ['case', 'baseline', 'mad', 'emar']) {
      const h = await runCli(['run', cmd, '--help']);
      expect(h.stdout, cmd).toContain('--dataset-file <file>');
    }
  });

  it('run emar refuses it for hearsay (LegalBench is read from its own folder), before any model call', async () => {
    vi.stubEnv('LEXCASE_LLM_BASE_URL', 'http://127.0.0.1:9/v1');
    vi.stubEnv('LEXCASE_LLM_MODEL', 'm');
    const r = await runCli(['run', 'emar', '--dataset', 'hearsay', '--dataset-file', file, '--run-dir', join(dir, 'emar-h')]);
    for (const v of LLM_VARS) vi.stubEnv(v, undefined as unknown as string);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--dataset-file reads Bar Exam QA questions; hearsay is read from LegalBench');
  });

  it("gives a default run dir that names the file, apart from the bundled copy's", () => {
    const o = { system: 'case' as const, offline: true, dataset: 'barexam', split: 'val' as const, seed: 13, k: 5 };
    expect(defaultRunDir(o)).toBe(join('runs', 'case-offline-barexam-val-k5-s13'));
    expect(defaultRunDir({ ...o, datasetFile: '/data/My Questions.jsonl.gz' })).toBe(join('runs', 'case-offline-barexam-My_Questions-val-k5-s13'));
    const m = {
      dataset: 'barexam',
      split: 'val' as const,
      seed: 13,
      topology: 'full' as const,
      rounds: 2,
      crossExaminer: false,
      judgeEachRound: false,
      method: 'bm25',
      k: 5,
      passageChars: 1200,
    };
    expect(madRunName(m)).toBe('mad-full-r2-barexam-val-bm25-k5-s13');
    expect(madRunName({ ...m, datasetFile: 'qs.csv' })).toBe('mad-full-r2-barexam-qs-val-bm25-k5-s13');
  });
});
