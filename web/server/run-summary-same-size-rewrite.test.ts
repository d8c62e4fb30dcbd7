/**
 * The explorer's run summary (the runs table's and the run page's figures) is of results.jsonl as
 * it is now. It was kept while the file's size and mtime stayed the same, so a results.jsonl
 * rewritten in place at the same size within one tick of the file system's clock, or with its mtime
 * set back afterwards (`touch -r`), kept the figures of the file as it was: here a resume's answer
 * for the failed-then-retried eighth item turns it right (4/8 → 5/8), while the explorer kept showing
 * accuracy 0.5 beside report.md's 62.5%. The mtime is set explicitly (fs.utimes), so nothing depends
 * on the clock. Data: the first 8 bundled Bar Exam QA questions, 4 answered right.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { readRun } from '../../eval/report/read-run.js';
import { buildReport } from '../../eval/report/write-report.js';
import { runSummary } from './run-summary-api.js';
import { findRun } from './runs.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-summary-rewrite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, 'case-jury');
const results = join(dir, 'results.jsonl');
/** The mtime results.jsonl is given after each write (a fixed instant, not the clock). */
const MTIME = new Date('2026-12-01T10:00:00Z');
let qs: Question[];

const other = (a: string) => (a === 'A' ? 'B' : 'A');
// a wrong line with ms 900 and a right one with ms 1000 have the same length ("false" / "true")
const line = (q: Question, prediction: string, ms: number) => JSON.stringify({ id: q.id, prediction, gold: q.answer, correct: prediction === q.answer, ms });

function writeResults(lines: string[]): void {
  writeFileSync(results, `${lines.join('\n')}\n`);
  utimesSync(results, MTIME, MTIME);
}

beforeAll(async () => {
  qs = (await loadQuestions('barexam', 'all')).slice(0, 8);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ seed: 13, config: { system: 'case', mode: 'jury', dataset: 'barexam' }, provenance: { createdAt: '2026-12-01T00:00:00.000Z', items: 8 } }),
  );
  writeResults(qs.map((q, i) => line(q, i < 4 ? q.answer : other(q.answer), 900)));
});

describe('run summary after results.jsonl is rewritten at the same size and mtime', () => {
  it("shows the figures of the file as it is now, report.md's (it kept 0.5 where report.md said 62.5%)", async () => {
    const first = await runSummary((await findRun(root, 'case-jury'))!);
    expect(first.correct).toBe(4);
    expect(first.figures[0]).toMatchObject({ label: 'accuracy', estimate: 0.5 });
    const before = statSync(results, { bigint: true });
    const lines = readFileSync(results, 'utf8').trimEnd().split('\n');
    lines[7] = line(qs[7], qs[7].answer, 1000);
    writeResults(lines);
    const after = statSync(results, { bigint: true });
    // what a stat-based key sees: nothing changed
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const now = await runSummary((await findRun(root, 'case-jury'))!);
    expect(now.correct).toBe(5);
    expect(now.figures[0].estimate).toBe(0.625);
    const report = await buildReport(await readRun(dir));
    expect(report.markdown).toMatch(/\| accuracy \| +8 \| +62\.5% /);
  });

  it('the same bytes again: the kept summary is served (the same object figures, not computed again)', async () => {
    const a = await runSummary((await findRun(root, 'case-jury'))!);
    const b = await runSummary((await findRun(root, 'case-jury'))!);
    expect(b.figures).toBe(a.figures);
  });
});
