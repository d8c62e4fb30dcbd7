/**
 * Two ACAL runs compared on their headline figure: before, `lexcase compare`, its --json and the
 * explorer's compare views judged them by accuracy alone, so two runs whose report.md headline is
 * macro-F1 (45.2% vs 41.3%) showed no macro-F1 difference and no interval for it. Now macro-F1 leads,
 * computed as report.md computes it (eval/metrics/macro.ts), with the paired bootstrap of that code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../../agents/systems.js';
import { compareRunsView } from '../../web/server/compare-api.js';
import { compareManyRuns } from '../../web/server/compare-runs-api.js';
import type { RunEntry } from '../../web/server/runs.js';
import { accuracy, macroF1 } from '../headline-metrics.js';
import { macroScores, pairedMacroF1 } from '../metrics/macro.js';
import { macroF1SwapTest } from '../metrics/macro-swap.js';
import { SYSTEMS, systemSpec, useSystems, type SystemPlugin } from '../systems.js';
import { runExperiment } from '../runner.js';
import type { AgentSystem, SystemContext } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';
import { readRun } from './read-run.js';

interface Item {
  id: string;
  answer: string;
}
// 20 hearsay items, 5 "Yes"
const ITEMS: Item[] = Array.from({ length: 20 }, (_, i) => ({ id: `hearsay-test-${String(i).padStart(2, '0')}`, answer: i % 4 === 0 ? 'Yes' : 'No' }));
const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });
const system =
  (answer: (i: number, gold: string) => string): AgentSystem<Item> =>
  async (item) => ({ prediction: answer(Number(item.id.split('-').pop()), item.answer), trace: {} });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-macro-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function makeRun(name: string, answer: (i: number, gold: string) => string, lexcaseSystem?: string): Promise<RunEntry> {
  const dir = join(root, name);
  await runExperiment({
    runDir: dir,
    system: system(answer),
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: ctx,
    config: { system: 'acal/sp', task: 'hearsay' },
    seed: 13,
    ...(lexcaseSystem ? { lexcaseSystem } : {}),
  });
  return { id: name, dir, root, kind: 'run', system: 'acal/sp', items: ITEMS.length, correct: 0, graphs: 0 };
}

// A: always "No" (75% accuracy, macro-F1 over Yes/No 42.9%); B: right on 13 of 20, both labels
const allNo = () => 'No';
const mixed = (i: number, gold: string) => (i % 3 === 0 ? (gold === 'Yes' ? 'No' : 'Yes') : gold);

describe('compare: runs whose headline is macro-F1 are compared on macro-F1', () => {
  it('leads with macro-F1 as report.md computes it, its paired interval from the same bootstrap, over every shared item (n)', async () => {
    const a = await makeRun('A', allNo, 'acal');
    const b = await makeRun('B', mixed, 'acal');
    const c = await compareRuns(a.dir, b.dir);
    expect(c.measures.map((m) => m.id)).toEqual(['macro-f1', 'accuracy']);
    const m = c.primary;
    expect(m.n).toBe(20);
    // the same macro-F1 as each run's report (macroScores over its records, the task's labels)
    const [A, B] = await Promise.all([readRun(a.dir, { traces: false }), readRun(b.dir, { traces: false })]);
    expect(m.a).toBe(macroScores(A.results, { labels: ['Yes', 'No'] }).f1.estimate);
    expect(m.b).toBe(macroScores(B.results, { labels: ['Yes', 'No'] }).f1.estimate);
    expect(m.text.a).toBe('42.9%');
    // the interval of the paired resamples of that statistic, seed 13, 2,000 resamples
    const pairs = A.results.map((r) => [r, B.results.find((x) => x.id === r.id)!] as const);
    const d = pairedMacroF1(pairs, { labels: ['Yes', 'No'] }).diff;
    expect([m.lo, m.hi]).toEqual([d.lo, d.hi]);
    expect(m.lo).not.toBeNull();
    expect(m.estimate).toBeCloseTo(m.b - m.a, 12);
    // p from the paired swap test of that statistic (eval/metrics/macro-swap.ts), exact here (8 items differ); before: none
    const swap = macroF1SwapTest(
      pairs.map(([x]) => x.gold),
      pairs.map(([x]) => x.prediction),
      pairs.map(([, y]) => y.prediction),
      ['Yes', 'No'],
    );
    expect(swap).toMatchObject({ exact: true, m: 8 });
    expect(m).toMatchObject({ p: swap.p, test: 'swap-exact' });
    expect(m.text.test).toBe('exact paired swap');
    expect(m.text.p).toBe(swap.p.toFixed(3));
    const text = formatComparison(c);
    expect(text).toMatch(/\| macro-F1 \| 20 \| +42\.9% \|/);
    expect(text).toContain('as no prediction in macro-F1');
    // the 2×2 table still counts accuracy's items
    expect(c.agreement).toEqual({ both: 10, onlyA: 5, onlyB: 3, neither: 2 });
  });

  it('the explorer: /api/compare lists macro-F1 first and /api/compare/runs judges the pair by it', async () => {
    const a = await makeRun('A', allNo, 'acal');
    const b = await makeRun('B', mixed, 'acal');
    const pair = await compareRunsView(a, b);
    expect(pair.measures[0]).toMatchObject({ id: 'macro-f1', n: 20 });
    const many = await compareManyRuns([a, b]);
    expect(many.pairs[0]).toMatchObject({ measure: 'macro-F1', text: pair.measures[0].text });
  });

  it('a run beside a run that predicts the same on every item: macro-F1 Δ 0 with "no item differs", as accuracy says it', async () => {
    const a = await makeRun('A', mixed, 'acal');
    const b = await makeRun('B', mixed, 'acal');
    const c = await compareRuns(a.dir, b.dir);
    expect(c.primary).toMatchObject({ id: 'macro-f1', estimate: 0, lo: null, missing: 'no item differs' });
    expect(c.measures[1].missing).toBe('no item differs');
  });

  it('a system whose headline names macro-F1 second (after accuracy) is compared on macro-F1 as it declares, not only when it leads', async () => {
    const saved = [...SYSTEMS];
    // a labelling system listed as ACAL is, its headline accuracy first, then macro-F1 (which declares its paired statistic)
    useSystems([{ ...(systemSpec('acal/sp') as SystemPlugin), id: 'labeler', matches: (s: string) => s === 'labeler', headline: [accuracy, macroF1] }]);
    try {
      const a = await makeRun('A', allNo, 'labeler');
      const b = await makeRun('B', mixed, 'labeler');
      const c = await compareRuns(a.dir, b.dir);
      // before: ['accuracy'] — macro-F1 was compared only where it was both systems' first headline figure
      expect(c.measures.map((m) => m.id)).toEqual(['macro-f1', 'accuracy']);
      expect(c.primary).toMatchObject({ id: 'macro-f1', test: 'swap-exact' });
      expect(c.agreement).toEqual({ both: 10, onlyA: 5, onlyB: 3, neither: 2 });
    } finally {
      SYSTEMS.splice(0, SYSTEMS.length, ...saved);
    }
  });

  it("a system of the user's own (headline accuracy) is still judged by accuracy", async () => {
    const a = await makeRun('A', allNo);
    const b = await makeRun('B', mixed);
    const c = await compareRuns(a.dir, b.dir);
    expect(c.measures.map((m) => m.id)).toEqual(['accuracy']);
  });
});
