/**
 * report.md's "Consistency across seeds" is over the seed runs as they are now. `run mad --seeds`
 * writes consistency.json when it ends; a seed run resumed on its own since (its failed item
 * retried and answered) left it stale, and `lexcase report` printed the old figure as the run's:
 * "Consistency across 2 seeds (3 items answered in every run): … unanimous 66.7%" for runs that now
 * answer all 4 items, unanimous on 3 of them (75.0%).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../core/errors.js';
import { buildReport } from '../../eval/report/write-report.js';
import { readRun } from '../../eval/report/read-run.js';
import { runExperiment } from '../../eval/runner.js';
import type { AgentSystem, SystemContext } from '../../eval/types.js';
import { predictionsOf, seedConsistency } from './metrics.js';
import { madSeedConsistency } from './report-section.js';
import '../systems.js'; // the system list hands itself to eval: the report finds each system's section

interface Item {
  id: string;
  answer: string;
}
// 4 Bar Exam QA questions, as `run mad --system single-rag --seeds 1,2 --limit 4`
const ITEMS: Item[] = ['mbe_137', 'mbe_581', 'mbe_222', 'mbe_682'].map((id, i) => ({ id, answer: 'ABCD'[i] }));
const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-mad-consistency-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Seed 1 answers every item right; seed 2 answers mbe_581 wrong, and with `failLast` its last item ends in an HTTP 500. */
const seedRun = (seed: number, failLast: boolean) =>
  runExperiment({
    lexcaseSystem: 'mad',
    runDir: join(root, `seeds-s${seed}`),
    system: (async (item) => {
      if (failLast && item.id === 'mbe_682') throw errors.llmRequestFailed('HTTP 500: upstream error');
      return { prediction: seed === 2 && item.id === 'mbe_581' ? 'D' : item.answer, trace: {} };
    }) as AgentSystem<Item>,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: ctx,
    config: { system: 'mad', mode: 'single-rag' },
    seed,
  });

describe('MAD report: consistency across seeds', () => {
  it('is recomputed from the seed runs as they are now, and says the recorded figure was stale', async () => {
    const runs = [await seedRun(1, false), await seedRun(2, true)];
    // what `run mad --seeds 1,2` writes into each seed's run dir when it ends (agents/mad/experiment.ts runMadSeeds)
    const recorded = seedConsistency(runs.map((r) => predictionsOf(r.results)));
    expect(recorded).toMatchObject({ runs: 2, items: 3, total: 4 });
    const payload = { seeds: [1, 2], runDirs: [join(root, 'seeds-s1'), join(root, 'seeds-s2')], ...recorded };
    for (const s of [1, 2]) writeFileSync(join(root, `seeds-s${s}`, 'consistency.json'), JSON.stringify(payload));
    const before = await buildReport(await readRun(join(root, 'seeds-s1')));
    expect(before.markdown).toContain('Consistency across 2 seeds (3 of 4 items answered in every run): pairwise agreement 66.7%, unanimous 66.7%\n');
    // seed 2 resumed on its own (`run mad --seed 2 --run-dir runs/seeds-s2`): its failed item is retried and answered
    const resumed = await seedRun(2, false);
    expect(resumed.ran).toBe(1);
    const after = await buildReport(await readRun(join(root, 'seeds-s1')));
    expect(after.markdown).toContain(
      "Consistency across 2 seeds (4 of 4 items answered in every run): pairwise agreement 75.0%, unanimous 75.0% (over the seed runs' results as they are now; consistency.json, written when the seeds ran, said 3 of 4 items, pairwise agreement 66.7%, unanimous 66.7%: a seed run has changed since)",
    );
    expect(after.json.sections.mad).toMatchObject({ consistency: { items: 4, unanimous: 0.75 } });
  });

  it('keeps the recorded figure, saying so, when a seed run is gone', async () => {
    const runs = [await seedRun(1, false), await seedRun(2, true)];
    const recorded = seedConsistency(runs.map((r) => predictionsOf(r.results)));
    const payload = { seeds: [1, 2], runDirs: [join(root, 'seeds-s1'), join(root, 'seeds-s2')], ...recorded };
    writeFileSync(join(root, 'seeds-s1', 'consistency.json'), JSON.stringify(payload));
    rmSync(join(root, 'seeds-s2'), { recursive: true });
    const report = await buildReport(await readRun(join(root, 'seeds-s1')));
    expect(report.markdown).toContain(
      `Consistency across 2 seeds (3 of 4 items answered in every run): pairwise agreement 66.7%, unanimous 66.7% (as recorded when the seeds ran: ${join(root, 'seeds-s2')} can no longer be read)`,
    );
  });

  it('a consistency.json written before the total was recorded keeps its figure and says "3 items", with no total it cannot know', async () => {
    const runs = [await seedRun(1, false), await seedRun(2, true)];
    const { total: _, ...recorded } = seedConsistency(runs.map((r) => predictionsOf(r.results)));
    writeFileSync(
      join(root, 'seeds-s1', 'consistency.json'),
      JSON.stringify({ seeds: [1, 2], runDirs: [join(root, 'seeds-s1'), join(root, 'seeds-s2')], ...recorded }),
    );
    rmSync(join(root, 'seeds-s2'), { recursive: true });
    const report = await buildReport(await readRun(join(root, 'seeds-s1')));
    expect(report.markdown).toContain('Consistency across 2 seeds (3 items answered in every run): pairwise agreement 66.7%, unanimous 66.7% (as recorded');
  });

  it('the explorer reads a seed run only inside its runs root: one recorded elsewhere counts as unreadable, named by its folder', async () => {
    const runs = [await seedRun(1, false), await seedRun(2, true)];
    const recorded = seedConsistency(runs.map((r) => predictionsOf(r.results)));
    // seed 2's run recorded outside the served folder (seeds-s1 alone is under the explorer's --runs)
    const outside = join(root, 'elsewhere', 'private', 'seeds-s2');
    const payload = { seeds: [1, 2], runDirs: [join(root, 'seeds-s1'), outside], ...recorded };
    writeFileSync(join(root, 'seeds-s1', 'consistency.json'), JSON.stringify(payload));
    const served = join(root, 'seeds-s1');
    const inside = (f: string) => f.startsWith(served + '/');
    // beside seeds-s1 (root/seeds-s2) exists but lies outside the served folder: not read either
    const got = await madSeedConsistency(served, runs[0].results, inside);
    expect(got!.line).toContain('(as recorded when the seeds ran: seeds-s2 can no longer be read here)');
    expect(got!.line).not.toContain(root);
    // without the limit (lexcase report), the run beside it is read
    expect((await madSeedConsistency(served, runs[0].results))!.line).not.toContain('can no longer be read');
  });
});
