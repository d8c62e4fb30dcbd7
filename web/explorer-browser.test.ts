/**
 * The explorer in a real headless Chromium (Debian's package, driven by playwright-core with an
 * explicit executable path; no browser download): each view loads, a search runs and highlights,
 * a CASE trace opens, and contesting an argument changes the strengths shown. Screenshots go to
 * tests/artifacts/ (gitignored). Skips, saying why, only when no Chromium is installed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../indexer/analyzer.js';
import { PACKAGE_ROOT } from '../src/version.js';
import { startExplorer, type ExplorerServer } from './server/server.js';
import { makeExplorerFixtures, type ExplorerFixtures } from './test-support/explorer-fixtures.js';

const CHROMIUM = [process.env.LEXCASE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
const ARTIFACTS = join(PACKAGE_ROOT, 'tests', 'artifacts');
if (!CHROMIUM) console.warn('explorer browser tests SKIPPED: no Chromium found at /usr/bin/chromium (apt-get install chromium, or set LEXCASE_CHROMIUM)');

let f: ExplorerFixtures;
let s: ExplorerServer;
let browser: BrowserContext;
let page: Page;
let profile: string;
const pageErrors: string[] = [];

async function shot(name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `explorer-${name}.png`), timeout: 60_000 });
}

describe.skipIf(!CHROMIUM)('explorer in headless Chromium', () => {
  beforeAll(async () => {
    f = await makeExplorerFixtures();
    s = await startExplorer({ index: f.index, runs: f.runs, port: 0 });
    profile = mkdtempSync(join(tmpdir(), 'lexcase-chromium-'));
    // a fresh profile dir (playwright passes it as --user-data-dir)
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1400, height: 900 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // the app must not reach anything but its own server
    await page.route('**/*', (route) => (route.request().url().startsWith(s.url) ? route.continue() : route.abort()));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await f?.cleanup();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('search view: a query shows ranked hits with highlighted matched terms and a score explanation', async () => {
    await page.goto(`${s.url}/#/search`);
    await page.getByTestId('search-view').waitFor();
    expect(await page.getByTestId('method').locator('option').allTextContents()).toEqual(['bm25', 'qld']);
    await page.getByTestId('query').fill('hearsay statement offered to prove the truth');
    await page.getByTestId('go').click();
    await page.getByTestId('hit').first().waitFor();
    expect(await page.getByTestId('hit').count()).toBe(10);
    const marks = await page.getByTestId('hit').first().locator('mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    const queryTerms = createAnalyzer().tokens('hearsay statement offered to prove the truth');
    for (const title of await page.getByTestId('hit').first().locator('mark').evaluateAll((ms) => ms.map((m) => m.getAttribute('title'))))
      expect(queryTerms).toContain(title!.replace('index term: ', ''));
    // the explanation is fetched from /api/explain when the hit's explanation is opened
    expect(await page.getByTestId('hit').first().locator('table.terms').count()).toBe(0);
    await page.getByTestId('hit').first().locator('details.explain summary').click();
    await page.getByTestId('hit').first().locator('table.terms tr.matched').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('hit').first().locator('table.terms tr.matched').count()).toBeGreaterThan(0);
    await shot('search');
    await page.getByTestId('method').selectOption('qld');
    await page.getByTestId('go').click();
    await expect.poll(() => page.getByTestId('summary').textContent(), { timeout: 30_000 }).toContain('qld');
  });

  it('search view: evidence for a typed hypothesis runs the offline advocate and shows its tool calls', async () => {
    await page.goto(`${s.url}/#/search?mode=evidence`);
    await page.getByTestId('query').fill('A promise without consideration is not enforceable');
    await page.getByTestId('go').click();
    await page.getByTestId('evidence').first().waitFor();
    expect(await page.getByTestId('evidence').count()).toBe(5);
    expect(await page.getByTestId('summary').textContent()).toContain('offline heuristic');
    expect(await page.getByTestId('tool-calls').locator('tbody tr').count()).toBe(2);
    await shot('evidence');
  });

  it('run view: the filter splits questions, and a trace shows advocates, tool calls, evidence and the gold answer', async () => {
    await page.goto(`${s.url}/#/runs`);
    await page.getByTestId('run-view').waitFor();
    expect(await page.getByTestId('run-link').count()).toBe(2); // the ACAL run lives in the argument view
    await page.locator(`[data-testid=run-link][data-run="${f.caseRunId}"]`).click();
    await page.locator(`[data-testid=questions][data-run="${f.caseRunId}"]`).waitFor();
    const all = await page.getByTestId('question-row').count();
    expect(all).toBe(f.questions.length);
    await page.getByTestId('filter-wrong').click();
    await page.locator('[data-testid=questions][data-filter=wrong]').waitFor();
    const wrong = await page.getByTestId('question-row').count();
    await page.getByTestId('filter-correct').click();
    await page.locator('[data-testid=questions][data-filter=correct]').waitFor();
    const correct = await page.getByTestId('question-row').count();
    expect(wrong + correct).toBe(all);
    await page.getByTestId('filter-all').click();
    await page.locator('[data-testid=questions][data-filter=all]').waitFor();
    const q = f.questions[0];
    await page.locator(`[data-testid=question-row][data-id="${q.id}"]`).click();
    await page.getByTestId('advocate').first().waitFor();
    expect(await page.getByTestId('advocate').count()).toBe(q.choices.length);
    expect(await page.getByTestId('advocate').first().getByTestId('tool-calls').locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('evidence-item').count()).toBe(5 * q.choices.length);
    expect(await page.locator('ol.choices li.gold-answer').textContent()).toContain(q.choices['ABCD'.indexOf(q.answer)]);
    expect(await page.getByTestId('no-jury').textContent()).toMatch(/offline/);
    expect(await page.getByTestId('verdict').textContent()).toMatch(/Verdict: [A-D]/);
    await shot('run-trace');
  });

  it('run view: an LLM run\'s trace shows the juror personas, their reasoning and votes, and the jury verdict', async () => {
    const q = f.questions[0];
    await page.goto(`${s.url}/#/runs?run=${f.llmRunId}&item=${q.id}`);
    await page.getByTestId('jurors').waitFor();
    expect(await page.getByTestId('jurors').locator('.juror').count()).toBe(3);
    expect(await page.getByTestId('jurors').textContent()).toContain(`vote ${q.answer}`);
    expect(await page.getByTestId('jurors').textContent()).toContain('Weighing the advocates');
    expect(await page.getByTestId('verdict').textContent()).toContain(`Verdict: ${q.answer}`);
    expect(await page.getByTestId('verdict').textContent()).toContain('confidence high');
    expect(await page.getByTestId('outcome').textContent()).toBe('correct');
    await shot('run-llm-jury');
  });

  it('argument view: rejecting a supporting argument lowers σ(claim) on screen and logs the action', async () => {
    await page.goto(`${s.url}/#/args`);
    await page.getByTestId('argument-view').waitFor();
    await page.getByTestId('claim-strength').waitFor();
    const before = Number(await page.getByTestId('claim-strength').textContent());
    expect(await page.getByTestId('graph-svg').locator('[data-node]').count()).toBe(4);
    await shot('arguments-before');
    await page.getByTestId('reject-s1').click();
    await expect.poll(async () => Number(await page.getByTestId('claim-strength').textContent()), { timeout: 30_000 }).not.toBe(before);
    const after = Number(await page.getByTestId('claim-strength').textContent());
    expect(after).toBeLessThan(before);
    expect(await page.getByTestId('contest-msg').textContent()).toContain(`σ(claim) ${before.toFixed(4)} → ${after.toFixed(4)}`);
    expect(await page.getByTestId('arg-row-s1').getAttribute('class')).toContain('rejected');
    expect(await page.getByTestId('audit').locator('li').count()).toBe(1);
    // change a base strength: the argument's own final strength moves
    const sigmaS2 = await page.getByTestId('sigma-s2').textContent();
    await page.getByTestId('base-s2').fill('0.2');
    await page.getByTestId('set-base-s2').click();
    await expect.poll(() => page.getByTestId('audit').locator('li').count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId('sigma-s2').textContent()).not.toBe(sigmaS2);
    // add an argument with a relation, and the SVG gains a node
    await page.getByTestId('add-side').selectOption('attack');
    await page.getByTestId('add-text').fill('The statement is offered to show her then-existing condition.');
    await page.getByTestId('add-relate').fill('attack:s2');
    await page.getByTestId('add-go').click();
    await page.getByTestId('arg-row-h1').waitFor();
    expect(await page.getByTestId('graph-svg').locator('[data-node]').count()).toBe(5);
    await shot('arguments-after');
    // a bad value comes back as a message, not a crash
    await page.getByTestId('base-s2').fill('3');
    await page.getByTestId('set-base-s2').click();
    await page.getByTestId('contest-msg').locator('.error').waitFor();
    expect(await page.getByTestId('contest-msg').textContent()).toMatch(/base/);
    expect(pageErrors).toEqual([]);
  });
});
