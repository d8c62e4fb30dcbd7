/**
 * A resume over a results.jsonl whose last line a write left half-written (the process killed with
 * SIGKILL mid-append, a full disk, a file-size limit: EFBIG) says it cut that line, naming the
 * item, and records it in config.json's resumes[]. Before, the line was cut off in silence: the
 * resume printed "2 of 3 items already done" as if the run had stopped cleanly, and nothing in the
 * run dir told that a record had been lost and redone.
 *
 * Data: the first 3 Bar Exam val questions; the torn line is the third record cut in half, as a
 * partial write leaves it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { runConstantSystem } from './test-support/constant-system.js';

let dir: string;
let questions: Question[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cut-tail-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, 3);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (runDir: string) =>
  runConstantSystem({ runDir, items: questions, config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: 3 } });

it('a resume names the truncated last line it cut off (its item and size), records it in resumes[], and redoes that item once', async () => {
  const rd = join(dir, 'run');
  await run(rd);
  const file = join(rd, 'results.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  expect(lines).toHaveLength(3);
  const torn = lines[2].slice(0, Math.floor(lines[2].length / 2));
  writeFileSync(file, `${lines[0]}\n${lines[1]}\n${torn}`);
  const tornId = (JSON.parse(lines[2]) as { id: string }).id;

  const warn = vi.spyOn(log, 'warn');
  try {
    const r = await run(rd);
    expect(r.ran).toBe(1);
    const said = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('truncated last line'));
    expect(said).toEqual([
      `${rd}/results.jsonl ended in a truncated last line (${Buffer.byteLength(torn)} bytes, item ${JSON.stringify(tornId)}): a write stopped midway (the process killed, the disk or a file-size limit reached); cut off, the item is not counted as done and runs again`,
    ]);
  } finally {
    warn.mockRestore();
  }
  const resumes = (JSON.parse(readFileSync(join(rd, 'config.json'), 'utf8')) as { resumes: { skipped: number; cutTail?: unknown }[] }).resumes;
  expect(resumes.at(-1)).toMatchObject({ skipped: 2, cutTail: { bytes: Buffer.byteLength(torn), id: tornId } });
  const ids = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);
  expect(ids.sort()).toEqual(questions.map((q) => q.id).sort());
});
