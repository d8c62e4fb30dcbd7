/**
 * The explorer in a real headless Chromium (Debian's package, driven by playwright-core with an
 * explicit executable path; no browser download): each view loads, a search runs and highlights,
 * a CASE trace opens (focus moves to it), contesting an argument changes the strengths shown, the
 * runs list shows each system's figures and sorts and filters, a reproduction's cells open their
 * runs, N runs compare, a table exports, ids open the passage page, an item's LLM calls show.
 * Screenshots go to tests/artifacts/ (gitignored). Skips, saying why, only when no Chromium is
 * installed. (Widths and accessibility: explorer-layout-*.test.ts.)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../indexer/analyzer.js';
import { retrievalQuery } from '../corpora/barexam.js';
import { loadQuestions } from '../corpora/registry.js';
import { diffText, pairedDifference } from '../eval/stats/index.js';
import { wilsonCi } from '../eval/wilson.js';
import { readResults } from '../eval/run-dir.js';
import { compareRuns } from '../eval/report/compare.js';
import { readRun } from '../eval/report/read-run.js';
import { buildReport } from '../eval/report/write-report.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import { openRetriever } from '../retrieval/open.js';
import { PACKAGE_ROOT } from '../core/version.js';
import { startExplorer, type ExplorerServer } from './server/server.js';
import { makeExplorerFixtures, type ExplorerFixtures } from './test-support/explorer-fixtures.js';
import { CHROMIUM, openTestBrowser, type TestBrowser } from './test-support/browser.js';

const ARTIFACTS = join(PACKAGE_ROOT, 'tests', 'artifacts');
if (!CHROMIUM) console.warn('explorer browser tests SKIPPED: no Chromium found at /usr/bin/chromium (apt-get install chromium, or set LEXCASE_CHROMIUM)');

let f: ExplorerFixtures;
let s: ExplorerServer;
let b: TestBrowser;
let page: Page;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** The data-testid of the focused element (null: <body>). */
const focused = (): Promise<string | null> =>
  page.evaluate(`(() => { const a = document.activeElement; return a && a !== document.body ? a.getAttribute('data-testid') ?? a.tagName : null; })()`);

async function shot(name: string, scrollTo?: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  if (scrollTo) await page.getByTestId(scrollTo).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, `explorer-${name}.png`), timeout: 60_000 });
}

