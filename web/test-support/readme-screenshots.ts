/**
 * The README's explorer screenshots (docs/explorer-eval.png, docs/explorer-mad.png), taken with the
 * same Debian Chromium as the browser tests at 1280×800: the retrieval-evaluation view on an index of
 * the bundled Bar Exam QA passages (bm25 vs qld on the val split), and a MAD trace from the scripted
 * fixture run. Not a test: `npx tsx web/test-support/readme-screenshots.ts`.
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
const f = await makeExplorerFixtures(4, { systems: true });
const s = await startExplorer({ index, runs: f.runs, port: 0 });
const browser = await chromium.launchPersistentContext(join(tmp, 'profile'), { executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'], viewport: { width: 1280, height: 800 } });
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
} finally {
  await browser.close();
  await s.close();
  await f.cleanup();
  await closeSparseIndexes(index);
  rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write('docs/explorer-eval.png, docs/explorer-mad.png\n');
