/**
 * A reproduction's metric-vs-configuration chart with many rows, in headless Chromium at 360, 768,
 * 1280 and 1920 px: the table.json of `lexcase reproduce threeply-table2 --limit 3` (16 rows: 4
 * methods × 4 models, the paper's values; lexcase's cells at n = 3 without an interval, as that run
 * wrote them). Before: rows 1 and 11, 2 and 12, … shared a colour (10 colours for 16 rows); the
 * chart was fitted to a box as wide as its caption (452 px on a 1280 px page) and, at 360 px,
 * narrowed until "Arguable", "Mismatched" and "Non-Arguable" ran into each other; the empty
 * interval layer was an unlabelled graphics group (axe svg-img-alt); at 360 px the legend cut its
 * labels to one line, so "Single Agent with Enhanced Prompting · Llama-4-Maverick-17b-128e" and
 * "… · Llama-4-Scout-17b-16e" both read "Single Agent with Enhanced Prompting · Llam…".
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AxeResults } from 'axe-core';
import { startExplorer, type ExplorerServer } from './server/server.js';
import { CHROMIUM, openTestBrowser, type TestBrowser } from './test-support/browser.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

const METHODS = ['Single Agent', 'Single Agent with Enhanced Prompting', 'Multi-Agent Debate without Reflection', 'Reflective Multi-Agent'];
const MODELS = ['GPT-4o', 'GPT-4o-mini', 'Llama-4-Maverick-17b-128e', 'Llama-4-Scout-17b-16e'];
const COLUMNS = ['Arguable', 'Mismatched', 'Non-Arguable'];
// the paper's Table 2, row by row (recipes/threeply-table2.json)
const PAPER = [
  [99.26, 99.15, 87.63],
  [99.32, 99.2, 85.96],
  [98.7, 98.92, 87.24],
  [99.81, 99.44, 94.63],
  [99.33, 95.75, 78.06],
  [99.3, 98.61, 88.88],
  [99.03, 98.12, 83.17],
  [98.66, 100, 91.72],
  [99.59, 96.88, 93.69],
  [99.14, 95.41, 91.3],
  [99.33, 99.14, 97.67],
  [99.87, 98.92, 96.47],
  [98.38, 97.32, 90.99],
  [98.75, 98.19, 87.79],
  [99.06, 98.92, 91.83],
  [99.26, 99.91, 98.14],
];
const LABELS = MODELS.flatMap((m) => METHODS.map((x) => `${x} · ${m}`));

const root = mkdtempSync(join(tmpdir(), 'lexcase-repro-chart-'));
const ID = 'repro-threeply-table2';
let s: ExplorerServer;
let b: TestBrowser;

beforeAll(async () => {
  const dir = join(root, ID);
  mkdirSync(dir);
  writeFileSync(join(dir, 'reproduction.json'), JSON.stringify({ recipe: 'threeply-table2', limit: 3, model: 'scripted', runs: [] }));
  writeFileSync(
    join(dir, 'table.json'),
    JSON.stringify({
      recipe: 'threeply-table2',
      title: 'Reflective multi-agent 3-ply legal arguments (paper 000)',
      table: 'Table 2',
      scale: 100,
      columns: COLUMNS,
      rows: LABELS.map((label, i) => ({
        label,
        comparable: true,
        cells: COLUMNS.map((column, j) => ({
          column,
          paper: PAPER[i][j],
          value: 100,
          ci: null,
          n: 3,
          failed: 0,
          method: '95% bootstrap',
          ciNote: 'n < 10',
          status: 'done',
        })),
      })),
      notes: [],
      limit: 3,
      runs: [],
    }),
  );
  s = await startExplorer({ runs: root, port: 0 });
  b = await openTestBrowser(s.url);
}, 120_000);

afterAll(async () => {
  await b?.close();
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

const CHART = `(() => {
  const fig = document.querySelector('[data-testid=plot-grid]');
  const svg = fig.querySelector('svg');
  const colours = [...svg.querySelectorAll('g.role-legend-entry g.role-scope > g g.role-legend-symbol path')].map((p) => p.getAttribute('stroke'));
  const labels = [...svg.querySelectorAll('g.role-axis-label text')].filter((t) => ${JSON.stringify(COLUMNS)}.includes(t.textContent)).map((t) => t.getBoundingClientRect());
  const overlaps = [];
  for (let i = 0; i + 1 < labels.length; i++) if (labels[i].right > labels[i + 1].left + 1) overlaps.push(Math.round(labels[i].right - labels[i + 1].left));
  // each legend label as it reads (a label set on two lines is its lines, joined by a space), and how far a label runs into the next one down
  const texts = [...svg.querySelectorAll('g.role-legend-entry g.role-scope > g g.role-legend-label text')];
  const legend = texts.map((t) => { const lines = [...t.querySelectorAll('tspan')].map((x) => x.textContent); return lines.length ? lines.join(' ') : t.textContent; });
  const boxes = texts.map((t) => t.getBoundingClientRect());
  const stacked = [];
  for (let i = 0; i + 1 < boxes.length; i++) if (boxes[i].bottom > boxes[i + 1].top + 1) stacked.push(i + ': ' + Math.round(boxes[i].bottom - boxes[i + 1].top) + ' px');
  return { colours, overlaps, box: fig.parentElement.clientWidth, row: fig.closest('.header-row').clientWidth, legend, stacked };
})()`;

describe.skipIf(!CHROMIUM)("a reproduction's chart of 16 rows in Chromium", () => {
  it('at 360, 768, 1280 and 1920 px: 16 rows in 16 colours, each legend label whole (wrapped, never cut), the scenario names side by side without overlap, the chart as wide as the header, 0 axe violations', async () => {
    const page = b.page;
    for (const width of [360, 768, 1280, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('about:blank');
      await page.goto(`${s.url}/#/runs?run=${ID}`);
      await page.locator('[data-testid=plot-grid][data-rendered=true] svg').waitFor({ timeout: 60_000 });
      const c = (await page.evaluate(CHART)) as { colours: string[]; overlaps: number[]; box: number; row: number; legend: string[]; stacked: string[] };
      // every row's label whole (before, at 360 px, cut to "Single Agent with Enhanced Prompting · Llam…" for both Llama models)
      expect(c.legend, `@${width}`).toEqual(LABELS);
      expect(c.stacked, `@${width}: legend labels running into the next`).toEqual([]);
      expect(c.colours, `@${width}`).toHaveLength(16);
      expect(new Set(c.colours).size, `@${width}`).toBe(16);
      expect(c.overlaps, `@${width}`).toEqual([]);
      expect(c.box, `@${width}`).toBe(c.row);
      if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
      const axe = (await page.evaluate(
        `axe.run(document, ${JSON.stringify({ runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] })})`,
      )) as AxeResults;
      expect(
        axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`),
        `@${width}`,
      ).toEqual([]);
    }
    expect(b.pageErrors).toEqual([]);
  }, 300_000);
});
