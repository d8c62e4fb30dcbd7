/**
 * A per-item metric declared an outcome of every item (metric kind `outcome`: MAD's correctAfterRound<r>,
 * a user's `solved`) has one figure on every surface: report.md's per-item table, `lexcase compare`
 * (text, --json, the explorer) and a reproduction cell — over every item, one that did not record it
 * (it failed before that step) counted as 0 (eval/stats metricValueOf), each saying so.
 * Two runs of a user's system on the first 20 Bar Exam QA val questions: A solves every even item
 * (10 of 20), B solves its first 12 and fails the other 8 before the solve step.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { parseRecipe, type Metric } from '../reproduce/recipe.js';
import { runDirOf } from '../reproduce/reproduction-dir.js';
import { buildTable, tableMarkdown } from '../reproduce/table.js';
import { cellValue } from '../reproduce/stats.js';
import { contextFrom, runExperiment } from '../runner.js';
import { recordedMetricKinds } from '../systems.js';
import { compareRuns, formatComparison } from './compare.js';
import { writeReport } from './index.js';
import { readRun } from './read-run.js';

let root: string;
let items: Question[];

async function solverRun(name: string, solved: (i: number) => boolean, failFrom: number): Promise<string> {
  const runDir = join(root, name);
  await runExperiment({
    runDir,
    system: async (q: Question) => {
      const i = items.indexOf(q);
      if (i >= failFrom) throw new Error('retriever crashed before the solve step');
      return { prediction: solved(i) ? q.answer : q.answer === 'A' ? 'B' : 'A', trace: {}, metrics: { solved: solved(i) } };
    },
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'my-solver' },
    seed: 13,
    metricKinds: { solved: 'outcome' },
  });
  await writeReport(runDir);
  return runDir;
}

let a: string;
let b: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-outcome-'));
  items = (await loadQuestions('barexam', 'val')).slice(0, 20);
  a = await solverRun('A', (i) => i % 2 === 0, 20);
  b = await solverRun('B', () => true, 12);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const itemMetric = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).sections.itemMetrics.solved;

describe('a metric declared an outcome of every item is averaged over every item on every surface', () => {
  it("compare's row is over all 20 shared items, each run's figure report.md's (B 60.0%, not 100.0% over the 12 it recorded), and says so", async () => {
    expect(itemMetric(a)).toMatchObject({ n: 20, value: 0.5 });
    expect(itemMetric(b)).toMatchObject({ n: 20, value: 0.6 });
    const c = await compareRuns(a, b);
    const m = c.measures.find((x) => x.id === 'solved')!;
    // before: n 12, A 50.0%, B 100.0%, +50.0 pp, p 0.031 — the 8 items B failed before the step left out
    expect(m).toMatchObject({ n: 20, a: 0.5, b: 0.6, test: 'mcnemar-exact' });
    expect(m.estimate).toBeCloseTo(0.1, 12);
    expect(m.text).toMatchObject({ a: '50.0%', b: '60.0%', diff: '+10.0 pp' });
    const over =
      "over every shared item (n = 20); an item that did not record it counts as 0 (metric kind outcome, as report.md's per-item table): A 0, B 8 such items";
    expect(m.over).toBe(over);
    const text = formatComparison(c);
    expect(text).toMatch(/\| solved +\| 20 \| 50\.0% \| 60\.0% \| \+10\.0 pp \|/);
    expect(text).toContain(`solved: ${over}.`);
    // --json carries it as it is (the explorer's compare page reads the same object)
    expect(JSON.parse(JSON.stringify(c)).measures.find((x: { id: string }) => x.id === 'solved').over).toBe(over);
  });

  it("a reproduction cell's mean of the metric is report.md's figure, to the bit (n 20, 60%), not the 12 items that recorded it", async () => {
    const run = await readRun(b, { traces: false });
    const cell = cellValue(run.results, { stat: 'mean', key: 'solved' } as Metric, { kinds: recordedMetricKinds(run.config) });
    const report = itemMetric(b);
    // before: n 12, 100%
    expect(cell).toMatchObject({ n: 20, estimate: report.value, lo: report.ci.lo, hi: report.ci.hi, method: 'wilson' });
  });

  it("a reproduction table's cell says its denominator: every item, the 8 without the metric counted as 0", async () => {
    const repro = join(root, 'repro');
    mkdirSync(runDirOf(repro, 'solver'), { recursive: true });
    for (const f of ['results.jsonl', 'config.json']) copyFileSync(join(b, f), join(runDirOf(repro, 'solver'), f));
    const recipe = parseRecipe(
      {
        id: 'solver-table',
        paper: 'a paper',
        table: 'Table 1',
        title: 'Solved share',
        scale: 100,
        needs: { llm: true },
        runs: [{ id: 'solver', system: 'mad' }],
        columns: ['solved'],
        rows: [{ label: 'solver', cells: [{ column: 'solved', paper: 60, run: 'solver', metric: { stat: 'mean', key: 'solved' } }] }],
      },
      'solver-table.json',
    );
    const t = await buildTable(repro, recipe, { limit: null, shard: null, runs: [{ id: 'solver', system: 'mad', status: 'done' }] });
    const over = 'over every item (n = 20), the 8 that did not record it counted as 0 (metric kind outcome)';
    // before: value 100, n 12, no word of the 8 items left out
    expect(t.rows[0].cells[0]).toMatchObject({ value: 60, n: 20, over });
    expect(tableMarkdown(t)).toContain(`lexcase 60.00 [38.66, 78.12] 95% Wilson n=20 (${over})`);
  });

  it('undeclared in one run, the same values stay over the items both recorded, on every surface, the compare row saying why', async () => {
    const plain = join(root, 'plain');
    await runExperiment({
      runDir: plain,
      system: async (q: Question) => {
        const i = items.indexOf(q);
        if (i >= 12) throw new Error('retriever crashed before the solve step');
        return { prediction: q.answer, trace: {}, metrics: { solved: true } };
      },
      items,
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'my-solver' },
      seed: 13,
    });
    const c = await compareRuns(a, plain);
    expect(c.measures.find((x) => x.id === 'solved')).toMatchObject({ n: 12, b: 1 });
    // A declares it an outcome, the other run not: over the items both recorded, and the row says so (it said nothing)
    expect(c.measures.find((x) => x.id === 'solved')!.over).toBe(
      'over the 12 shared items both runs recorded it for: A declares it an outcome of every item (metric kind outcome: report.md counts an item without it as 0), B does not, so items that did not record it are left out of both, not counted as 0',
    );
    expect(formatComparison(c)).toContain('solved: over the 12 shared items both runs recorded it for: A declares it');
    const run = await readRun(plain, { traces: false });
    expect(cellValue(run.results, { stat: 'mean', key: 'solved' } as Metric, { kinds: {} })).toMatchObject({ n: 12, estimate: 1 });
  });
});
