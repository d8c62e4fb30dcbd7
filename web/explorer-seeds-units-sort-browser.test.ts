/**
 * The explorer's MAD figures and the runs list's sort, in headless Chromium at 360, 768, 1280 and
 * 1920 px, with axe-core finding no violation: two seed runs of MAD as `run mad --seeds 1,2` leaves
 * them (each with its consistency.json) and a bm25 retrieval run.
 * - The MAD run page says report.md's "Consistency across 2 seeds (…): pairwise agreement …,
 *   unanimous …" line, word for word (before: the explorer showed no consistency at all).
 * - MAD's per-round chart (run page) and the compare page's per-round and headline charts read in %,
 *   as the tables beside them print accuracy ("66.7% [30.0, 90.3]"): before, their axes ran 0–1.
 * - Sorted by headline figures, the runs list goes measure by measure (accuracy, then Recall@10) and
 *   by value within each, and each row marks the figure it sorts on: before, one run's Recall@10
 *   (0.667) sorted between two runs' accuracies (50.0%, 83.3%).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictionsOf, seedConsistency } from '../agents/mad/metrics.js';
import { readRun } from '../eval/report/read-run.js';
import { buildReport } from '../eval/report/write-report.js';
import { contextFrom, runExperiment } from '../eval/runner.js';
import type { AgentSystem } from '../eval/types.js';
import { startExplorer, type ExplorerServer } from './server/server.js';
import { CHROMIUM, openTestBrowser, type TestBrowser } from './test-support/browser.js';
import '../agents/systems.js'; // the system list hands itself to eval: the report finds MAD's section

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface Q {
  id: string;
  answer: string;
}
// six Bar Exam QA val questions; gold letters as the dataset has them does not matter here
const ITEMS: Q[] = ['mbe_137', 'mbe_222', 'mbe_581', 'mbe_682', 'mbe_847', 'mbe_866'].map((id, i) => ({ id, answer: 'ABCD'[i % 4] }));
/** Items each seed gets wrong (after round 1 / in its final verdict): seed 1 ends 5 of 6 right, seed 2 3 of 6. */
const WRONG: Record<number, { r1: string[]; final: string[] }> = {
  1: { r1: ['mbe_137', 'mbe_222'], final: ['mbe_137'] },
  2: { r1: ['mbe_137', 'mbe_222', 'mbe_581', 'mbe_682'], final: ['mbe_137', 'mbe_581', 'mbe_682'] },
};
const wrongLetter = (a: string) => (a === 'A' ? 'B' : 'A');

const root = mkdtempSync(join(tmpdir(), 'lexcase-seeds-units-'));
let s: ExplorerServer;
let b: TestBrowser;
let consistencyLine: string;

const madSeed = (seed: number) =>
  runExperiment({
    lexcaseSystem: 'mad',
    runDir: join(root, `mad-seeds-s${seed}`),
    system: (async (q) => {
      const w = WRONG[seed];
      return {
        prediction: w.final.includes(q.id) ? wrongLetter(q.answer) : q.answer,
        trace: {},
        metrics: { correctAfterRound1: !w.r1.includes(q.id), correctAfterRound2: !w.final.includes(q.id) },
      };
    }) as AgentSystem<Q>,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'mad/mad', dataset: 'barexam', split: 'val', rounds: 2, judgeEachRound: true, model: 'scripted' },
    seed,
  });

beforeAll(async () => {
  const runs = [await madSeed(1), await madSeed(2)];
  // what `run mad --seeds 1,2` writes into each seed's run dir when it ends (agents/mad/experiment.ts runMadSeeds)
  const payload = {
    seeds: [1, 2],
    runDirs: [1, 2].map((seed) => join(root, `mad-seeds-s${seed}`)),
    ...seedConsistency(runs.map((r) => predictionsOf(r.results))),
  };
  for (const seed of [1, 2]) writeFileSync(join(root, `mad-seeds-s${seed}`, 'consistency.json'), JSON.stringify(payload));
  // a bm25 retrieval run: Recall@10 0.667 (4 of 6 queries find their gold passage), MRR
  await runExperiment({
    lexcaseSystem: 'retrieval',
    runDir: join(root, 'retrieval-bm25'),
    system: (async (q) => {
      const hit = ITEMS.indexOf(q) < 4;
      return { prediction: `gold-${q.id}`, trace: {}, metrics: { 'recall@10': hit ? 1 : 0, firstRank: hit ? 1 + ITEMS.indexOf(q) : null } };
    }) as AgentSystem<Q>,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'retrieval', method: 'bm25', ks: [10], dataset: 'barexam', split: 'val' },
    seed: 13,
  });
  const report = await buildReport(await readRun(join(root, 'mad-seeds-s1')));
  consistencyLine = report.markdown.split('\n').find((l) => l.startsWith('Consistency across'))!;
  s = await startExplorer({ runs: root, port: 0 });
  b = await openTestBrowser(s.url);
}, 120_000);

