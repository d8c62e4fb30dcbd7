/**
 * A run killed before its last item (audit: `lexcase run case --limit 8` SIGKILLed after 3 items)
 * looked complete on every surface: /api/runs, /api/runs/summary, /api/run/summary, /v1/runs and
 * /v1/run said n = 3, accuracy 33.3%, with no planned count and no flag, and report.md listed
 * "items planned: 8" only among the config lines. Now each says how many were planned and that
 * the run is partial, report.md (and `lexcase report`'s text) with a warning under its Figures; a
 * run with --limit or a shard's run, once its own items are done, is not partial.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRunFigures, runFigures } from '../src/api/runs.js';
import { runSummary } from '../web/server/run-summary-api.js';
import { findRun, listRuns } from '../web/server/runs.js';
import { writeReport } from './report/write-report.js';
import { withShard } from './reproduce/shard.js';
import { resultsPath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  answer: string;
}
const ITEMS: Q[] = ['mbe_137', 'mbe_222', 'mbe_581', 'mbe_682', 'mbe_847', 'mbe_866', 'mbe_1030', 'mbe_1102'].map((id, i) => ({ id, answer: 'ABCD'[i % 4] }));
/** Right on every third item. */
const system: AgentSystem<Q> = async (item) => ({ prediction: ITEMS.indexOf(item) % 3 === 0 ? item.answer : 'D', trace: {} });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-planned-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (name: string, items: Q[]) =>
  runExperiment({
    runDir: join(root, name),
    system,
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'case', mode: 'offline', limit: items.length },
    seed: 21,
  });

describe('a run with fewer results than it planned', () => {
  it('is flagged partial with its planned count on the explorer, /v1 and in report.md (before: n = 3, 33.3% and nothing else)', async () => {
    await run('caseK', ITEMS);
    // killed after its third item: results.jsonl holds 3 lines, config.json planned 8
    const dir = join(root, 'caseK');
    const lines = readFileSync(resultsPath(dir), 'utf8').split('\n').filter(Boolean);
    writeFileSync(resultsPath(dir), `${lines.slice(0, 3).join('\n')}\n`);

    const entry = (await listRuns(root)).find((r) => r.id === 'caseK')!;
    expect(entry).toMatchObject({ items: 3, planned: 8, partial: true });
    expect(await runSummary(await findRun(root, 'caseK'))).toMatchObject({ n: 3, planned: 8, partial: true });
    expect((await listRunFigures(root)).runs[0]).toMatchObject({ id: 'caseK', n: 3, planned: 8, partial: true });
    expect(await runFigures(root, { run: 'caseK' })).toMatchObject({ n: 3, planned: 8, partial: true });

    const report = await writeReport(dir);
    const figures = report.sections.find((s) => s.id === 'figures')!;
    expect(figures.json).toMatchObject({ planned: 8, partial: true });
    expect(report.markdown).toContain(
      `**Warning: partial: 3 of 8 planned items (the run stopped before the rest); its figures are over these 3 only. Resume it by running the same command again with --run-dir ${dir}.**`,
    );
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('**Warning: partial: 3 of 8 planned items');
  });

  it('a run with --limit (planned = its limit) and a shard of a reproduction are not partial once their items are done', async () => {
    await run('limit3', ITEMS.slice(0, 3));
    await withShard({ index: 2, count: 3 }, () => run('shard', ITEMS));
    for (const id of ['limit3', 'shard']) {
      const s = await runSummary(await findRun(root, id));
      expect(s.partial, id).toBe(false);
      expect(s.planned, id).toBe(s.n);
      const md = (await writeReport(join(root, id))).markdown;
      expect(md).not.toMatch(/partial/);
    }
    expect((await runSummary(await findRun(root, 'shard'))).n).toBeLessThan(ITEMS.length);
  });

  it('a run dir that records no planned count is not flagged', async () => {
    await run('old', ITEMS.slice(0, 2));
    const cfgFile = join(root, 'old', 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    delete cfg.provenance.items;
    writeFileSync(cfgFile, JSON.stringify(cfg));
    expect(await runSummary(await findRun(root, 'old'))).toMatchObject({ n: 2, planned: null, partial: false });
    expect((await listRuns(root)).find((r) => r.id === 'old')).not.toHaveProperty('partial');
  });
});

describe('a run that is still running', () => {
  it('is "in progress", not "stopped … resume it", on the explorer and in report.md while it holds run.lock; partial once it is gone', async () => {
    // the run stops at its fourth item until released: three results written, run.lock held by this (live) process
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let atFourth!: () => void;
    const fourth = new Promise<void>((r) => {
      atFourth = r;
    });
    const slow: AgentSystem<Q> = async (item, ctx) => {
      if (ITEMS.indexOf(item) === 3) {
        atFourth();
        await gate;
      }
      return system(item, ctx);
    };
    const dir = join(root, 'live');
    const running = runExperiment({
      runDir: dir,
      system: slow,
      items: ITEMS,
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'case', mode: 'offline', limit: ITEMS.length },
      seed: 21,
    });
    await fourth;
    expect(readFileSync(resultsPath(dir), 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
    const live = await runSummary(await findRun(root, 'live'));
    expect(live).toMatchObject({ n: 3, planned: 8, partial: true, inProgress: true }); // before: no inProgress; the page said "the run stopped before the rest … resume it"
    const report = await writeReport(dir);
    expect(report.sections.find((s) => s.id === 'figures')!.json).toMatchObject({ planned: 8, partial: true, inProgress: true });
    expect(report.markdown).toMatch(
      /\*\*Warning: in progress: 3 of 8 planned items so far \(run case, pid \d+, since .+, is still writing this run dir\); its figures are over these 3 only\.\*\*/,
    );
    expect(report.markdown).not.toContain('Resume it');
    release();
    await running;
    expect(await runSummary(await findRun(root, 'live'))).toMatchObject({ n: 8, partial: false, inProgress: false });

    // killed after its third item: results cut to 3 lines and no live writer — partial, resume it (not in progress)
    const lines = readFileSync(resultsPath(dir), 'utf8').split('\n').filter(Boolean);
    writeFileSync(resultsPath(dir), `${lines.slice(0, 3).join('\n')}\n`);
    expect(await runSummary(await findRun(root, 'live'))).toMatchObject({ n: 3, partial: true, inProgress: false });
    expect((await writeReport(dir)).markdown).toContain('**Warning: partial: 3 of 8 planned items (the run stopped before the rest)');
  });
});
