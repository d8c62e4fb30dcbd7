/**
 * The explorer's layout, figure and accessibility check (web/explorer-layout-*.test.ts), shared by
 * the files that split the views between them so the slow tier's workers run them side by side:
 * every view given at 360, 768, 1280 and 1920 px in headless Chromium — no horizontal overflow
 * (document scrollWidth ≤ the viewport's width), axe-core finds no violation at all (WCAG 2.1 A/AA
 * and best practice, landmark-unique and heading-order included), the view has exactly one h1 and
 * the same title at every width; every plot's legend labels are distinct and uncut and a run keeps
 * one colour in every plot of a page; no plot text is under 9 px; every table's columns are on
 * screen or in a labelled, focusable scroll region; no header cell or tool name breaks inside a
 * word (figure-checks.ts); the runs table fits at 1280 and above; the compare page has its item ×
 * run matrix, a reproduction its provenance block and grid chart; with an item's LLM calls open
 * (CASE, MAD, baseline), the nested call timeline is there and a prompt gets the calls panel's
 * width; no passage is cut mid-line or without a "more"; the ACAL graph opens with its claim in
 * view; two runs' traces of one item side by side (compare-pair). A view found wanting at a width
 * is kept as a full-page screenshot in tests/artifacts/ (gitignored; every view at every width with
 * LEXCASE_SCREENSHOTS=1). The titles check (`titles: true`) opens every view once and checks each
 * has a title of its own. Skips, saying why, only when no Chromium is installed.
 *
 * One browser and one server per file; the fixtures are built once per slow-tier run and shared by
 * the three files (sharedExplorerFixtures: they only read them). At each width the first view opens in
 * a fresh document (a deep link) and the others as the app's links open them, by a hash change in
 * that document (show(): the app renders each route anew); a fresh document per view cost ~1.5 s
 * of Chromium CPU each, a hash change ~0.2 s.
 *
 * axe runs in the page (runAxe: axe-core's axe.run, injected once per document): @axe-core/playwright's
 * default mode opened a blank page per analysis to merge per-frame results, and its legacy mode
 * injected axe again for every analysis; the explorer has no frames (requests to other origins are
 * aborted). Only violations keep every node; passes and inapplicable rules are still listed, one
 * node each.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/version.js';
import { readResults } from '../../eval/run-dir.js';
import { startExplorer, type ExplorerServer } from '../server/server.js';
import { CHROMIUM, openTestBrowser, type TestBrowser } from './browser.js';
import type { ExplorerFixtures } from './explorer-fixtures.js';
import { sharedExplorerFixtures } from './shared-explorer-fixtures.js';
import { figureFacts, figureProblems } from './figure-checks.js';

const ARTIFACTS = join(PACKAGE_ROOT, 'tests', 'artifacts');
const WIDTHS = [360, 768, 1280, 1920];
const SCREENSHOTS = process.env.LEXCASE_SCREENSHOTS === '1';

let f: ExplorerFixtures;
let s: ExplorerServer;
let b: TestBrowser;

/** Open an item's LLM calls: the nested timeline (agent → step → call) and the first call's reply and messages. */
async function openCalls(page: Page): Promise<void> {
  await page.getByTestId('llm-calls').locator('summary').first().click();
  await page.getByTestId('call-timeline').waitFor({ timeout: 60_000 });
  await page.getByTestId('call-open').first().locator('summary').click();
}