afterAll(async () => {
  await b?.close();
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const r = (await page.evaluate(
    `axe.run(document, ${JSON.stringify({ runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] })})`,
  )) as AxeResults;
  return r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** A plot's y axis: its title and tick labels (every y axis of a faceted plot). */
const Y_AXES = (testid: string) => `(() => {
  const fig = document.querySelector('[data-testid=${testid}][data-rendered=true]');
  if (!fig) return null;
  return [...fig.querySelectorAll('g.role-axis')].filter((a) => a.querySelector('g.role-axis-title') && /accuracy|estimate/.test(a.querySelector('g.role-axis-title').textContent))
    .map((a) => ({ title: a.querySelector('g.role-axis-title').textContent, ticks: [...a.querySelectorAll('g.role-axis-label text')].map((t) => t.textContent) }));
})()`;

async function yAxes(page: Page, testid: string): Promise<{ title: string; ticks: string[] }[]> {
  await page.locator(`[data-testid=${testid}][data-rendered=true] svg`).waitFor({ timeout: 60_000 });
  return (await page.evaluate(Y_AXES(testid))) as { title: string; ticks: string[] }[];
}

const PERCENT_TICKS = /^\d{1,3}%$/;

const WIDTHS = [360, 768, 1280, 1920];

/** Each width in a fresh document at `hash`, once `ready` shows. */
async function atEveryWidth(hash: string, ready: string, check: (page: Page, width: number) => Promise<void>): Promise<void> {
  const page = b.page;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('about:blank');
    await page.goto(`${s.url}/${hash}`);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
    await check(page, width);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `${hash} @${width}: no horizontal overflow`).toBe(true);
    expect(await violations(page), `${hash} @${width}`).toEqual([]);
  }
  expect(b.pageErrors).toEqual([]);
  expect(b.external).toEqual([]);
}

describe.skipIf(!CHROMIUM)("explorer in Chromium at 360, 768, 1280 and 1920 px (0 axe violations): MAD's seeds and units, the runs list's sort", () => {
  it("a MAD run of `--seeds` says report.md's consistency line on its page, word for word", { timeout: 120_000 }, async () => {
    expect(consistencyLine).toBe('Consistency across 2 seeds (6 of 6 items answered in every run): pairwise agreement 66.7%, unanimous 66.7%');
    await atEveryWidth('#/runs?run=mad-seeds-s1', '[data-testid=run-summary] [data-testid=figure-accuracy]', async (page, width) => {
      expect(await page.getByTestId('seed-consistency').textContent({ timeout: 5_000 }), `@${width}`).toBe(consistencyLine);
    });
  });

  it("MAD's per-round chart and compare's per-round and headline charts read in %, as the tables beside them", { timeout: 180_000 }, async () => {
    const inPercent = async (page: Page, testid: string, where: string) => {
      const axes = await yAxes(page, testid);
      expect(axes.length, where).toBeGreaterThan(0);
      for (const a of axes) {
        expect(a.title, where).toMatch(/\(%\)/);
        expect(a.ticks.length, where).toBeGreaterThan(1);
        for (const t of a.ticks) expect(t, `${where}: a tick`).toMatch(PERCENT_TICKS);
      }
    };
    await atEveryWidth('#/runs?run=mad-seeds-s1', '[data-testid=run-summary] [data-testid=figure-accuracy]', async (page, width) => {
      expect(await page.getByTestId('figure-accuracy').textContent()).toMatch(/^83\.3% \[/);
      await inPercent(page, 'plot-mad-rounds', `run page @${width}`);
    });
    await atEveryWidth('#/compare?runs=mad-seeds-s1,mad-seeds-s2', '[data-testid=compare-run]', async (page, width) => {
      expect(await page.locator('[data-testid=compare-run][data-run=mad-seeds-s2] [data-figure=accuracy]').textContent()).toMatch(/^accuracy 50\.0% \[/);
      for (const testid of ['plot-round-curves', 'plot-figures']) await inPercent(page, testid, `compare ${testid} @${width}`);
    });
  });

  it('sorted by headline figures, the runs list goes measure by measure and by value within each, each row marking the measure it sorts on', {
    timeout: 120_000,
  }, async () => {
    await atEveryWidth('#/runs?sort=figures&dir=asc', '[data-testid=run-row]', async (page, width) => {
      const rows = () =>
        page.$$eval('[data-testid=run-row]', (trs) =>
          trs.map((tr) => ({
            run: tr.getAttribute('data-run'),
            measure: tr.querySelector('[data-testid=run-sort-measure]')?.getAttribute('data-measure') ?? null,
          })),
        );
      expect(await rows(), `asc @${width}`).toEqual([
        { run: 'mad-seeds-s2', measure: 'accuracy' }, // 50.0%
        { run: 'mad-seeds-s1', measure: 'accuracy' }, // 83.3%
        { run: 'retrieval-bm25', measure: 'Recall@10' }, // 0.667: before, between the two
      ]);
      await page.getByTestId('sort-figures').click();
      expect(await rows(), `desc @${width}`).toEqual([
        { run: 'mad-seeds-s1', measure: 'accuracy' },
        { run: 'mad-seeds-s2', measure: 'accuracy' },
        { run: 'retrieval-bm25', measure: 'Recall@10' },
      ]);
    });
  });
});
