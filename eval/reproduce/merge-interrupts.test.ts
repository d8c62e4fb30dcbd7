/**
 * A merged run counts the requests of the items under way at every shard's interrupts: merge writes
 * each shard's config.json `interrupts` into the merged one, each with its shard. Before, the merged
 * config.json was shard 1's, with shard 1's interrupts alone, so report.md's request count (and the
 * counts line's) left out another shard's under-way requests, with no word.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { writeReport } from '../report/write-report.js';
import { readRunUnderWay } from '../run-counts.js';
import { mergeShards } from './merge.js';
import { loadRecipe } from './recipe.js';
import { runDirOf } from './reproduction-dir.js';
import { runGrid } from './run-grid.js';
import { baselineRunner } from './test-support/baseline-runner.js';

const LIMIT = 6;
let dir: string;
let questions: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merge-interrupts-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('merge and the shards’ interrupts', () => {
  it("records every shard's interrupts in the merged config.json, so report.md counts shard 2's under-way requests too", async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2] = ['s1', 's2'].map((d) => join(dir, d));
    for (const [i, d] of [s1, s2].entries())
      await runGrid({
        recipe,
        recipeText: text,
        dir: d,
        limit: LIMIT,
        shard: { index: i + 1, count: 2 },
        only: ['llm-only'],
        runCommand: baselineRunner(() => questions),
      });
    // each shard was stopped once with items under way (as src/cli/run-interrupt.ts records it), then resumed to its end
    const interrupt = (d: string, items: number, requests: number) => {
      const f = join(runDirOf(d, 'llm-only'), 'config.json');
      const cfg = JSON.parse(readFileSync(f, 'utf8'));
      writeFileSync(f, JSON.stringify({ ...cfg, interrupts: [{ signal: 'SIGINT', at: '2026-12-01T10:00:00.000Z', items, requests }] }));
    };
    interrupt(s1, 1, 1);
    interrupt(s2, 2, 3);
    const merged = await mergeShards(join(dir, 'merged'), [s1, s2], recipe);
    const to = runDirOf(merged.out, 'llm-only');
    const cfg = JSON.parse(readFileSync(join(to, 'config.json'), 'utf8'));
    expect(cfg.interrupts.map((x: { shard: number; requests: number }) => [x.shard, x.requests])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    // before: { items: 1, requests: 1 } (shard 1's alone)
    expect(await readRunUnderWay(to)).toEqual({ items: 3, requests: 4 });
    expect(readFileSync(join(to, 'report.md'), 'utf8')).toContain('**4 requests sent by 3 items under way at an interrupt**');
  }, 60_000);

  it("keeps every shard's resumes in the merged config.json, each with its shard, so report.md says shard 2's resume and its interrupt's", async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2] = ['r1', 'r2'].map((d) => join(dir, d));
    const grid = (d: string, i: number) =>
      runGrid({
        recipe,
        recipeText: text,
        dir: d,
        limit: LIMIT,
        shard: { index: i, count: 2 },
        only: ['llm-only'],
        runCommand: baselineRunner(() => questions),
      });
    await grid(s1, 1);
    await grid(s2, 2);
    // shard 2 stopped by a SIGINT with its last item under way (no line; as src/cli/run-interrupt.ts records it), then resumed by its grid
    const f = join(runDirOf(s2, 'llm-only'), 'config.json');
    const results = join(runDirOf(s2, 'llm-only'), 'results.jsonl');
    writeFileSync(results, readFileSync(results, 'utf8').split('\n').slice(0, -2).join('\n') + '\n');
    const cfg2 = JSON.parse(readFileSync(f, 'utf8'));
    writeFileSync(f, JSON.stringify({ ...cfg2, interrupts: [{ signal: 'SIGINT', at: new Date().toISOString(), items: 1, requests: 2 }] }));
    await grid(s2, 2);
    expect(JSON.parse(readFileSync(f, 'utf8')).resumes).toMatchObject([{ items: 3, skipped: 2, underWay: { items: 1, requests: 2 } }]);
    const merged = await mergeShards(join(dir, 'merged-resumes'), [s1, s2], recipe);
    const to = runDirOf(merged.out, 'llm-only');
    const cfg = JSON.parse(readFileSync(join(to, 'config.json'), 'utf8'));
    // before: no resumes (shard 1's, which had none), against shard 2's interrupt
    expect(cfg.resumes).toMatchObject([{ shard: 2, items: 3, skipped: 2, underWay: { items: 1, requests: 2 } }]);
    expect(cfg.interrupts).toMatchObject([{ shard: 2, items: 1, requests: 2 }]);
    const md = readFileSync(join(to, 'report.md'), 'utf8');
    expect(md).toContain('- **resumed**: 1× (shard 2: 1×)');
    expect(JSON.parse(readFileSync(join(to, 'report.json'), 'utf8')).sections.summary.resumes).toMatchObject([{ shard: 2, underWay: { requests: 2 } }]);
    // a merged run dir written before (shard 1's resumes at the top) reads every shard's from mergedFrom
    const { resumes: _all, ...old } = cfg;
    writeFileSync(join(to, 'config.json'), JSON.stringify(old));
    await writeReport(to);
    expect(readFileSync(join(to, 'report.md'), 'utf8')).toContain('- **resumed**: 1× (shard 2: 1×)');
  }, 60_000);
});
