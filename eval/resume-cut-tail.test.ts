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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { RUN_FILES, traceFileName } from './run-dir.js';
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

it('a last line complete but for its newline (a file-size limit one byte short) is a cut line too: cut off, named, redone (before: kept as done, its requests counted again as under way)', async () => {
  const rd = join(dir, 'no-newline');
  await run(rd);
  const file = join(rd, 'results.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  writeFileSync(file, `${lines[0]}\n${lines[1]}\n${lines[2]}`);
  const id = (JSON.parse(lines[2]) as { id: string }).id;
  const warn = vi.spyOn(log, 'warn');
  try {
    const r = await run(rd);
    expect(r.ran).toBe(1);
    expect(warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('truncated last line'))).toEqual([
      `${rd}/results.jsonl ended in a truncated last line (${Buffer.byteLength(lines[2])} bytes, item ${JSON.stringify(id)}): a write stopped midway (the process killed, the disk or a file-size limit reached); cut off, the item is not counted as done and runs again`,
    ]);
  } finally {
    warn.mockRestore();
  }
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  expect(text.split('\n').filter(Boolean)).toHaveLength(3);
});

it("a sent-requests file left for an item results.jsonl records (a kill between the line's write and the file's removal) is no attempt under way: not counted, not said to run again", async () => {
  const rd = join(dir, 'stale-journal');
  await run(rd);
  const id = questions[1].id;
  mkdirSync(join(rd, RUN_FILES.underWay), { recursive: true });
  writeFileSync(join(rd, RUN_FILES.underWay, traceFileName(id).replace(/\.json$/, '.sent')), `${new Date().toISOString()}\n`);
  const warn = vi.spyOn(log, 'warn');
  try {
    const r = await run(rd);
    expect(r.ran).toBe(0);
    expect(warn.mock.calls.map((c) => String(c[0])).filter((l) => /under way|killed/.test(l))).toEqual([]);
  } finally {
    warn.mockRestore();
  }
  const config = JSON.parse(readFileSync(join(rd, 'config.json'), 'utf8')) as { interrupts?: unknown[] };
  expect(config.interrupts).toBeUndefined();
  expect(existsSync(join(rd, RUN_FILES.underWay))).toBe(false); // the stale file is gone
});