/** What items 2 and 5 of issue 40 measure on a page: prompts as wide as the calls panel, no passage cut without a "more", the ACAL claim in view. */
async function readingProblems(page: Page, view: string): Promise<string[]> {
  return page
    .evaluate(`(() => {
    const out = [];
    const box = (e) => e.getBoundingClientRect();
    // a prompt or reply gets (nearly) the calls panel's whole width, never a squeezed last column
    const panel = document.querySelector('[data-testid=llm-calls]');
    for (const pre of document.querySelectorAll('[data-testid=call-open][open] pre')) {
      if (box(pre).width < 0.6 * box(panel).width) out.push('a prompt or reply is ' + Math.round(box(pre).width) + ' px wide in a ' + Math.round(box(panel).width) + ' px calls panel');
    }
    // a passage or snippet cut short has a visible "more", and is cut after a whole line
    for (const p of document.querySelectorAll('.passage, ol.evidence .snippet')) {
      if (p.scrollHeight <= p.clientHeight + 1) continue;
      const more = p.parentElement.querySelector(':scope > button.more');
      if (!more || more.hidden || box(more).height === 0) out.push('a passage is cut with no "more" control: ' + p.textContent.slice(0, 40));
      const lh = parseFloat(getComputedStyle(p).lineHeight);
      const lines = p.clientHeight / lh;
      if (Number.isFinite(lines) && Math.abs(lines - Math.round(lines)) > 0.05) out.push('a passage is cut mid-line (' + lines.toFixed(2) + ' lines shown)');
    }
    // the argument graph opens with the claim node in view
    const wrap = document.querySelector('[data-testid=graph-wrap]') ?? document.querySelector('.svg-wrap');
    const claim = document.querySelector('svg.graph .node.claim rect');
    if (wrap && claim) {
      const w = box(wrap), c = box(claim);
      if (c.left < w.left - 1 || c.right > w.right + 1) out.push('the claim node is cut off: ' + Math.round(c.left - w.left) + '..' + Math.round(c.right - w.left) + ' px in a ' + Math.round(w.width) + ' px box');
    }
    return out;
  })()`)
    .then((xs) => (xs as string[]).map((x) => `${view}: ${x}`));
}

interface View {
  name: string;
  hash: string;
  ready: string;
  open?: (page: Page) => Promise<void>;
}

/** The views the check knows, by name. */
export const VIEW_NAMES = [
  'search',
  'evidence',
  'eval',
  'runs',
  'run-case',
  'run-mad',
  'run-acal',
  'run-baseline',
  'run-emar',
  'run-threeply',
  'reproduction',
  'run-retrieval',
  'compare-3',
  'compare-retrieval',
  'compare-pair',
  'compare-2',
  'arguments',
  'passage',
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** Each view: its route and what shows once it has rendered. */
async function views(): Promise<View[]> {
  const q = f.questions[0];
  const sys = f.systemRuns!;
  const bm25 = `${f.reproRunId}/runs/bm25`;
  const firstQuery = (await readResults(join(f.runs, bm25))).records[0].id;
  return [
    {
      name: 'search',
      hash: `#/search?${new URLSearchParams({ q: 'hearsay statement offered to prove the truth', method: 'bm25', k: '10', rel: q.goldPassageIds.join(' ') })}`,
      ready: '[data-testid=hit]',
    },
    { name: 'evidence', hash: '#/search?mode=evidence', ready: '[data-testid=search-view]' },
    { name: 'eval', hash: '#/eval?set=barexam:val&methods=bm25,qld', ready: '[data-testid=eval-queries]' },
    { name: 'runs', hash: '#/runs', ready: '[data-testid=runs-table]' },
    { name: 'run-case', hash: `#/runs?run=${f.llmRunId}&item=${q.id}`, ready: '[data-testid=jurors]', open: openCalls },
    { name: 'run-mad', hash: `#/runs?run=${sys.madRunId}&item=${q.id}`, ready: '[data-testid=mad-round]', open: openCalls },
    { name: 'run-acal', hash: `#/runs?run=${sys.acalRunId}&item=hearsay-test-0`, ready: '[data-testid=acal-decision]' },
    { name: 'run-baseline', hash: `#/runs?run=${sys.baselineRunId}&item=${q.id}`, ready: '[data-testid=context-hits]', open: openCalls },
    { name: 'run-emar', hash: `#/runs?run=${sys.emarRunId}&item=${q.id}`, ready: '[data-testid=convergence]' },
    { name: 'run-threeply', hash: `#/runs?run=${sys.threeplyRunId}&item=arguable-001`, ready: '[data-testid=factor-table]' },
    { name: 'reproduction', hash: `#/runs?run=${f.reproRunId}`, ready: '[data-testid=provenance]' },
    { name: 'run-retrieval', hash: `#/runs?run=${encodeURIComponent(bm25)}&item=${firstQuery}`, ready: '[data-testid=top-hits]' },
    { name: 'compare-3', hash: `#/compare?runs=${f.caseRunId},${f.llmRunId},${sys.madRunId}`, ready: '[data-testid=item-matrix]' },
    {
      name: 'compare-retrieval',
      hash: `#/compare?runs=${encodeURIComponent(bm25)},${encodeURIComponent(`${f.reproRunId}/runs/qld`)},${f.llmRunId}`,
      ready: '[data-testid=item-matrix]',
    },
    {
      name: 'compare-pair',
      hash: `#/compare?runs=${f.caseRunId},${f.llmRunId},${sys.madRunId}&item=${q.id}&pair=${f.llmRunId},${sys.madRunId}`,
      ready: '[data-testid=sbs-panel] [data-testid=mad-round]',
    },
    { name: 'compare-2', hash: `#/compare?runs=${f.caseRunId},${f.llmRunId}`, ready: '[data-testid=differ]' },
    { name: 'arguments', hash: '#/args', ready: '[data-testid=claim-strength]' },
    { name: 'passage', hash: `#/passage?id=${encodeURIComponent(q.goldPassageIds[0])}`, ready: '[data-testid=passage-uses]' },
  ];
}

/** The axe rules run on every view: WCAG 2.1 A/AA and best practice. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's `axe.run` over the page's document, violations only (the rules that passed or did not
 * apply are listed without their nodes). axe is injected once per document: the views after the
 * first are hash changes in the same document (show), so the ~0.5 MB script is not parsed again
 * for each — @axe-core/playwright's AxeBuilder injected it on every call (15 of a layout file's
 * 76 core-seconds, measured 2026-11-29). The app has no frames, so the top document is all of it.
 */
async function runAxe(page: Page): Promise<AxeResults> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(
    `axe.run(document, ${JSON.stringify({ runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] })})`,
  )) as AxeResults;
}

