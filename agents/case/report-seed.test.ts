/**
 * `run case --seed 7` writes report.md with the statistics module's bootstrap seed, not the run's: the
 * report it writes is the one `lexcase report` (and the explorer, /v1) compute from the same run dir.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../eval/report/write-report.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import '../systems.js';
import { runCaseExperiment } from './experiment.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-case-report-seed-'));
});
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('run case --seed', () => {
  it("writes the report `lexcase report` rewrites: the shared bootstrap seed 13, not the run's 7", async () => {
    const index = join(dir, 'idx');
    const runDir = join(dir, 'r7');
    await buildSmallBarexamIndex(index, { items: 3 });
    await runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index, limit: 3, seed: 7, runDir });
    const asRun = readFileSync(join(runDir, 'report.md'), 'utf8');
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).seed).toBe(7);
    expect(asRun).not.toMatch(/This run: .*seed 7/);
    const rewritten = await writeReport(runDir);
    expect(rewritten.markdown).toBe(asRun);
  });
});