describe.skipIf(!CHROMIUM)('explorer in headless Chromium', () => {
  beforeAll(async () => {
    f = await makeExplorerFixtures(4, { systems: true, reproduction: true });
    s = await startExplorer({ index: f.index, runs: f.runs, port: 0 });
    b = await openTestBrowser(s.url);
    page = b.page;
  }, 240_000);

  afterAll(async () => {
    await b?.close();
    await s?.close();
    await f?.cleanup();
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
    for (const title of await page
      .getByTestId('hit')
      .first()
      .locator('mark')
      .evaluateAll((ms) => ms.map((m) => m.getAttribute('title'))))
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
    await page.getByTestId('runs-table').waitFor();
    // CASE offline, CASE LLM, MAD, EMAR, 3-ply, ACAL, the baseline, the reproduction and its two finished runs; the graph-only ACAL run lives in the argument view
    expect(await page.getByTestId('run-link').count()).toBe(10);
    await page.locator(`[data-testid=run-link][data-run="${f.caseRunId}"]`).click();
    await page.locator(`[data-testid=questions][data-run="${f.caseRunId}"]`).waitFor();
    const all = await page.getByTestId('question-row').count();
    expect(all).toBe(f.questions.length);
    await page.getByTestId('filter-wrong').click();
    await page.locator('[data-testid=questions][data-filter=wrong]').waitFor();
    const wrong = await page.getByTestId('question-row').count();
    // the heading counts the rows it shows, of the run's items (it said "Items (4)" over the wrong ones alone)
    expect(await page.getByTestId('items-heading').textContent()).toBe(`Items (${wrong} of ${all}: wrong)`);
    await page.getByTestId('filter-correct').click();
    await page.locator('[data-testid=questions][data-filter=correct]').waitFor();
    const correct = await page.getByTestId('question-row').count();
    expect(await page.getByTestId('items-heading').textContent()).toBe(`Items (${correct} of ${all}: correct)`);
    expect(wrong + correct).toBe(all);
    await page.getByTestId('filter-all').click();
    await page.locator('[data-testid=questions][data-filter=all]').waitFor();
    expect(await page.getByTestId('items-heading').textContent()).toBe(`Items (${all})`);
    const q = f.questions[f.questions.length - 1];
    await page.locator(`[data-testid=question-row][data-id="${q.id}"] td.qtext`).click();
    await page.getByTestId('advocate').first().waitFor();
    expect(await page.getByTestId('advocate').count()).toBe(q.choices.length);
    // focus moved to the opened trace, whose header is in view (the items table was not rebuilt)
    await expect.poll(focused).toBe('trace-heading');
    const top = await page.getByTestId('trace-heading').evaluate((e) => e.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(800);
    expect(await page.locator(`[data-testid=question-row][data-id="${q.id}"]`).getAttribute('aria-current')).toBe('true');
    // one row per tool call of the first advocate, as its trace records them (the offline query plan)
    const trace = JSON.parse(readFileSync(join(f.runs, f.caseRunId, 'traces', `${q.id}.json`), 'utf8')) as {
      advocates: { toolCalls: unknown[]; evidence: unknown[] }[];
    };
    expect(trace.advocates[0].toolCalls.length).toBeGreaterThan(1);
    expect(await page.getByTestId('advocate').first().getByTestId('tool-calls').locator('tbody tr').count()).toBe(trace.advocates[0].toolCalls.length);
    expect(await page.getByTestId('evidence-item').count()).toBe(trace.advocates.reduce((n, a) => n + a.evidence.length, 0));
    expect(await page.locator('ol.choices li.gold-answer').textContent()).toContain(q.choices['ABCD'.indexOf(q.answer)]);
    expect(await page.getByTestId('no-jury').textContent()).toMatch(/offline/);
    expect(await page.getByTestId('verdict').textContent()).toMatch(/Verdict: [A-D]/);
    await shot('run-trace');
  });

  it("run view: an item opened while the last one's trace still loads keeps the panel — the slower reply is dropped, not drawn over the item the row and URL name", async () => {
    const [a, b] = f.questions;
    await page.goto(`${s.url}/#/runs?run=${f.caseRunId}`);
    await page.locator(`[data-testid=question-row][data-id="${b.id}"]`).waitFor();
    // a's trace is held at the server's door until b's has been drawn
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const pattern = new RegExp(`/api/run/trace\\?.*item=${a.id}(&|$)`);
    await page.route(pattern, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.locator(`[data-testid=question-row][data-id="${a.id}"] td.qtext`).click();
      await page.locator(`[data-testid=question-row][data-id="${b.id}"] td.qtext`).click();
      await expect.poll(() => page.getByTestId('trace-heading').textContent()).toContain(`Item ${b.id}`);
      const late = page.waitForResponse(pattern);
      release();
      await (await late).finished();
      // the reply has been read and handled (two turns of the page's task queue)
      await page.evaluate(() => new Promise((r) => setTimeout(() => setTimeout(r, 0), 0)));
      expect(await page.getByTestId('trace-heading').textContent()).toContain(`Item ${b.id}`);
      expect(await page.getByTestId('trace-heading').textContent()).not.toContain(a.id);
      expect(await page.locator('tr.active').getAttribute('data-id')).toBe(b.id);
      expect(page.url()).toContain(`item=${b.id}`);
    } finally {
      await page.unroute(pattern);
    }
  });

  it("run view: an LLM run's trace shows the juror personas, their reasoning and votes, and the jury verdict", async () => {
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

  it("run view: a CASE trace says in words which picks each advocate dropped and why, and which notes were cut; a MAD pool passage shown as its search snippet says so; the counts are report.md's", async () => {
    // report.md's counts for the LLM CASE run (the fixture's first question: each of its 4 advocates picks one passage beyond k,
    // one handle it was never shown ("P99", an unresolved citation) and writes a 450-character first note) and the MAD run
    const reportOf = async (run: string) => (await buildReport(await readRun(join(f.runs, run)), { iterations: 50 })).markdown;
    const report = await reportOf(f.llmRunId);
    const figure = (re: RegExp, text = report) => Number(re.exec(text)?.[1] ?? Number.NaN);
    const want = {
      beyondK: figure(/\| advocate picks beyond k \(dropped from the evidence\) +\| (\d+) in /),
      unresolved: figure(/\| evidence cited as no passage handle shown \(dropped from the evidence\) +\| (\d+) in /),
      notesCut: figure(/\*\*(\d+) of \d+ advocates' notes\*\*/),
      fromSnippet: figure(/ (\d+) of them had no text in the index's doc store/, await reportOf(f.systemRuns!.madRunId)),
    };
    expect({ ...want, fromSnippet: want.fromSnippet > 0 }).toEqual({ beyondK: 4, unresolved: 4, notesCut: 4, fromSnippet: true });
    const seen = { beyondK: 0, unresolved: 0, notesCut: 0, fromSnippet: 0 };
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const at = { beyondK: 0, unresolved: 0, notesCut: 0, fromSnippet: 0 };
      for (const q of f.questions.slice(0, 2)) {
        await page.goto('about:blank');
        await page.goto(`${s.url}/#/runs?run=${f.llmRunId}&item=${q.id}`);
        await page.getByTestId('jurors').waitFor();
        at.beyondK += await page.locator('[data-testid=dropped-pick][data-reason="beyond k"]').count();
        at.notesCut += await page.getByTestId('note-cut').count();
        const note = page.getByTestId('unresolved-citations');
        if (await note.count()) at.unresolved += figure(/^(\d+) evidence citation/, (await note.textContent()) ?? '');
        if (q === f.questions[0]) {
          // the reasons are words, not a colour: each advocate's list says both
          const list = page.getByTestId('dropped-picks').first();
          expect(await list.textContent()).toContain('Dropped picks (2) — 1 naming no handle shown, 1 beyond k');
          expect(await list.textContent()).toContain('beyond k: picked after the advocate already had its k passages');
          expect(await list.textContent()).toContain('P99 — names no handle: written as no passage handle the advocate was shown');
          expect(await page.getByTestId('note-cut').first().textContent()).toBe('note cut: the first 300 of its 450 characters');
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
          await shot(`run-case-dropped-${width}`, 'dropped-picks');
        }
        await page.goto('about:blank');
        await page.goto(`${s.url}/#/runs?run=${f.systemRuns!.madRunId}&item=${q.id}`);
        await page.getByTestId('mad-round').first().waitFor();
        const poolSnippets = await page.locator('details.pool [data-testid=from-snippet]').count();
        at.fromSnippet += poolSnippets;
        if (poolSnippets)
          expect(await page.getByTestId('pool-summary').textContent()).toMatch(/cut for the prompts, \d+ of them shown as their search snippet\)$/);
      }
      Object.assign(seen, at);
      expect(at, `at ${width} px`).toEqual(want);
    }
    expect(seen).toEqual(want);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(b.pageErrors).toEqual([]);
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
    // the reject button is now disabled: focus goes to the message saying what changed, not to <body>
    await expect.poll(focused).toBe('contest-msg');
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
    await expect.poll(focused).toBe('set-base-s2'); // the acting control keeps focus across the redraw
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
    expect(b.pageErrors).toEqual([]);
  });
  it('retrieval evaluation: Bar Exam QA val on the index — Recall@k curves, metrics with CIs, paired Δ, per-query ranks sortable and opening the search view', async () => {
    const questions = await loadQuestions('barexam', 'val');
    const expected: Record<string, Awaited<ReturnType<typeof evalRetrieval>>> = {};
    for (const m of ['bm25', 'qld'])
      expected[m] = await evalRetrieval({
        retriever: await openRetriever(f.index, m),
        questions,
        ks: [1, 5, 10, 20, 50, 100],
        iterations: 1000,
        seed: 13,
        queryOf: (q) => retrievalQuery(q),
      });
    await page.goto(`${s.url}/#/eval?set=barexam:val&methods=bm25,qld`);
    await page.getByTestId('eval-metrics').waitFor({ timeout: 60_000 });
    for (const m of ['bm25', 'qld'])
      for (const k of [1, 10, 100])
        expect(await page.locator(`[data-testid=eval-metrics] tr[data-method=${m}] td[data-metric="recall@${k}"]`).textContent()).toContain(
          expected[m].metrics[`recall@${k}`].estimate.toFixed(3),
        );
    // the curve plot: vega's SVG in the page, a line per method
    await page.locator('[data-testid=recall-plot][data-rendered=true] svg').waitFor();
    const legend = await page.getByTestId('recall-plot').locator('svg').textContent();
    expect(legend).toContain('bm25');
    expect(legend).toContain('qld');
    expect(await page.getByTestId('eval-query').count()).toBe(questions.length);
    // paired Δ (default A = bm25, B = qld on recall@10: B − A) equals eval/stats' paired difference of the per-query values
    const d = pairedDifference(
      expected.bm25.perQuery.map((q) => q.recall[10]),
      expected.qld.perQuery.map((q) => q.recall[10]),
    );
    expect(await page.getByTestId('paired-estimate').textContent()).toBe(diffText(d.estimate, 'decimal'));
    await shot('retrieval-eval');
    // sort by bm25's first relevant rank (in place, aria-sort on the column header): the best-ranked topic comes first
    await page.getByTestId('sort-bm25').click();
    await page.locator('th[data-col=bm25][aria-sort=ascending]').waitFor();
    const best = [...expected.bm25.perQuery].filter((q) => q.firstRank !== null).sort((a, b) => a.firstRank! - b.firstRank!)[0];
    expect(await page.getByTestId('eval-query').first().locator('td[data-method=bm25]').textContent()).toBe(String(best.firstRank));
    expect(await focused()).toBe('sort-bm25');
    // keyboard: the sort button is reachable and Enter flips the order; focus stays on it
    await page.getByTestId('sort-bm25').focus();
    await page.keyboard.press('Enter');
    await page.locator('th[data-col=bm25][aria-sort=descending]').waitFor();
    expect(await focused()).toBe('sort-bm25');
    expect(await page.locator('th[data-col=id]').getAttribute('aria-sort')).toBe('none');
    // a query opens the search view with that query, the topic's relevant passages marked among the hits
    await page.getByTestId('sort-bm25').click();
    await page.locator('th[data-col=bm25][aria-sort=ascending]').waitFor();
    await page.getByTestId('eval-query').first().getByTestId('eval-query-link').click();
    await page.getByTestId('hit').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('query').inputValue()).toBe(retrievalQuery(questions.find((q) => q.id === best.id)!));
    const goldHit = page.getByTestId('hit').nth(best.firstRank! - 1);
    expect(best.goldIds).toContain(await goldHit.getAttribute('data-id'));
    expect(await goldHit.getAttribute('data-relevant')).toBe('true');
    const marked = await page.locator('[data-testid=hit][data-relevant=true]').evaluateAll((xs) => xs.map((x) => x.getAttribute('data-id')));
    expect(marked.every((id) => best.goldIds.includes(id!))).toBe(true);
    expect(await page.getByTestId('relevant-summary').textContent()).toContain(`${marked.length} of the topic's ${best.goldIds.length} relevant`);
  }, 120_000);

  it("runs list: each system's headline figures with Wilson intervals, model, method, k, n, tokens; sortable by n; filterable by text and system", async () => {
    await page.goto(`${s.url}/#/runs`);
    await page.getByTestId('runs-table').waitFor();
    const { madRunId, emarRunId, threeplyRunId } = f.systemRuns!;
    for (const id of [f.caseRunId, f.llmRunId, madRunId, emarRunId]) {
      const r = await readRun(join(f.runs, id), { traces: false });
      const correct = r.results.filter((x) => x.correct).length;
      const row = page.locator(`[data-testid=run-row][data-run="${id}"]`);
      const w = wilsonCi(correct, r.results.length);
      expect(await row.locator('[data-figure=accuracy] strong').textContent()).toBe(
        `${pct(w.estimate)} [${(100 * w.lo).toFixed(1)}, ${(100 * w.hi).toFixed(1)}]`,
      );
      expect(await row.getByTestId('run-n').textContent()).toContain(`small n (${r.results.length})`);
      expect(await row.getByTestId('run-model').textContent()).toBe(String(r.config.config.model ?? '–'));
      const tokens = r.results.reduce((t, x) => t + (x.tokens?.total ?? 0), 0);
      expect(await row.getByTestId('run-tokens').textContent()).toBe(tokens.toLocaleString('en-US'));
    }
    // each system its own figures: EMAR macro-F1 and convergence, 3-ply's three, retrieval Recall@k and MRR — no accuracy of passage ids
    expect(await page.locator(`[data-run="${emarRunId}"] [data-figure]`).evaluateAll((xs) => xs.map((x) => x.getAttribute('data-figure')))).toEqual([
      'macro-f1',
      'accuracy',
      'convergence',
    ]);
    expect(await page.locator(`[data-run="${threeplyRunId}"] [data-figure]`).evaluateAll((xs) => xs.map((x) => x.getAttribute('data-figure')))).toEqual([
      'hallucination-accuracy',
      'factor-utilization-recall',
      'abstention',
    ]);
    const bm25 = `${f.reproRunId}/runs/bm25`;
    expect(
      await page.locator(`[data-testid=run-row][data-run="${bm25}"] [data-figure]`).evaluateAll((xs) => xs.map((x) => x.getAttribute('data-figure'))),
    ).toEqual(['recall@10', 'recall@100', 'recall@1000', 'mrr']);
    expect(await page.locator(`[data-testid=run-row][data-run="${bm25}"]`).getByTestId('run-method').textContent()).toBe('bm25');
    expect(await page.locator(`[data-testid=run-row][data-run="${bm25}"]`).getByTestId('run-k').textContent()).toBe('10, 100, 1000');
    await shot('runs');
    // sort by n, descending: the 4-item reproduction runs and the 4-question offline run first, a 2-item run last
    await page.getByTestId('sort-n').click();
    await page.getByTestId('sort-n').click();
    await page.locator('th[data-col=n][aria-sort=descending]').waitFor();
    const ns = await page
      .getByTestId('run-row')
      .evaluateAll((rows) => rows.map((r) => Number(r.querySelector('[data-testid=run-n]')!.getAttribute('data-export'))));
    expect(ns).toEqual([...ns].sort((a, b) => b - a));
    expect(page.url()).toContain('sort=n');
    // filter: by text, then by system
    await page.getByTestId('runs-filter').fill('scripted');
    // case-llm, mad, emar, threeply, acal and baseline "-scripted"
    await expect.poll(() => page.locator('[data-testid=run-row]:visible').count()).toBe(6);
    await page.getByTestId('runs-filter').fill('');
    await page.getByTestId('runs-system').selectOption('retrieval');
    await expect.poll(() => page.locator('[data-testid=run-row]:visible').count()).toBe(2);
    expect(await page.getByTestId('runs-count').textContent()).toBe('2 of 10 runs shown');
    // the deep link keeps the filter
    await page.reload();
    await page.getByTestId('runs-table').waitFor();
    await expect.poll(() => page.locator('[data-testid=run-row]:visible').count()).toBe(2);
  });

  it('reproduction: paper and lexcase in separate columns with flags, the real n, the notes; a cell opens its run, whose figures are Recall@k and MRR and whose hits open the passage page', async () => {
    const id = f.reproRunId!;
    const t = JSON.parse(readFileSync(join(f.runs, id, 'table.json'), 'utf8'));
    await page.goto(`${s.url}/#/runs?run=${id}`);
    await page.getByTestId('repro-view').waitFor();
    expect(await page.getByTestId('repro-row').count()).toBe(t.rows.length);
    expect(await page.getByTestId('repro-n-line').textContent()).toMatch(/The paper: n = 124\. This reproduction: n = 4 per cell \(smoke run: --limit 4\)/);
    expect(await page.locator('h2').first().textContent()).not.toContain('n = 124');
    expect(await page.getByTestId('repro-paper').first().textContent()).toBe(t.rows[0].cells[0].paper.toFixed(4));
    expect(await page.getByTestId('repro-flag').first().textContent()).toBe('† not comparable');
    expect(await page.getByTestId('repro-n').first().textContent()).toBe('4');
    expect(await page.getByTestId('repro-notes').locator('li').count()).toBe(t.notes.length);
    // the dense run failed on this index (no dense vectors): said so in the cell and the grid's runs
    expect(await page.locator('[data-testid=repro-row]').nth(2).getByTestId('repro-cell').first().textContent()).toBe('– (failed)');
    expect(await page.locator('[data-testid=repro-run][data-run=dense]').locator('..').textContent()).toMatch(/failed — method "dense" is not available/);
    // provenance from the grid's own files: version, commit and index checksum of bm25's config.json,
    // no model (retrieval runs call no LLM), the checksums.json entries, commands that paste as they are
    const cfg = JSON.parse(readFileSync(join(f.runs, id, 'runs', 'bm25', 'config.json'), 'utf8'));
    const sums = JSON.parse(readFileSync(join(f.runs, id, 'checksums.json'), 'utf8'));
    expect(await page.getByTestId('prov-version').textContent()).toBe(cfg.provenance.lexcaseVersion);
    expect(await page.getByTestId('prov-commit').textContent()).toBe(cfg.provenance.gitSha);
    expect(await page.getByTestId('prov-index').textContent()).toContain(cfg.config.index.checksum);
    expect(await page.getByTestId('prov-model').textContent()).toBe('none (no LLM) — bm25, qld');
    expect(await page.getByTestId('prov-checksums').locator('li').allTextContents()).toEqual(Object.entries(sums).map(([k, v]) => `${k} ${v}`));
    expect((await page.getByTestId('prov-commands').textContent())!.split('\n')).toEqual([
      // paths as the server sends them: relative to the fixture root (no absolute path leaves it)
      // the whole grid's command keeps the --index it searched and its run dir, as each run's does
      `lexcase reproduce case-table3 --index ${relative(f.root, f.index)} --run-dir ${relative(f.root, join(f.runs, id))} --limit 4`,
      `lexcase reproduce case-table3 --only bm25 --index ${relative(f.root, f.index)} --run-dir ${relative(f.root, join(f.runs, id))} --limit 4`,
      `lexcase reproduce case-table3 --only qld --index ${relative(f.root, f.index)} --run-dir ${relative(f.root, join(f.runs, id))} --limit 4`,
    ]);
    // the grid's metric against its configuration: one line per row of table.json, its columns on x
    await page.locator('[data-testid=plot-grid][data-rendered=true] svg').waitFor();
    const legend = await page.getByTestId('plot-grid').locator('g.role-legend-label text').allTextContents();
    expect(legend).toEqual(
      t.rows
        .filter((r: { cells: { value: number | null; paper: number | null }[] }) => r.cells.some((c) => c.value !== null || c.paper !== null))
        .map((r: { label: string }) => r.label),
    );
    const axis = await page.getByTestId('plot-grid').locator('g.role-axis-label text').allTextContents();
    for (const c of t.columns) expect(axis).toContain(c);
    // the chart is fitted to the run header's width (1280 px here), not to a box as wide as its caption (~450 px, which squeezed it)
    const [box, row] = (await page.evaluate(
      `(() => { const f = document.querySelector('[data-testid=plot-grid]'); return [f.parentElement.clientWidth, f.closest('.header-row').clientWidth]; })()`,
    )) as number[];
    expect(row).toBeGreaterThan(1000);
    expect(box).toBe(row);
    await shot('reproduction');
    await page.getByTestId('repro-cell').first().click();
    await page.getByTestId('figure-recall@10').waitFor();
    const rs = (await readResults(join(f.runs, id, 'runs', 'bm25'))).records;
    const hits = rs.filter((r) => r.metrics!['recall@10'] === 1).length;
    const w = wilsonCi(hits, rs.length);
    // a retrieval measure: a decimal, its Wilson interval named beside it
    expect(await page.getByTestId('figure-recall@10').textContent()).toBe(`${w.estimate.toFixed(3)} [${w.lo.toFixed(3)}, ${w.hi.toFixed(3)}] 95% Wilson`);
    expect(await page.getByTestId('figure-accuracy').count()).toBe(0);
    await expect.poll(() => page.getByTestId('first-rank').count(), { timeout: 15000 }).toBe(rs.length); // the items table arrives after the figures
    await page.getByTestId('item-link').first().click();
    await page.getByTestId('top-hits').waitFor();
    expect(await page.getByTestId('top-hits').locator('tbody tr').count()).toBe(10);
    const pid = await page.getByTestId('top-hits').locator('a.pid').first().getAttribute('data-pid');
    await page.getByTestId('top-hits').locator('a.pid').first().click();
    await page.getByTestId('passage-text').waitFor();
    expect(await page.locator('h1').textContent()).toBe(`Passage ${pid}`);
    expect(await page.title()).toBe(`Passage ${pid} · lexcase explorer`);
    await page.getByTestId('passage-use').first().waitFor();
    expect(
      await page
        .getByTestId('passage-use')
        .filter({ hasText: `${id}/runs/bm25` })
        .count(),
    ).toBeGreaterThan(0);
  });

  it('MAD run: summary with the per-round accuracy plot and table.json; the trace shows rounds, citations with support flags, cross-examination and the judge checklist', async () => {
    const id = f.systemRuns!.madRunId;
    writeFileSync(
      join(f.runs, id, 'table.json'),
      JSON.stringify({
        title: 'reproduced table',
        columns: ['system', 'accuracy'],
        rows: [
          ['mad', 0.5],
          ['single-rag', 0.25],
        ],
      }),
    );
    const q = f.questions[0];
    await page.goto(`${s.url}/#/runs?run=${id}&item=${q.id}`);
    await page.getByTestId('run-summary').waitFor();
    await page.getByTestId('mad-round').first().waitFor();
    expect(await page.getByTestId('trace-kind').textContent()).toBe('mad');
    const t = JSON.parse(readFileSync(join(f.runs, id, 'traces', `${q.id}.json`), 'utf8'));
    expect(await page.getByTestId('mad-round').count()).toBe(t.rounds.length);
    // the pool's queries: a long one (the issue query: facts + question) shows 120 characters and "…", the whole in its title
    const poolQueries = page.getByTestId('pool-query');
    expect(await poolQueries.count()).toBe(t.pool.length);
    const longAt = t.pool.findIndex((p: { query: string }) => p.query.length > 120);
    expect(longAt).toBeGreaterThanOrEqual(0);
    const long = poolQueries.nth(longAt);
    expect(await long.textContent()).toBe(` ← ${t.pool[longAt].query.slice(0, 120)}…`);
    expect(await long.getAttribute('title')).toBe(t.pool[longAt].query);
    expect(await page.getByTestId('brief').count()).toBe(t.rounds.reduce((n: number, r: { briefs: unknown[] }) => n + r.briefs.length, 0));
    const cites = t.rounds.flatMap((r: { briefs: { citations: { supportive: boolean }[] }[] }) => r.briefs.flatMap((b) => b.citations));
    expect(await page.locator('[data-testid=citation][data-supportive=true]').count()).toBe(cites.filter((c: { supportive: boolean }) => c.supportive).length);
    expect(await page.locator('[data-testid=citation][data-supportive=false]').count()).toBe(
      cites.filter((c: { supportive: boolean }) => !c.supportive).length,
    );
    expect(await page.locator('[data-testid=citation][data-supportive=false]').first().textContent()).toContain('made_up_1');
    expect(await page.getByTestId('cross-examination').locator('li').count()).toBe(4);
    expect(await page.getByTestId('checklist').locator('.flag').count()).toBe(5);
    expect(await page.getByTestId('checklist').textContent()).toContain('✗ opponent addressed');
    expect(await page.getByTestId('round-verdicts').textContent()).toBe(`Verdict after each round: round 1: A · round 2: ${q.answer} ✓`);
    expect(await page.getByTestId('verdict').textContent()).toContain(`Judge's verdict: ${q.answer}`);
    await page.locator('[data-testid=plot-mad-rounds][data-rendered=true] svg').waitFor();
    expect(await page.getByTestId('plot-mad-rounds').locator('svg').textContent()).toContain('n=2');
    expect(await page.getByTestId('run-table').locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('run-table').textContent()).toContain('single-rag');
    await shot('trace-mad', 'mad-round');
  });

  it('EMAR run: argument → critique → response per depth, similarity and distance to convergence, the judge', async () => {
    const id = f.systemRuns!.emarRunId;
    const q = f.questions[1];
    await page.goto(`${s.url}/#/runs?run=${id}&item=${q.id}`);
    await page.getByTestId('convergence').waitFor();
    expect(await page.getByTestId('trace-kind').textContent()).toBe('emar');
    const t = JSON.parse(readFileSync(join(f.runs, id, 'traces', `${q.id}.json`), 'utf8'));
    const rows = page.getByTestId('convergence').locator('tbody tr');
    expect(await rows.count()).toBe(t.rounds.length);
    expect(await rows.nth(0).locator('td').nth(3).textContent()).toBe(t.rounds[0].similarity.toFixed(3));
    expect(await rows.nth(0).locator('td').nth(4).textContent()).toBe((0.85 - t.rounds[0].similarity).toFixed(3));
    expect(await rows.last().locator('td').nth(4).textContent()).toBe('converged');
    expect(await page.getByTestId('emar-round').count()).toBe(t.rounds.length);
    expect(await page.getByTestId('verdict').textContent()).toContain(`Judge: ${q.answer}`);
    await shot('trace-emar', 'trace');
  });

  it("3-ply run: the plies, Factor Analyst verdicts, and used and hallucinated factors against the triple's factor sets", async () => {
    const id = f.systemRuns!.threeplyRunId;
    const r = await readRun(join(f.runs, id));
    const item = r.results.find((x) => x.prediction === 'argue')!;
    await page.goto(`${s.url}/#/runs?run=${id}&item=${item.id}`);
    await page.getByTestId('factor-table').waitFor();
    expect(await page.getByTestId('trace-kind').textContent()).toBe('threeply');
    expect(await page.getByTestId('ply').count()).toBe(3);
    expect(await page.getByTestId('factor-used').count()).toBe(item.metrics!.nUtil);
    expect(await page.getByTestId('factor-hallucinated').count()).toBe(item.metrics!.nH);
    expect(await page.locator('[data-case=c1] [data-testid=factor-hallucinated]').textContent()).toContain('F27');
    expect(await page.getByTestId('decision').filter({ hasText: 'VALID_ARGUMENT' }).count()).toBe(3);
    // the run's headline figures are 3-ply's own: pooled hallucination accuracy 1 − ΣnH/ΣnGt over its triples
    const sum = (k: string) => r.results.reduce((a, x) => a + Number(x.metrics?.[k] ?? 0), 0);
    // over the answered triples: a failed triple is neither an abstention nor a hallucination-free one
    const answered = r.results.filter((x) => !x.error && typeof x.metrics?.nGt === 'number').length;
    // an abstention is in the sums as the paper's formula has it, and the note says how many abstained
    const abstentions = r.results.filter((x) => !x.error && x.metrics?.abstained === true).length;
    // the note names the scenarios the figure pools, each with its answered triples (paper 000 tabulates each apart)
    const modes = new Map<string, number>();
    for (const x of r.results.filter((x) => !x.error && typeof x.metrics?.nGt === 'number').sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const mode = x.id.replace(/-\d+$/, '');
      modes.set(mode, (modes.get(mode) ?? 0) + 1);
    }
    const scenarios = `${modes.size} scenario${modes.size === 1 ? '' : 's'} (${[...modes].map(([m, n]) => (modes.size === 1 ? m : `${m} ${n}`)).join(', ')}; micro average)`;
    expect(await page.getByTestId('figure-hallucination-accuracy').textContent()).toBe(
      `${pct(1 - sum('nH') / sum('nGt'))} (n < 10) · pooled over the ${answered} answered triple${answered === 1 ? '' : 's'} of ${scenarios}` +
        (abstentions ? `; ${abstentions} abstained, counted with N_h = N_util = 0 and its N_gt (the paper's formula)` : ''),
    );
    const abstainedMode = r.results.find((x) => x.gold === 'abstain')!.id.replace(/-\d+$/, '');
    expect(await page.getByTestId('figure-abstention').textContent()).toBe(
      `100.0% [${(100 * wilsonCi(1, 1).lo).toFixed(1)}, 100.0] 95% Wilson · over the 1 answered triple designed for abstention (${abstainedMode})`,
    );
    await shot('trace-threeply', 'trace');
    const abstained = r.results.find((x) => x.prediction === 'abstain')!;
    await page.goto(`${s.url}/#/runs?run=${id}&item=${abstained.id}`);
    await page.getByTestId('terminate').waitFor();
    expect(await page.getByTestId('terminate').textContent()).toContain('TERMINATE');
    expect(await page.getByTestId('decision').filter({ hasText: 'REQUIRES_ABSTENTION' }).count()).toBeGreaterThan(0);
  });

  it("ACAL run: the trace reads in words — the decision, evidence, teams and relation judgements under human labels — with the case text and claim from the run's own argument graph, and a link that opens that graph", async () => {
    const id = f.systemRuns!.acalRunId;
    const r = await readRun(join(f.runs, id));
    const item = r.results[0];
    const graph = JSON.parse(readFileSync(join(f.runs, id, 'acal', `${item.id}.graph.json`), 'utf8'));
    const t = JSON.parse(readFileSync(join(f.runs, id, 'traces', `${item.id}.json`), 'utf8'));
    await page.goto('about:blank');
    await page.goto(`${s.url}/#/runs?run=${id}&item=${item.id}`);
    await page.getByTestId('acal-decision').waitFor();
    expect(await page.getByTestId('trace-kind').textContent()).toBe('acal');
    const trace = page.getByTestId('trace');
    // the LegalBench dataset is not loaded by the explorer: the question is the graph's case text and claim
    expect(await trace.textContent()).not.toContain('not loadable');
    expect(await page.getByTestId('question').textContent()).toContain(graph.caseText);
    expect(await page.getByTestId('question').textContent()).toContain(`Claim: ${graph.claim.text}`);
    expect(await page.getByTestId('acal-decision').textContent()).toContain(`σ(claim) = ${Number(t.claimStrength.toFixed(4))}`);
    expect(
      await page
        .getByTestId('acal-evidence')
        .locator('a[data-pid]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('data-pid'))),
    ).toEqual(t.evidenceIds);
    expect(await page.getByTestId('acal-teams').locator('tbody tr').count()).toBe(t.teams.support.length + t.teams.attack.length);
    expect(await page.getByTestId('acal-relations').locator('tbody tr').count()).toBe(t.pairJudgements.length);
    // no raw field table, no camelCase key anywhere in the trace's labels
    expect(await page.getByTestId('raw-trace').count()).toBe(0);
    const labels = await trace.locator('th, summary, h3').allTextContents();
    expect(labels.filter((x) => /[a-z][A-Z]/.test(x))).toEqual([]);
    await shot('trace-acal', 'trace');
    await page.getByTestId('acal-graph-link').click();
    await page.getByTestId('claim-strength').waitFor();
    expect(page.url()).toContain(`#/args?run=${id}&item=${item.id}`);
    expect(await page.getByTestId('claim-strength').textContent()).toBe(t.claimStrength.toFixed(4));
  });

  it('CASE run: tool calls collapse to one line (k, gold rank) with ids on demand; an item opens by keyboard; the reliability plot shows; the LLM calls as the trace records them', async () => {
    const q = f.questions[0];
    await page.goto(`${s.url}/#/runs?run=${f.llmRunId}`);
    await page.locator(`[data-testid=question-row][data-id="${q.id}"]`).getByTestId('item-link').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('advocate').first().waitFor();
    await expect.poll(focused).toBe('trace-heading');
    const t = JSON.parse(readFileSync(join(f.runs, f.llmRunId, 'traces', `${q.id}.json`), 'utf8'));
    const calls = t.advocates[0].toolCalls as { ids: string[] }[];
    const first = page.getByTestId('advocate').first().getByTestId('tool-call');
    expect(await first.count()).toBe(calls.length);
    const gold = new Set(q.goldPassageIds);
    const r0 = calls[0].ids.findIndex((x) => gold.has(x));
    expect(await first.first().getByTestId('gold-rank').textContent()).toBe(r0 >= 0 ? `#${r0 + 1}` : '–');
    expect(await first.first().locator('.idwrap').isVisible()).toBe(false);
    // collapsed: every tool call is one short row, whatever the number of ids it returned
    const heights = await page.getByTestId('tool-call').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(60);
    await first.first().locator('details.ids-toggle summary').click();
    expect(await first.first().locator('.idwrap').first().isVisible()).toBe(true);
    await page.locator('[data-testid=plot-reliability][data-rendered=true] svg').waitFor();
    expect(await page.getByTestId('plot-reliability').locator('svg').textContent()).toMatch(/n=\d/);
    // jury tallies and scores rounded, never 16 digits
    expect(await page.getByTestId('verdict').textContent()).not.toMatch(/\d\.\d{5,}/);
    await shot('trace-case', 'advocate');
    // the LLM-call inspector: this run recorded no exchanges, so the calls are the steps its trace shows (advocates, then jurors)
    await page.getByTestId('llm-calls').locator('summary').first().click();
    await page.getByTestId('llm-call').first().waitFor();
    expect(await page.getByTestId('llm-call').count()).toBe(t.advocates.length + t.jurors.length);
    expect(await page.getByTestId('llm-calls-source').textContent()).toMatch(/recorded no LLM exchanges/);
    expect(await page.getByTestId('llm-call').last().getAttribute('data-stage')).toMatch(/^juror 3/);
    await page.getByTestId('llm-call').last().getByTestId('call-open').locator('summary').click();
    expect(await page.getByTestId('llm-call').last().getByTestId('call-reply').textContent()).toContain(t.jurors[2].reasoning);
    // an evidence id opens its passage page, which lists this item among those holding it
    const pid = await page.getByTestId('evidence-item').first().locator('a.pid').getAttribute('data-pid');
    await page.getByTestId('evidence-item').first().locator('a.pid').click();
    await page.getByTestId('passage-text').waitFor();
    await page.getByTestId('passage-use').first().waitFor();
    expect(await page.getByTestId('passage-use').filter({ hasText: f.llmRunId }).filter({ hasText: q.id }).count()).toBe(1);
    expect(pid).toBeTruthy();
  });

  it('compare: N runs picked in the runs list — figures, curves, key-by-key config diff, Δ against the first; for two, the agreement matrix and the items that differ; tables export', async () => {
    const c = await compareRuns(join(f.runs, f.caseRunId), join(f.runs, f.llmRunId), { iterations: 2000, seed: 13 });
    await page.goto(`${s.url}/#/runs`);
    await page.getByTestId('runs-table').waitFor();
    for (const id of [f.caseRunId, f.llmRunId, f.systemRuns!.madRunId]) await page.locator(`[data-testid=run-pick][data-run="${id}"]`).check();
    await page.getByTestId('compare-selected').click();
    await page.getByTestId('compare-runs').waitFor();
    expect(await page.getByTestId('compare-run').count()).toBe(3);
    expect(await page.locator('h1').textContent()).toBe('Compare 3 runs');
    const diff = page.getByTestId('config-diff');
    expect(await diff.locator('tr[data-key=jurors] td').allTextContents()).toEqual(['0', '3', '(absent)']);
    expect(await diff.locator('tr[data-key=rounds] td').allTextContents()).toEqual(['(absent)', '(absent)', '2']);
    await page.locator('[data-testid=plot-round-curves][data-rendered=true] svg').waitFor();
    expect(await page.getByTestId('plot-round-curves').locator('svg').textContent()).toContain(f.systemRuns!.madRunId);
    expect(await page.getByTestId('compare-pair').count()).toBe(2);
    // each pair's items left out — only in the reference / only in this run — with the two-run view's line as the title
    const only = page.locator(`[data-testid=compare-pair][data-run="${f.llmRunId}"] [data-testid=pair-only]`);
    expect(await only.textContent()).toBe(`${c.onlyA} / ${c.onlyB}`);
    expect(await only.getAttribute('title')).toBe(c.onlyLine ?? '');
    // and as text on the page, not only a title (which a touch screen or a screen reader never shows)
    expect(await page.locator(`[data-testid=pair-only-line][data-run="${f.llmRunId}"]`).allTextContents()).toEqual(
      c.onlyLine ? [`${f.llmRunId} vs ${f.caseRunId}: ${c.onlyLine}`] : [],
    );
    expect(await page.locator(`[data-testid=pair-warning][data-run="${f.llmRunId}"]`).allTextContents()).toEqual(
      c.pairingLines.map((l) => `${f.llmRunId} vs ${f.caseRunId}: ${l}`),
    );
    // the item × run matrix: each run's results.jsonl, item by item (✓ right, ✗ wrong, – not in the run)
    const ids = [f.caseRunId, f.llmRunId, f.systemRuns!.madRunId];
    const recs = await Promise.all(ids.map(async (id) => new Map((await readResults(join(f.runs, id))).records.map((r) => [r.id, r]))));
    const items = [...new Set(recs.flatMap((m) => [...m.keys()]))];
    expect(await page.getByTestId('matrix-row').count()).toBe(items.length);
    for (const item of items) {
      const want = recs.map((m) => (m.get(item) ? (m.get(item)!.correct ? 'right' : 'wrong') : 'absent'));
      expect(
        await page.locator(`[data-testid=matrix-row][data-id="${item}"] td[data-cell]`).evaluateAll((tds) => tds.map((t) => t.getAttribute('data-cell'))),
      ).toEqual(want);
    }
    // export the config diff as Markdown and LaTeX
    await page.getByTestId('config-diff').locator('xpath=ancestor::div[contains(@class,"scroll-x")]/following-sibling::details[1]').locator('summary').click();
    const exp = page.getByTestId('config-diff').locator('xpath=ancestor::div[contains(@class,"scroll-x")]/following-sibling::details[1]');
    await exp.getByTestId('export-markdown').click();
    const md = await exp.getByTestId('export-text').inputValue();
    expect(md.split('\n')[0]).toBe(`| config key | ${f.caseRunId} | ${f.llmRunId} | ${f.systemRuns!.madRunId} |`);
    expect(md).toContain('| jurors | 0 | 3 | (absent) |');
    await exp.getByTestId('export-latex').click();
    expect(await exp.getByTestId('export-text').inputValue()).toContain('jurors & 0 & 3 & (absent) \\\\');
    expect(await exp.getByTestId('export-download').getAttribute('download')).toBe('config-diff.tex');
    await shot('compare-3');
    // two runs: the pair detail
    await page.goto(`${s.url}/#/compare?a=${f.caseRunId}&b=${f.llmRunId}`);
    await page.getByTestId('compare-delta').waitFor();
    expect(await page.getByTestId('compare-delta').textContent()).toContain(`On ${c.shared} shared items`);
    // B − A, the text `lexcase compare` prints (eval/stats), unchanged by the page
    expect(await page.getByTestId('compare-delta').textContent()).toContain(
      `Δ (B − A) ${c.primary.text.diff} ${c.primary.text.interval} · ${c.primary.text.pLine}`,
    );
    for (const [cell, n] of Object.entries(c.agreement!))
      expect(await page.locator(`[data-testid=agreement] td[data-cell=${cell}]`).textContent()).toBe(String(n));
    const differ = await page.getByTestId('differ-row').count();
    expect(differ).toBeGreaterThanOrEqual(c.agreement!.onlyA + c.agreement!.onlyB);
    expect(await page.getByTestId('config-diff').textContent()).toContain('jurors');
    await shot('compare');
    expect(b.pageErrors).toEqual([]);
    expect(b.external).toEqual([]);
  });

  it("item × run matrix: ticking two runs in an item's row opens both traces of that item side by side at 1280 px and stacked at 360 px; the URL keeps the pair", async () => {
    const q = f.questions[0];
    const ids = [f.caseRunId, f.llmRunId, f.systemRuns!.madRunId];
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('about:blank');
    await page.goto(`${s.url}/#/compare?runs=${ids.join(',')}`);
    const row = page.locator(`[data-testid=matrix-row][data-id="${q.id}"]`);
    await row.waitFor();
    await row.locator(`[data-testid=pair-pick][data-run="${f.llmRunId}"]`).check();
    expect(await page.getByTestId('sbs-panel').count()).toBe(0);
    await row.locator(`[data-testid=pair-pick][data-run="${f.systemRuns!.madRunId}"]`).check();
    const panels = page.getByTestId('sbs-panel');
    await panels.nth(1).getByTestId('mad-round').first().waitFor();
    await panels.nth(0).getByTestId('advocate').first().waitFor();
    expect(await panels.evaluateAll((ps) => ps.map((p) => p.getAttribute('data-run')))).toEqual([f.llmRunId, f.systemRuns!.madRunId]);
    expect(await panels.getByTestId('trace-kind').allTextContents()).toEqual(['case', 'mad']);
    // each panel's outcome is that run's own result for the item
    for (const [i, id] of [f.llmRunId, f.systemRuns!.madRunId].entries()) {
      const rec = (await readResults(join(f.runs, id))).records.find((r) => r.id === q.id)!;
      expect(await panels.nth(i).getByTestId('outcome').textContent()).toBe(rec.error ? 'failed' : rec.correct ? 'correct' : 'wrong');
    }
    expect(decodeURIComponent(page.url())).toContain(`item=${q.id}&pair=${f.llmRunId},${f.systemRuns!.madRunId}`);
    const [a, b] = await panels.evaluateAll((ps) =>
      ps.map((p) => {
        const r = p.getBoundingClientRect();
        return { left: r.left, top: r.top, bottom: r.bottom };
      }),
    );
    expect(a.top).toBe(b.top); // side by side
    expect(b.left).toBeGreaterThan(a.left);
    await shot('compare-side-by-side', 'side-by-side');
    // the pair's URL reopens the same two traces; at 360 px they stack
    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    await page.getByTestId('sbs-panel').nth(1).getByTestId('mad-round').first().waitFor();
    const [c, d] = await page.getByTestId('sbs-panel').evaluateAll((ps) =>
      ps.map((p) => {
        const r = p.getBoundingClientRect();
        return { left: r.left, top: r.top, bottom: r.bottom };
      }),
    );
    expect(d.top).toBeGreaterThanOrEqual(c.bottom);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