/** Fixtures, the explorer and a browser for the describe block that calls it. */
function setUp(): void {
  beforeAll(async () => {
    f = await sharedExplorerFixtures();
    s = await startExplorer({ index: f.index, runs: f.runs, port: 0 });
    b = await openTestBrowser(s.url);
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await b?.close();
    await s?.close();
    await f?.cleanup();
  });
}

/** A view in a fresh document: a deep link, as a user opens it. */
async function load(page: Page, v: View): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${s.url}/${v.hash}`);
  await page.locator(v.ready).first().waitFor({ timeout: 90_000 });
}

/**
 * A view in the document already open, as a link in the app opens it (a hash change; the app renders
 * the route anew). The elements `ready` matches in the last view are marked first, so the wait is for
 * the new view's own, not the last view's (which a hash change alone would leave to match). A fresh
 * document costs ~1.5 s of Chromium CPU (the 0.9 MB script and vega start again); this ~0.2 s.
 */
async function show(page: Page, v: View): Promise<void> {
  await page.evaluate(`for (const e of document.querySelectorAll(${JSON.stringify(v.ready)})) e.setAttribute('data-left-view', '')`);
  expect(await page.evaluate(`location.hash`)).not.toBe(v.hash); // the same hash would not render again
  await page.evaluate(`location.hash = ${JSON.stringify(v.hash)}`);
  await page.locator(`${v.ready}:not([data-left-view])`).first().waitFor({ timeout: 90_000 });
}

/** Each view in turn: the first in a fresh document, the others by a hash change in it (show). */
async function visit(page: Page, vs: View[], each: (v: View) => Promise<void>): Promise<void> {
  for (const [i, v] of vs.entries()) {
    await (i === 0 ? load(page, v) : show(page, v));
    await each(v);
  }
}

if (!CHROMIUM) console.warn('explorer layout tests SKIPPED: no Chromium found at /usr/bin/chromium (apt-get install chromium, or set LEXCASE_CHROMIUM)');

/** The layout, figure and accessibility check of `names` at every width (the file's one describe block). */
export function checkLayout(names: readonly ViewName[], opts: { titles?: boolean } = {}): void {
  describe.skipIf(!CHROMIUM)(`explorer layout, figures and accessibility at 360, 768, 1280 and 1920 px: ${names.join(', ')}`, () => {
    setUp();

    it('each view: no horizontal overflow, 0 axe violations (best practice included), one h1, the same title at every width; legends, colours, plot text, table columns and word breaks as figure-checks.ts measures; screenshots kept', async () => {
      const page = b.page;
      const all = (await views()).filter((v) => names.includes(v.name as ViewName));
      expect(all.map((v) => v.name)).toEqual([...names]);
      const titles = new Map<string, string>();
      const problems: string[] = [];
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await visit(page, all, async (v) => {
          const before = problems.length;
          await v.open?.(page);
          // plots render asynchronously: wait for every one. A function, not a string: Playwright polls a
          // string predicate with eval in the page, which the explorer's CSP (script-src 'self') refuses
          // whenever the first check finds a plot still rendering (CI run of 3f06aca, load ~7)
          await page.waitForFunction(
            () =>
              (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll(
                'figure.plot:not([data-rendered])',
              ).length === 0,
            null,
            { timeout: 60_000 },
          );
          const m: { scrollWidth: number; inner: number; h1: number; title: string } = await page.evaluate(
            `({ scrollWidth: document.documentElement.scrollWidth, inner: window.innerWidth, h1: document.querySelectorAll('h1').length, title: document.title })`,
          );
          if (m.scrollWidth > m.inner) problems.push(`${v.name} @${width}: scrollWidth ${m.scrollWidth} > ${m.inner}`);
          if (m.h1 !== 1) problems.push(`${v.name} @${width}: ${m.h1} h1 elements`);
          if (width === WIDTHS[0]) titles.set(v.name, m.title);
          else if (titles.get(v.name) !== m.title) problems.push(`${v.name} @${width}: title "${m.title}" differs from "${titles.get(v.name)}"`);
          const facts = await figureFacts(page);
          problems.push(...figureProblems(facts).map((x) => `${v.name} @${width}: ${x}`));
          problems.push(...(await readingProblems(page, `${v.name} @${width}`)));
          if (v.open === openCalls && (await page.getByTestId('call-timeline').count()) !== 1) problems.push(`${v.name} @${width}: no call timeline`);
          if (v.name === 'runs' && width >= 1280 && facts.scrolling.includes('runs-table'))
            problems.push(`runs @${width}: the runs table does not fit its box`);
          if (v.name.startsWith('compare-') && v.name !== 'compare-2' && facts.legends.length < 2)
            problems.push(`${v.name} @${width}: ${facts.legends.length} plot legends (expected the curves' and the figures')`);
          if (v.name === 'reproduction' && (await page.locator('[data-testid=plot-grid] svg').count()) !== 1)
            problems.push(`reproduction @${width}: no grid chart`);
          const axe = await runAxe(page);
          for (const x of axe.violations)
            problems.push(
              `${v.name} @${width}: axe ${x.impact} ${x.id} (${x.nodes.length}×): ${x.help} — ${x.nodes
                .slice(0, 3)
                .map((n) => n.target.join(' '))
                .join(' | ')}`,
            );
          // the two best-practice rules the issue names ran on every page
          for (const rule of ['landmark-unique', 'heading-order'])
            if (![...axe.passes, ...axe.inapplicable, ...axe.violations].some((r) => r.id === rule))
              problems.push(`${v.name} @${width}: axe did not run ${rule}`);
          // a view found wanting is kept as a full-page screenshot (all views: LEXCASE_SCREENSHOTS=1)
          if (problems.length > before || SCREENSHOTS)
            await page.screenshot({ path: join(ARTIFACTS, `explorer-${v.name}-${width}.png`), fullPage: true, timeout: 60_000 });
        });
      }
      expect(problems).toEqual([]);
      expect([...titles.values()].every((t) => t.endsWith(' · lexcase explorer') && t !== 'lexcase explorer')).toBe(true);
      expect(b.pageErrors).toEqual([]);
      expect(b.external).toEqual([]);
    }, 900_000);

    if (opts.titles)
      it('every view has a title of its own (the retrieval compare and the side-by-side traces are "Compare 3 runs" too, like compare-3)', async () => {
        const page = b.page;
        const all = await views();
        expect(all.map((v) => v.name)).toEqual([...VIEW_NAMES]);
        const titles = new Map<string, string>();
        await visit(page, all, async (v) => {
          titles.set(v.name, await page.title());
        });
        expect(new Set([...titles].filter(([n]) => n !== 'compare-retrieval' && n !== 'compare-pair').map(([, t]) => t)).size).toBe(all.length - 2);
        expect(titles.get('compare-retrieval')).toBe(titles.get('compare-3'));
        expect(titles.get('compare-pair')).toBe(titles.get('compare-3'));
        expect([...titles.values()].every((t) => t.endsWith(' · lexcase explorer') && t !== 'lexcase explorer')).toBe(true);
        expect(b.pageErrors).toEqual([]);
        expect(b.external).toEqual([]);
      }, 300_000);
  });
}
