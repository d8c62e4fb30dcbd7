/**
 * `lexcase report RUN --seed 7` writes report.md with bootstrap intervals at seed 7, while the
 * explorer and /v1/run compute the run's own (seed 13): the same run dir showed EMAR's macro-F1 as
 * 13.3% [0.0, 27.0] in report.md and 13.3% [0.0, 27.9] in the explorer, report.md saying only
 * "This run: 2,000 resamples, seed 7". The run: the audit's EMAR run of 12 Bar Exam items (one
 * failed on HTTP 500). Now report.md, report.json and stderr say which settings differ and that the
 * other surfaces use the run's own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFigures } from '../../src/api/runs.js';
import { findRun } from '../../web/server/runs.js';
import { runSummary } from '../../web/server/run-summary-api.js';
import { readRun } from './read-run.js';
import { buildReport } from './write-report.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-report-bootstrap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const rows: [string, string, string | null][] = [
  ['mbe_137', 'C', 'D'],
  ['mbe_222', 'C', 'D'],
  ['mbe_581', 'B', 'C'],
  ['mbe_1030', 'C', 'B'],
  ['mbe_847', 'C', 'A'],
  ['mbe_855', 'D', 'B'],
  ['mbe_866', 'C', 'D'],
  ['mbe_1177', 'C', 'A'],
  ['mbe_973', 'B', 'B'],
  ['mbe_157', 'C', 'C'],
  ['mbe_224', 'B', 'D'],
  ['mbe_682', 'C', null],
];
const dir = join(root, 'emarL1');
mkdirSync(dir);
writeFileSync(
  join(dir, 'config.json'),
  JSON.stringify({
    seed: 13,
    config: { system: 'emar', dataset: 'barexam', split: 'val', labels: ['A', 'B', 'C', 'D'] },
    provenance: { createdAt: '2026-12-03T07:00:00.000Z' },
  }),
);
writeFileSync(
  join(dir, 'results.jsonl'),
  `${rows
    .map(([id, gold, prediction]) =>
      JSON.stringify({
        id,
        prediction,
        gold,
        correct: prediction === gold,
        ms: 9000,
        ...(prediction ? {} : { error: 'LLM_REQUEST_FAILED: LLM request failed: HTTP 500 after 5 attempts: 500 boom' }),
      }),
    )
    .join('\n')}\n`,
);

const macro = (figures: readonly { id: string; lo: number | null; hi: number | null }[]) => figures.find((f) => f.id === 'macro-f1')!;

type Fig = { id: string; lo: number | null; hi: number | null };
const figuresOf = (report: { json: { sections: Record<string, unknown> } }) => (report.json.sections.figures as { figures: Fig[] }).figures;

describe('report --seed: a bootstrap interval other surfaces do not show is said so', () => {
  it('the run own settings: report.md, the explorer and /v1/run give one interval, and no note', async () => {
    const report = await buildReport(await readRun(dir));
    const run = (await findRun(root, 'emarL1'))!;
    const fig = macro(figuresOf(report));
    expect(macro((await runSummary(run)).figures)).toMatchObject({ lo: fig.lo, hi: fig.hi });
    expect(macro((await runFigures(root, { run: 'emarL1' })).figures)).toMatchObject({ lo: fig.lo, hi: fig.hi });
    expect(report.json.bootstrap).toBeUndefined();
    expect(report.markdown).not.toContain('**Note:** bootstrap intervals');
  });

  it('--seed 7: report.md and report.json name both settings and the surfaces that use the run own', async () => {
    const report = await buildReport(await readRun(dir), { seed: 7 });
    const run = (await findRun(root, 'emarL1'))!;
    const here = macro(figuresOf(report));
    const explorer = macro((await runSummary(run)).figures);
    expect(here.hi).not.toBe(explorer.hi); // the two intervals do differ (0.270 vs 0.279)
    expect(report.json.bootstrap).toMatchObject({ iterations: 2000, seed: 7, run: { iterations: 2000, seed: 13 } });
    expect(report.markdown).toContain(
      "**Note:** bootstrap intervals in this report: 2,000 resamples, seed 7 (lexcase report --iterations/--seed), not the run's own 2,000 resamples, seed 13, which the explorer, /v1/run and `lexcase report` without those flags use",
    );
  });
});
