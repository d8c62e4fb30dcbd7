/**
 * A run whose results.jsonl cannot be read is shown as that, never as an empty run, and a
 * truncated last line is named where the figures are. Runs: 8 Bar Exam val items of an offline
 * CASE run (config.json planning 8); `caseBad` has its third line cut in half (a hand edit, a copy
 * that went wrong), `caseTorn` its last line cut mid-write (a killed run).
 *
 * Before: the explorer read caseBad as 0 items — the runs list said "0 ⚠ partial: of 8 planned"
 * with no figures, the run page "the run stopped before the rest … resume it", `/api/compare`
 * answered "the two runs share no item ids" — where `lexcase report` and `lexcase compare` stop
 * with "line 3 is not a valid result record"; caseTorn's figures were over 7 items with no word of
 * the line left out, which `lexcase report` warns about.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRunFigures, runFigures } from '../../src/api/runs.js';
import { readRun } from '../../eval/report/read-run.js';
import { buildReport } from '../../eval/report/write-report.js';
import type { RunSummary } from '../common/run-summary-types.js';
import { writeRunStateDirs } from '../test-support/run-state-dirs.js';
import { startExplorer, type ExplorerServer } from './server.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-unreadable-results-'));
let s: ExplorerServer;
afterAll(async () => {
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

const { bad, torn } = writeRunStateDirs(root);

const get = async (path: string) => {
  const r = await fetch(`${s.url}${path}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
const summaries = async () => new Map(((await get('/api/runs/summary')).body.runs as RunSummary[]).map((r) => [r.id, r]));

beforeAll(async () => {
  s = await startExplorer({ runs: root, port: 0 });
});

describe('explorer: a results.jsonl that cannot be read', () => {
  it('is named in the runs list, the run page and the compare, with the error `lexcase report` stops with; not a partial run of 0 items', async () => {
    const cli = await readRun(bad).then(
      () => 'read',
      (e: Error) => e.message,
    );
    expect(cli).toMatch(/line 3 is not a valid result record/);
    const why = cli.replace(root, 'runs');
    const sum = (await summaries()).get('caseBad')!;
    expect(sum).toMatchObject({ n: 0, figures: [], resultsProblem: why, partial: false, planned: 8, droppedTail: false }); // before: resultsProblem absent, partial true
    const page = await get('/api/run/summary?run=caseBad');
    expect(page.body.summary).toMatchObject({ resultsProblem: why, partial: false });
    const listed = ((await get('/api/runs')).body.runs as { id: string; resultsProblem?: string; partial?: boolean }[]).find((r) => r.id === 'caseBad');
    expect(listed).toMatchObject({ resultsProblem: why });
    expect(listed?.partial).toBeUndefined();
    // lexcase compare refuses the run with that line; so does the explorer's compare (before: 400 "share no item ids")
    for (const path of ['/api/compare?a=caseA&b=caseBad', '/api/compare/runs?runs=caseA,caseBad']) {
      const c = await get(path);
      expect(c.status).toBe(422);
      expect(c.body.error).toBe(why);
    }
  });

  it('/v1/runs lists it with the reason (before: left out), /v1/run gives the same', async () => {
    const why = (await readRun(bad).then(
      () => 'read',
      (e: Error) => e.message,
    )) as string;
    const listed = (await listRunFigures(root)).runs.find((r) => r.id === 'caseBad');
    expect(listed).toMatchObject({ n: 0, figures: [], partial: false, resultsProblem: why.replace(realpathSync(root), 'runs') });
    expect(listed?.resultsProblem).toMatch(/^run runs\/caseBad\/results\.jsonl: line 3 /); // no absolute path
    expect(await runFigures(root, { run: 'caseBad' })).toEqual(listed);
    expect((await listRunFigures(root)).runs.find((r) => r.id === 'caseA')).toMatchObject({ n: 8, resultsProblem: null, inProgress: false });
  });

  it('a run that reads whole says nothing of it', async () => {
    expect((await summaries()).get('caseA')).toMatchObject({ n: 8, resultsProblem: null, droppedTail: false, partial: false });
  });
});

describe('explorer: a truncated last line of results.jsonl', () => {
  it('is left out as `lexcase report` leaves it out, and the summary says so beside the same figures', async () => {
    const data = await readRun(torn);
    expect(data.droppedTail).toBe(true);
    const report = await buildReport(data);
    const want = (report.json.sections.figures as { figures: { id: string; text: string }[] }).figures.map((f) => [f.id, f.text]);
    const sum = (await summaries()).get('caseTorn')!;
    expect(sum).toMatchObject({ n: 7, planned: 8, partial: true, droppedTail: true, resultsProblem: null }); // before: droppedTail absent
    expect(sum.figures.map((f) => [f.id, f.text])).toEqual(want);
  });
});
