/**
 * The explorer's pair view (/api/compare) reads two runs by the rule `lexcase compare` reads them
 * (eval/report/read-run.ts runConfigProblem): its paired interval, exact test and config differences
 * are the CLI's for the same two runs, and a run whose config.json records no seed is refused with the
 * CLI's message. Before, the explorer assumed seed 13 where config.json recorded none: a run the CLI
 * refuses ("config.json lacks seed/config/provenance") was compared, its config differences saying
 * "seed 7 vs 13" for a seed the run never recorded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../eval/report/compare.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import type { AgentSystem } from '../../eval/types.js';
import { compareRunsView } from './compare-api.js';
import { compareManyRuns } from './compare-runs-api.js';
import type { RunEntry } from './runs.js';

interface Question {
  id: string;
  answer: string;
}
// 30 Bar Exam questions (A–D)
const QUESTIONS: Question[] = Array.from({ length: 30 }, (_, i) => ({ id: `mbe_${i + 1}`, answer: 'ABCD'[i % 4] }));
/** Right except every `p`-th question, answered A. */
const wrongEvery =
  (p: number): AgentSystem<Question> =>
  async (q) => ({ prediction: Number(q.id.slice(4)) % p === 0 ? 'A' : q.answer, trace: {} });

let root: string;
const runs: Record<string, RunEntry> = {};
const view = (c: { primary: { text: unknown } }) => c.primary.text;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-seed-'));
  for (const [name, p, seed] of [
    ['a', 3, 7],
    ['b', 5, 13],
    ['c', 5, 13],
  ] as const) {
    const dir = join(root, name);
    await runExperiment({
      runDir: dir,
      system: wrongEvery(p),
      items: QUESTIONS,
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'mine' },
      seed,
    });
    runs[name] = { id: name, dir, root, kind: 'run', system: 'mine', items: QUESTIONS.length, correct: 0, graphs: 0 };
  }
  // c: a config.json that records no seed (an older or hand-written run dir)
  const f = join(root, 'c', 'config.json');
  const cfg = JSON.parse(readFileSync(f, 'utf8'));
  delete cfg.seed;
  writeFileSync(f, JSON.stringify(cfg, null, 2));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("/api/compare reads runs by `lexcase compare`'s rule", () => {
  it("gives the CLI's paired interval, test and config differences for the same two runs", async () => {
    const view = await compareRunsView(runs.a, runs.b);
    const cli = await compareRuns(runs.a.dir, runs.b.dir);
    expect(view.primary.text).toEqual(cli.primary.text);
    expect([view.primary.seed, view.primary.iterations]).toEqual([cli.primary.seed, cli.primary.iterations]);
    expect(view.primary.text.interval).toBe(cli.primary.text.interval);
    expect(view.configDiff).toEqual({ seed: [7, 13] });
    expect(cli.configDiff).toEqual({ seed: [7, 13] });
  });

  it('refuses a run whose config.json records no seed, as the CLI does (before: compared with seed 13 assumed, "seed 7 vs 13")', async () => {
    await expect(compareRuns(runs.a.dir, runs.c.dir)).rejects.toThrow(/config\.json lacks seed\/config\/provenance/);
    await expect(compareRunsView(runs.a, runs.c)).rejects.toThrow(/run B \(c\): config\.json lacks seed\/config\/provenance \(not written by lexcase run\?\)/);
    // the N-run view: that pair has no Δ, the CLI's reason instead, and no seed is invented in its config differences
    const many = await compareManyRuns([runs.a, runs.b, runs.c]);
    expect(many.pairs[0]).toMatchObject({ b: 'b', text: view(await compareRunsView(runs.a, runs.b)) });
    expect(many.pairs[1]).toEqual({ a: 'a', b: 'c', shared: 0, error: 'run B (c): config.json lacks seed/config/provenance (not written by lexcase run?)' });
    expect(many.configDiff).toEqual([{ key: 'seed', values: [7, 13, { absent: true }] }]);
  });
});
