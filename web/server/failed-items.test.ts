/**
 * Failed items (eval/metrics/failures.ts: an error, or no prediction) are counted by one rule and
 * have a row in report.md's "Accuracy by confidence". The run is the audit's CASE jury run of 6
 * Bar Exam items (one failed on an HTTP 400, with no confidence label), plus an item an older
 * version recorded with no prediction and no error. Before: the confidence table's shares added up
 * to 5 of 7 (71.4%) with no word about the rest, and the explorer and /v1 counted 1 failure (the
 * error only) where report.md's accuracy counted 2 as failed, and the explorer's reliability plot
 * left the 2 out.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFigures } from '../../src/api/runs.js';
import { readRun } from '../../eval/report/read-run.js';
import { buildReport } from '../../eval/report/write-report.js';
import { runPage, runSummary } from './run-summary-api.js';
import { findRun } from './runs.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-failed-items-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const line = (id: string, prediction: string | null, gold: string, confidence: string | null, error?: string) =>
  JSON.stringify({ id, prediction, gold, correct: prediction === gold && !error, ...(confidence ? { confidence } : {}), ms: 900, ...(error ? { error } : {}) });

const dir = join(root, 'caseL');
mkdirSync(dir);
writeFileSync(
  join(dir, 'config.json'),
  JSON.stringify({ seed: 13, config: { system: 'case', mode: 'jury' }, provenance: { createdAt: '2026-01-01T00:00:00.000Z' } }),
);
writeFileSync(
  join(dir, 'results.jsonl'),
  [
    line('mbe_137', 'D', 'C', 'tie'),
    line('mbe_581', 'A', 'B', 'tie'),
    line('mbe_222', 'C', 'C', 'tie'),
    line('mbe_682', null, 'C', null, 'LLM request failed: HTTP 400: 400 audit: bad request'),
    line('mbe_847', 'A', 'C', 'low'),
    line('mbe_1030', 'A', 'C', 'high'),
    line('mbe_157', null, 'C', null),
  ].join('\n') + '\n',
);

describe('failed items: one count, and a row in the confidence table', () => {
  it('report.md: the failed items have their bucket (shares add up to 100%); the Failures section lists both', async () => {
    const report = await buildReport(await readRun(dir));
    const conf = report.json.sections.byConfidence as Record<string, { n: number; share: number; accuracy: number }>;
    expect(conf['failed (no confidence)']).toMatchObject({ n: 2, accuracy: 0 });
    expect(Object.values(conf).reduce((s, b) => s + b.n, 0)).toBe(7);
    expect(report.markdown).toMatch(/\| failed \(no confidence\) +\| +2 \| +28\.6% \| +0\.0% \|/);
    const failures = report.json.sections.failures as { count: number; byCode: Record<string, number> };
    expect(failures.count).toBe(2);
    expect(failures.byCode).toEqual({ OTHER: 1, NO_PREDICTION: 1 });
    expect(report.markdown).toContain('2 of 7 items failed (counted as wrong in accuracy)');
  });

  it('the explorer and /v1 count the failures by the same rule (error or no prediction)', async () => {
    const run = (await findRun(root, 'caseL'))!;
    expect((await runSummary(run)).failures).toBe(2); // before: 1
    expect((await runFigures(root, { run: 'caseL' })).failures).toBe(2);
  });

  it("the run page's reliability plot has report.md's rows and counts: a bar for the failed items, scored as the table scores", async () => {
    const report = await buildReport(await readRun(dir));
    const table = report.json.sections.byConfidence as Record<string, { n: number; accuracy: number }>;
    const page = await runPage((await findRun(root, 'caseL'))!);
    const rel = page.plots.find((p) => p.id === 'reliability')!;
    const bars = (rel.spec.data as { values: { bin: string; n: number; accuracy: number }[] }).values;
    // before: tie 3, low 1, high 1 — 5 of 7 items, the failed pair left out with no word about them
    expect(Object.fromEntries(bars.map((b) => [b.bin, { n: b.n, accuracy: b.accuracy }]))).toEqual(
      Object.fromEntries(Object.entries(table).map(([k, v]) => [k, { n: v.n, accuracy: v.accuracy }])),
    );
    expect(bars.map((b) => b.bin)).toEqual(['tie', 'low', 'high', 'failed (no confidence)']);
    expect(rel.title).toBe('Accuracy by confidence (reliability; 7 items, 2 failed (no confidence, counted as wrong))');
  });
});
