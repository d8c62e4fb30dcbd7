/**
 * The explorer shows a run's question as the run read it. It showed the text of the bundled copy of
 * the run's dataset whatever file the run recorded (config.json `dataFiles`: path and sha256), so a
 * run whose recorded file differs from the bundled copy — a copy with an edited question, or a bundled
 * copy changed since the run — showed text the model never saw. Now the recorded file is read when it
 * is still there with its recorded sha256; else the bundled text is shown with a note that it
 * differs.
 *
 * Data: the bundled Bar Exam QA questions (corpora/data/barexam/qa.jsonl.gz), one question's text
 * edited in a copy.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetFileRecord, loadQuestions } from '../../corpora/registry.js';
import { PACKAGE_ROOT } from '../../core/version.js';
import type { Question } from '../../corpora/types.js';
import { runQuestions, runTrace } from './case-run-api.js';
import { findRun } from './runs.js';
import '../../agents/systems.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-question-source-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const EDITED = 'EDITED COPY: a farmer sued a neighbour over a fence that the copy alone describes.';
let item: Question;
let copy: string;
let copySha: string;
let bundledSha: string;
/** A second copy the run 'restoredCopy' read, edited and put back during a test. */
let copy2: string;
/** The mtime copy2 is given after each write (a fixed instant, not the clock). */
const COPY_MTIME = new Date('2026-12-01T10:00:00Z');

function runDir(id: string, dataFile: Record<string, unknown>) {
  const dir = join(root, id);
  mkdirSync(join(dir, 'traces'), { recursive: true });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      seed: 13,
      config: { system: 'mad/mad', dataset: 'barexam', split: 'val', dataFiles: { val: dataFile } },
      provenance: { createdAt: '2026-01-01T00:00:00.000Z' },
    }),
  );
  const tokens = { input: 1, output: 1, total: 2, calls: 1, cached: 0 };
  writeFileSync(
    join(dir, 'results.jsonl'),
    `${JSON.stringify({ id: item.id, prediction: 'A', gold: item.answer, correct: item.answer === 'A', ms: 5, tokens })}\n`,
  );
  writeFileSync(join(dir, 'traces', `${item.id}.json`), JSON.stringify({ letters: ['A', 'B', 'C', 'D'], rounds: [] }));
}

beforeAll(async () => {
  item = (await loadQuestions('barexam', 'val'))[0];
  const bundled = await datasetFileRecord('barexam', 'val');
  bundledSha = bundled.sha256;
  const lines = gunzipSync(readFileSync(join(PACKAGE_ROOT, bundled.file)))
    .toString('utf8')
    .trimEnd()
    .split('\n');
  const edited = lines.map((l) => {
    const r = JSON.parse(l);
    return r.id === item.id ? JSON.stringify({ ...r, question: EDITED }) : l;
  });
  copy = join(root, 'qa-copy.jsonl');
  writeFileSync(copy, `${edited.join('\n')}\n`);
  copySha = createHash('sha256').update(readFileSync(copy)).digest('hex');
  runDir('ownCopy', { dataset: 'barexam', split: 'val', source: 'file', file: copy, sha256: copySha });
  runDir('goneCopy', { dataset: 'barexam', split: 'val', source: 'file', file: join(root, 'deleted.jsonl'), sha256: copySha });
  runDir('bundled', { ...bundled });
  copy2 = join(root, 'qa-copy2.jsonl');
  writeFileSync(copy2, readFileSync(copy));
  utimesSync(copy2, COPY_MTIME, COPY_MTIME);
  runDir('restoredCopy', { dataset: 'barexam', split: 'val', source: 'file', file: copy2, sha256: copySha });
});

const none = async () => undefined;

describe("the explorer's question text is the run's own", () => {
  it('the copy fixture edits the question the runs hold', async () => {
    expect(copySha).not.toBe(bundledSha);
    expect((await loadQuestions('barexam', 'all', { file: copy })).find((q) => q.id === item.id)?.question).toBe(EDITED);
  });

  it('a run that read a copy shows the copy’s text (trace and question list), not the bundled one', async () => {
    const run = await findRun(root, 'ownCopy');
    const t = await runTrace(run, item.id, none);
    expect(t.question).toMatchObject({ id: item.id, question: EDITED });
    expect((t.question as { note?: string }).note).toBeUndefined();
    const list = await runQuestions(run, 'all');
    expect(list.questions[0].question).toBe(EDITED);
    expect(list.questionNote).toBeNull();
  });

  it('a run whose recorded copy is gone shows the bundled text and says it differs from the file the run read', async () => {
    const run = await findRun(root, 'goneCopy');
    const t = await runTrace(run, item.id, none);
    expect(t.question).toMatchObject({ question: item.question });
    expect((t.question as { note?: string }).note).toMatch(
      /bundled copy of barexam .*differs from the file this run read \(.*deleted\.jsonl, sha256 .*not found here\)/,
    );
    expect((await runQuestions(run, 'all')).questionNote).toMatch(/differs from the file this run read/);
  });

  it("a copy edited since the run, then put back at the same size with its mtime set back: the run's text again (it kept saying the file changed)", async () => {
    const run = await findRun(root, 'restoredCopy');
    const original = readFileSync(copy2);
    const before = statSync(copy2, { bigint: true });
    writeFileSync(copy2, original.toString('utf8').replace(EDITED, EDITED.replace('EDITED COPY', 'EDITED COPZ')));
    utimesSync(copy2, COPY_MTIME, COPY_MTIME);
    expect((await runTrace(run, item.id, none)).question).toMatchObject({ note: expect.stringMatching(/qa-copy2\.jsonl, sha256 .*changed since\)/) });
    writeFileSync(copy2, original);
    utimesSync(copy2, COPY_MTIME, COPY_MTIME);
    const after = statSync(copy2, { bigint: true });
    // what a key of size, mtime and inode sees: nothing changed
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const t = await runTrace(run, item.id, none);
    expect(t.question).toMatchObject({ id: item.id, question: EDITED });
    expect((t.question as { note?: string }).note).toBeUndefined();
  });

  it('a run that read the bundled copy shows it, with no note', async () => {
    const run = await findRun(root, 'bundled');
    const t = await runTrace(run, item.id, none);
    expect(t.question).toMatchObject({ question: item.question });
    expect((t.question as { note?: string }).note).toBeUndefined();
  });
});
