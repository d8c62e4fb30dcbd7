/**
 * A report section of your own (registerReportSection, docs/runner.md "Reports") whose id is one the
 * report already has, or whose plot file another section writes, is refused with one USAGE error
 * naming both sections. report.json keys its sections by id: before, a section of one's own with id
 * "accuracy" (accuracy by category) replaced the run's accuracy figures there — n, correct, the Wilson
 * interval — with its own JSON, without a word, while report.md showed both.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log, setLogLevel } from '../../core/log.js';
import { runExperiment } from '../runner.js';
import { registerReportSection } from './registry.js';
import { writeReport } from './write-report.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-section-ids-'));
  setLogLevel('silent');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  setLogLevel('info');
});

const items = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, answer: i % 3 === 0 ? 'A' : 'B', category: i < 6 ? 'contracts' : 'torts' }));

async function run(system: string): Promise<string> {
  const runDir = join(dir, system);
  await runExperiment({
    runDir,
    items,
    gold: (q) => q.answer,
    seed: 13,
    config: { system },
    makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
    system: async () => ({ prediction: 'B', trace: {} }),
  });
  return runDir;
}

describe("report sections of one's own", () => {
  it('a section with the id of the accuracy section is refused naming both, never put in place of the run accuracy in report.json', async () => {
    registerReportSection(
      'by-category',
      (r) => ({ id: 'accuracy', title: 'Accuracy by category', markdown: 'contracts 4/6', json: { contracts: { n: 6, correct: 4 } } }),
      { systems: ['my-sectioned'] },
    );
    const runDir = await run('my-sectioned');
    await expect(writeReport(runDir)).rejects.toMatchObject({ code: 'USAGE' });
    await expect(writeReport(runDir)).rejects.toThrow(/report sections "Accuracy" and "Accuracy by category" have the same id "accuracy"/);
    expect(existsSync(join(runDir, 'report.json'))).toBe(false);
  });

  it('a section whose plot is reliability.svg is refused; a section with ids and files of its own is written beside the others', async () => {
    const spec = {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      data: { values: [{ x: 1 }] },
      mark: 'point',
      encoding: { x: { field: 'x', type: 'quantitative' } },
    };
    registerReportSection(
      'my-plot',
      () => ({ id: 'myPlot', title: 'My plot', markdown: 'see the plot', json: {}, plots: [{ file: 'reliability.svg', title: 'mine', spec }] }),
      { systems: ['my-plotted'] },
    );
    const withConfidence = join(dir, 'conf');
    await runExperiment({
      runDir: withConfidence,
      items,
      gold: (q) => q.answer,
      seed: 13,
      config: { system: 'my-plotted' },
      makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
      system: async () => ({ prediction: 'B', confidence: 'high', trace: {} }),
    });
    await expect(writeReport(withConfidence)).rejects.toThrow(/report sections "Accuracy by confidence" and "My plot" both write the plot reliability\.svg/);

    registerReportSection(
      'by-category-own',
      () => ({ id: 'byCategory', title: 'Accuracy by category', markdown: 'contracts 4/6', json: { contracts: { n: 6, correct: 4 } } }),
      { systems: ['my-own-ids'] },
    );
    const ok = await run('my-own-ids');
    await writeReport(ok);
    const sections = JSON.parse(readFileSync(join(ok, 'report.json'), 'utf8')).sections;
    expect(sections.accuracy).toMatchObject({ n: 12, correct: 8 });
    expect(sections.byCategory).toEqual({ contracts: { n: 6, correct: 4 } });
  });
});

describe('a report rewritten without a section the earlier one had', () => {
  it('names the section it lost: `lexcase report` in a process that does not load your code', async () => {
    const runDir = await run('my-reported');
    const mine = () => ({ id: 'byCategory', title: 'Accuracy by category', markdown: 'contracts 4/6', json: { contracts: { n: 6, correct: 4 } } });
    await writeReport(runDir, { extraSections: [mine] });
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    try {
      // the same code: nothing lost, no word
      await writeReport(runDir, { extraSections: [mine] });
      expect(warn).not.toHaveBeenCalled();
      // as `lexcase report` does: the built-in sections only
      await writeReport(runDir);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/report\.md had a section this report does not \("byCategory"\): rewritten without it/);
    } finally {
      warn.mockRestore();
    }
  });
});
