/**
 * The runs list and run page in headless Chromium (web/test-support/browser.ts), at 375 and
 * 1280 px, for runs that are not simply done: a results.jsonl that cannot be read, one whose last
 * line was cut mid-write, and a run still writing its dir (a runExperiment held at its fourth item,
 * holding run.lock). Each says what it is, in the row and on its page, with axe-core finding no
 * violation. Before: the unreadable run read "0 ⚠ partial: of 8 planned" and, on its page, "the run
 * stopped before the rest … resume it"; the cut line was not mentioned; the running run read
 * "⚠ partial … the run stopped before the rest … resume it".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AxeResults } from 'axe-core';
import { readRun } from '../eval/report/read-run.js';
import { contextFrom, runExperiment } from '../eval/runner.js';
import type { AgentSystem } from '../eval/types.js';
import { startExplorer, type ExplorerServer } from './server/server.js';
import { CHROMIUM, openTestBrowser, type TestBrowser } from './test-support/browser.js';
import { writeRunStateDirs } from './test-support/run-state-dirs.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

const root = mkdtempSync(join(tmpdir(), 'lexcase-run-states-'));
const { bad } = writeRunStateDirs(root);
let s: ExplorerServer;
let release!: () => void;
let running: Promise<unknown>;

interface Q {
  id: string;
  answer: string;
}
const ITEMS: Q[] = ['mbe_137', 'mbe_222', 'mbe_581', 'mbe_682', 'mbe_847', 'mbe_866'].map((id, i) => ({ id, answer: 'ABCD'[i % 4] }));

beforeAll(async () => {
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let atFourth!: () => void;
  const fourth = new Promise<void>((r) => {
    atFourth = r;
  });
  const system: AgentSystem<Q> = async (item) => {
    if (ITEMS.indexOf(item) === 3) {
      atFourth();
      await gate;
    }
    return { prediction: item.answer, trace: {} };
  };
  running = runExperiment({
    runDir: join(root, 'live'),
    system,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'case', mode: 'offline', limit: ITEMS.length },
    seed: 21,
  });
  await fourth;
  s = await startExplorer({ runs: root, port: 0 });
});
afterAll(async () => {
  release?.();
  await running;
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

async function violations(b: TestBrowser): Promise<string[]> {
  if (!(await b.page.evaluate('typeof window.axe === "object"'))) await b.page.evaluate(AXE_SOURCE);
  const r = (await b.page.evaluate(
    `axe.run(document, ${JSON.stringify({ runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] })})`,
  )) as AxeResults;
  return r.violations.map((v) => `${v.id}: ${v.help}`);
}

describe('explorer in Chromium: runs that are unreadable, cut or still running', () => {
  it.skipIf(!CHROMIUM)('each says what it is in the runs list and on its page, at 375 and 1280 px', { timeout: 120_000 }, async () => {
    const why = await readRun(bad).then(
      () => 'read',
      (e: Error) => e.message.replace(root, 'runs'),
    );
    expect(why).toMatch(/line 3 is not a valid result record/);
    for (const width of [375, 1280]) {
      const b = await openTestBrowser(s.url, { width, height: 800 });
      try {
        await b.page.goto(`${s.url}/#/runs`);
        await b.page.waitForSelector('[data-testid=run-link][data-run=live]');
        const nCell = (id: string) => b.page.$eval(`tr:has([data-testid=run-link][data-run="${id}"]) [data-testid=run-n]`, (e) => e.textContent);
        expect(await nCell('caseBad'), `${width}`).toBe('0⚠ results.jsonl unreadable'); // before: "0⚠ partial: of 8 planned"
        expect(await b.page.$eval('tr:has([data-run=caseBad]) [data-testid=run-results-problem]', (e) => e.getAttribute('title'))).toBe(why);
        expect(await nCell('caseTorn')).toBe('7⚠ truncated last line left out⚠ partial: of 8 planned⚠ small n (7)');
        expect(await nCell('live')).toBe('3⏳ in progress: of 6 planned⚠ small n (3)'); // before: "3⚠ partial: of 6 planned…"
        expect(await nCell('caseA')).toBe('8⚠ small n (8)');
        expect(await violations(b), `runs @${width}`).toEqual([]);

        const page = async (id: string, selector: string) => {
          await b.page.goto(`${s.url}/#/runs?run=${id}`);
          await b.page.locator('[data-testid=run-summary] h1', { hasText: `Run ${id}` }).waitFor();
          return b.page.locator(`[data-testid=run-summary] ${selector}`).first().textContent();
        };
        expect(await page('caseBad', '[data-testid=run-results-problem]')).toBe(`⚠ results.jsonl unreadable: ${why}`);
        expect(await b.page.locator('[data-testid=run-summary] [data-testid=run-partial]').count()).toBe(0);
        expect(await violations(b), `caseBad @${width}`).toEqual([]);
        expect(await page('caseTorn', '[data-testid=run-dropped-tail]')).toContain('results.jsonl ends in a truncated last line');
        expect(await page('live', '[data-testid=run-partial]')).toBe(
          '⏳ in progress: 3 of 6 planned items so far (a lexcase run is still writing this run dir); the figures are over these 3 only',
        );
        expect(await violations(b), `live @${width}`).toEqual([]);
        expect(b.pageErrors).toEqual([]);
        expect(b.external).toEqual([]);
      } finally {
        await b.close();
      }
    }
  });
});
