/**
 * The README's explorer screenshots, taken with the same Debian Chromium as the browser tests at
 * 1280×800: docs/explorer-eval.png (the retrieval-evaluation view on an index of the bundled Bar
 * Exam QA passages, bm25 vs qld on the val split), docs/explorer-mad.png (a MAD trace from the
 * scripted fixture run), docs/explorer-compare.png (the fixture reproduction's bm25 and qld runs
 * compared with the LLM CASE run: distinct legend labels, one colour per run, the item × run
 * matrix), docs/explorer-reproduction.png (the grid chart and the provenance block) and
 * docs/explorer-timeline.png (an LLM CASE item's calls as agent → step → call),
 * docs/explorer-side-by-side.png (the LLM CASE and MAD runs' traces of one item, picked in the
 * item × run matrix) and docs/explorer-acal-trace.png (an ACAL item's trace in words, with the
 * case text from its argument graph and the link to that graph).
 * Not a test: `npx tsx web/test-support/readme-screenshots.ts`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { loadPassages } from '../../corpora/registry.js';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { PACKAGE_ROOT } from '../../core/version.js';
import { startExplorer } from '../server/server.js';
import { makeExplorerFixtures } from './explorer-fixtures.js';

const CHROMIUM = [process.env.LEXCASE_CHROMIUM, '/usr/bin/chromium'].find((p): p is string => !!p && existsSync(p));
if (!CHROMIUM) throw new Error('no Chromium at /usr/bin/chromium (set LEXCASE_CHROMIUM)');
const tmp = mkdtempSync(join(tmpdir(), 'lexcase-shots-'));
const index = join(tmp, 'barexam-index');
await buildIndex(loadPassages('barexam'), { out: index, corpusName: 'barexam', workers: 0 });
const f = await makeExplorerFixtures(4, { systems: true, reproduction: true });
const s = await startExplorer({ index, runs: f.runs, port: 0 });
const browser = await chromium.launchPersistentContext(join(tmp, 'profile'), {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  viewport: { width: 1280, height: 800 },
});
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.route('**/*', (r) => (r.request().url().startsWith(s.url) ? r.continue() : r.abort()));
  await page.goto(`${s.url}/#/eval?set=barexam:val&methods=bm25,qld`);
  await page.locator('[data-testid=recall-plot][data-rendered=true] svg').waitFor({ timeout: 120_000 });
  await page.screenshot({ path: join(PACKAGE_ROOT, 'docs', 'explorer-eval.png') });
  await page.goto(`${s.url}/#/runs?run=${f.systemRuns!.madRunId}&item=${f.questions[0].id}`);
  await page.locator('[data-testid=plot-mad-rounds][data-rendered=true] svg').waitFor();
  await page.getByTestId('mad-round').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(PACKAGE_ROOT, 'docs', 'explorer-mad.png') });
  const repro = f.reproRunId!;
  await page.goto('about:blank');
  await page.goto(`${s.url}/#/compare?runs=${encodeURIComponent(`${repro}/runs/bm25`)},${encodeURIComponent(`${repro}/runs/qld`)},${f.llmRunId}`);
  await page.locator('[data-testid=plot-figures][data-rendered=true] svg').waitFor({ timeout: 120_000 });
  await page.getByTestId('plot-recall-curves').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(PACKAGE_ROOT, 'docs', 'explorer-compare.png') });
  await page.goto('about:blank');
  await page.goto(`${s.url}/#/runs?run=${repro}`);
  await page.locator('[data-testid=plot-grid][data-rendered=true] svg').waitFor({ timeout: 120_000 });
  await page.getByTestId('plot-grid').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(PACKAGE_ROOT, 'docs', 'explorer-reproduction.png') });
  await page.goto('about:blank');
  await page.goto(`${s.url}/#/runs?run=${f.llmRunId}&item=${f.questions[0].id}`);
  await page.getByTestId('llm-calls').locator('summary').first().click();
  await page.getByTestId('call-timeline').waitFor({ timeout: 60_000 });
  await page.getByTestId('call-timeline').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(PACKAGE_ROOT, 'docs', 'explorer-timeline.png') });
  const q = f.questions[0].id;
  await page.goto('about:blank');
  await page.goto(`${s.url}/#/compare?runs=${f.caseRunId},${f.llmRunId},${f.systemRuns!.madRunId}&item=${q}&pair=${f.llmRunId},${f.systemRuns!.madRunId}`);
  await page.getByTestId('sbs-panel').nth(1).getByTestId('mad-round').first().waitFor({ timeout: 120_000 });
  await page.getByTestId('sbs-heading').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(PACKAGE_ROOT, 'docs', 'explorer-side-by-side.png') });
  await page.goto('about:blank');
  await page.goto(`${s.url}/#/runs?run=${f.systemRuns!.acalRunId}&item=hearsay-test-0`);
  await page.getByTestId('acal-decision').waitFor({ timeout: 60_000 });
  await page.getByTestId('trace-heading').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(PACKAGE_ROOT, 'docs', 'explorer-acal-trace.png') });
} finally {
  await browser.close();
  await s.close();
  await f.cleanup();
  await closeSparseIndexes(index);
  rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write(
  'docs/explorer-eval.png, docs/explorer-mad.png, docs/explorer-compare.png, docs/explorer-reproduction.png, docs/explorer-timeline.png, docs/explorer-side-by-side.png, docs/explorer-acal-trace.png\n',
);
