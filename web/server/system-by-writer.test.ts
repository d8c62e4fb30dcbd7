/**
 * The explorer's trace view, a run's headline figures and the trace schema the runner writes (and
 * the report reads) a run's traces with follow the system that wrote the run, as its config.json
 * records it (`provenance.lexcaseSystem`), not the name the run chose: before, a system of the user's
 * own named "case" had its traces checked against CASE's trace schema (a trace whose `jurors` is a
 * count was refused), got CASE's run views and trace view in the explorer and CASE's "gold passage in
 * evidence" figure. A run lexcase's CASE wrote, and an older run dir that records no writer, keep CASE's.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js';
import '../../agents/case/trace-schema.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import { readRun } from '../../eval/report/read-run.js';
import { writeReport } from '../../eval/report/write-report.js';
import { runTrace } from './case-run-api.js';
import { runSummary } from './run-summary-api.js';
import { findRun } from './runs.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'lexcase-by-writer-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// four Bar Exam-like items; the system answers A, its trace counts its "jurors" (a number, not CASE's list of juror records)
const items = ['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4'].map((id, i) => ({ id, answer: 'ABCA'[i] }));
const counted = { jurors: 3, reasoning: 'always A' };
const system = (trace: Record<string, unknown>) => async () => ({ prediction: 'A', confidence: 'high', trace, metrics: { goldInAnyEvidence: true } });

async function run(name: string, lexcaseSystem?: string, trace: Record<string, unknown> = counted) {
  const runDir = join(root, name);
  await runExperiment({
    runDir,
    system: system(trace),
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'case', dataset: 'mine' },
    seed: 13,
    ...(lexcaseSystem ? { lexcaseSystem } : {}),
  });
  return runDir;
}

async function view(name: string) {
  const r = await findRun(root, name);
  const trace = await runTrace(r, 'mbe_1', async () => undefined);
  const summary = await runSummary(r);
  return { kind: r.kind, traceKind: trace.traceKind, figures: summary.figures.map((f) => f.id) };
}

describe('a run named "case" is read as the system that wrote it', () => {
  it('a system of your own named "case": its traces are written and read as they are, not checked against CASE\'s schema', async () => {
    const dir = await run('user-case');
    const results = readFileSync(join(dir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.map((r) => r.error ?? null)).toEqual([null, null, null, null]);
    expect(existsSync(join(dir, 'traces', 'mbe_1.json'))).toBe(true);
    expect((await readRun(dir)).traces.get('mbe_1')).toMatchObject({ jurors: 3 });
  });

  it('a system of your own named "case": the generic run view and trace view, accuracy only (not CASE\'s views and gold-in-evidence figure)', async () => {
    await run('user-case-plain', undefined, { reasoning: 'always A' });
    expect(await view('user-case-plain')).toEqual({ kind: 'run', traceKind: 'other', figures: ['accuracy'] });
    // report.md's figures are the explorer's
    await writeReport(join(root, 'user-case-plain'), { iterations: 100 });
    const md = readFileSync(join(root, 'user-case-plain', 'report.md'), 'utf8');
    expect(md).toMatch(/\| accuracy \|/);
    expect(md).not.toContain("gold in any advocate's evidence");
  });

  it("a run lexcase's CASE wrote, and an older run dir that records no writer, keep CASE's view and figures", async () => {
    // CASE's own schema applies to CASE's runs: a trace of this shape is not one CASE writes
    const dir = await run('lexcase-case', 'case');
    const first = JSON.parse(readFileSync(join(dir, 'results.jsonl'), 'utf8').split('\n')[0]);
    expect(first.error).toMatch(/jurors/);
    // an older run dir (written before provenance.lexcaseSystem): the name decides, as before
    const old = await run('old-case', 'case');
    const cfgPath = join(old, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
    delete cfg.provenance.lexcaseSystem;
    writeFileSync(cfgPath, JSON.stringify(cfg));
    for (const name of ['lexcase-case', 'old-case']) expect(await view(name)).toMatchObject({ kind: 'case', traceKind: 'case' });
    expect((await view('old-case')).figures).toEqual(['accuracy', 'gold-in-evidence']);
    await writeReport(old, { iterations: 100 });
    expect(readFileSync(join(old, 'report.md'), 'utf8')).toContain("gold in any advocate's evidence");
  });
});
