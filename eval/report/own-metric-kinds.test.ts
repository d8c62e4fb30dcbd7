/**
 * A system of the user's own declares what its per-item metrics measure (`runExperiment`'s
 * `metricKinds`); config.json records it and report.md gives a count the mean count's interval. A
 * tool-calling system of 12 items whose `toolCalls` is 0 or 1 on every item (9 ones): before, the
 * report knew only the bundled systems' count names and printed "0.750 [0.468, 0.911] 95% Wilson" —
 * the share of items with a call, whose upper end (≤ 1) says the mean count cannot exceed one; now
 * "mean count 0.750 [0.500, 1.000] 95% bootstrap" (numpy's percentile bootstrap gives [0.5, 1.0]).
 * Undeclared, the same values are what the values say they are, and the row says so ("share of
 * items at 1").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextFrom, runExperiment } from '../runner.js';
import type { MetricKinds } from '../stats/index.js';
import { writeReport } from './index.js';

const ITEMS = Array.from({ length: 12 }, (_, i) => ({ id: `q${String(i + 1).padStart(2, '0')}`, answer: 'A' }));
const CALLS = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1];

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-own-kinds-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function toolRun(runDir: string, metricKinds?: MetricKinds, values = CALLS): Promise<{ md: string; json: Record<string, Record<string, unknown>> }> {
  await runExperiment({
    runDir,
    system: async (item) => ({ prediction: 'A', trace: {}, metrics: { toolCalls: values[Number(item.id.slice(1)) - 1] } }),
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'my-tools' },
    seed: 13,
    ...(metricKinds ? { metricKinds } : {}),
  });
  await writeReport(runDir);
  const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
  return { md: readFileSync(join(runDir, 'report.md'), 'utf8'), json: report.sections.itemMetrics };
}

describe("a system of the user's own declares its metrics' kinds", () => {
  it('toolCalls declared a count, 0 or 1 on every item: config.json records it, report.md gives the mean count a bootstrap interval, not Wilson', async () => {
    const dir = join(root, 'declared');
    const { md, json } = await toolRun(dir, { toolCalls: 'count' });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).metricKinds).toEqual({ toolCalls: 'count' });
    expect(json.toolCalls).toMatchObject({ measure: 'mean count', declared: 'count', n: 12, value: 0.75, ci: { method: 'bootstrap', lo: 0.5, hi: 1 } });
    expect(md).toMatch(/\| toolCalls \| mean count \| 12 \| 0\.750 \[0\.500, 1\.000\] \| 95% bootstrap \|/);
  });

  it('undeclared, the same values are the share of items at 1 (Wilson), and the row says so', async () => {
    const { md, json } = await toolRun(join(root, 'undeclared'));
    expect(json.toolCalls).toMatchObject({ measure: 'share of items at 1 (each item 0 or 1)', ci: { method: 'wilson' } });
    expect(md).toMatch(/\| toolCalls \| share of items at 1 \(each item 0 or 1\) \| 12 \| +75\.0% \[46\.8, 91\.1\] \| 95% Wilson \|/);
  });

  it('declared a proportion but 0.5 on three items: the row reads "mean" (the bootstrap mean of the values), never "share of items", and a warning names the metric and the items', async () => {
    // an agreement score a user's system declares a 0/1 outcome, but writes 0.5 on three items (8 at 1, 1 at 0)
    const AGREE = [1, 0.5, 1, 0, 1, 0.5, 1, 1, 1, 1, 1, 0.5];
    const { md, json } = await toolRun(join(root, 'contradicted'), { toolCalls: 'proportion' }, AGREE);
    // before: "| toolCalls | share of items | 12 | 0.792 [0.583, 0.958] | 95% bootstrap |" — 0.792 is no share of items (8 of 12 are at 1: 0.667)
    expect(json.toolCalls).toMatchObject({ measure: 'mean', declared: 'proportion', n: 12, ci: { method: 'bootstrap' } });
    expect(json.toolCalls.value).toBeCloseTo(9.5 / 12, 12);
    expect(md).toMatch(/\| toolCalls \| +mean \| 12 \| 0\.792 \[[0-9.]+, [0-9.]+\] \| 95% bootstrap \|/);
    expect(md).not.toMatch(/share of items/);
    const warning = 'toolCalls is declared a proportion (0 or 1 on each item) but 3 of 12 items record another value (q02 = 0.5, q06 = 0.5, q12 = 0.5)';
    expect(json.toolCalls.warning).toContain(warning);
    expect(md).toContain(`**Warning:** ${warning}: its figure is read by its values, not by the declaration.`);
  });

  it('declared a proportion and 0 or 1 on every item: "share of items", Wilson, no warning', async () => {
    const { md, json } = await toolRun(join(root, 'kept'), { toolCalls: 'proportion' });
    expect(json.toolCalls).toMatchObject({ measure: 'share of items', declared: 'proportion', ci: { method: 'wilson' } });
    expect(json.toolCalls.warning).toBeUndefined();
    expect(md).not.toMatch(/Warning/);
  });

  it('a kind not among count, proportion, share, graded, outcome is refused before the run dir is made', async () => {
    const dir = join(root, 'bad');
    await expect(toolRun(dir, { toolCalls: 'counts' as never })).rejects.toThrow(
      /invalid metricKinds\.toolCalls: "counts" is not one of count, proportion, share, graded, outcome/,
    );
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
  });
});

describe("a lexcase system's run records its plugin's declaration", () => {
  it('a MAD run (lexcaseSystem mad) records forfeits a count and citationsSupportive a share in config.json', async () => {
    await import('../../agents/systems.js');
    const dir = join(root, 'mad');
    await runExperiment({
      runDir: dir,
      system: async () => ({ prediction: 'A', trace: {}, metrics: { forfeits: 0 } }),
      items: ITEMS.slice(0, 2),
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'mad/mad' },
      seed: 13,
      lexcaseSystem: 'mad',
    });
    const kinds = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).metricKinds;
    expect(kinds).toMatchObject({ forfeits: 'count', citationsSupportive: 'share' });
  });
});
