/**
 * A shard none of whose items succeeded does not drop the whole run from the merge. Its `lexcase run`
 * exits 1 ("no item succeeded"), so its cell is failed in that shard; merge took that for the run's and
 * dropped every shard's items: the merged table read "— (failed)" where the unsharded reproduction of
 * the same items read 50.00 n=4, and merge exited 0 with a warning. Now merge decides "no item
 * succeeded" over the merged items, as the unsharded run decides it over its own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { mergeShards } from './merge.js';
import { loadRecipe } from './recipe.js';
import { reproductionPath } from './reproduction-dir.js';
import { runGrid } from './run-grid.js';
import { shardItems } from './shard.js';
import { baselineRunner } from './test-support/baseline-runner.js';
import type { TableJson } from './table.js';

const LIMIT = 4;
let dir: string;
let questions: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merge-all-failed-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { recipe, text } = loadRecipe('case-table2');
const grid = (d: string, fails: (q: Question) => boolean, shard?: number) =>
  runGrid({
    recipe,
    recipeText: text,
    dir: join(dir, d),
    limit: LIMIT,
    ...(shard ? { shard: { index: shard, count: 2 } } : {}),
    only: ['llm-only'],
    runCommand: baselineRunner(() => questions, fails),
  });
/** The llm-only row's cells, as the table prints them. */
const cells = (t: TableJson) => JSON.stringify(t.rows.filter((r) => r.cells.some((c) => c.run === 'llm-only')).map((r) => r.cells));

describe('merge: a shard none of whose items succeeded', () => {
  it('merges its failed items with the other shard’s successes: the table reads as the unsharded one (it read "— (failed)")', async () => {
    const shard1 = new Set(shardItems(questions, { index: 1, count: 2 }).map((q) => q.id));
    const fails = (q: Question) => shard1.has(q.id);
    const whole = await grid('whole', fails);
    expect(whole.reproduction.runs.find((r) => r.id === 'llm-only')?.status).toBe('done');
    const [s1, s2] = [await grid('s1', fails, 1), await grid('s2', fails, 2)];
    const inShard1 = s1.reproduction.runs.find((r) => r.id === 'llm-only');
    expect(inShard1).toMatchObject({ status: 'failed', noItemSucceeded: true });
    expect(s2.reproduction.runs.find((r) => r.id === 'llm-only')?.status).toBe('done');
    const merged = await mergeShards(join(dir, 'merged'), [join(dir, 's1'), join(dir, 's2')], recipe);
    expect(merged.runs.find((r) => r.id === 'llm-only')).toEqual({ id: 'llm-only', status: 'done', items: LIMIT });
    expect(merged.warnings ?? []).toEqual([]);
    expect(cells(merged.table)).toBe(cells(whole.table));
    expect(merged.tableMd).not.toContain('(failed)');

    // a shard's reproduction.json from an older lexcase (no noItemSucceeded): read from its error line
    const file = reproductionPath(join(dir, 's1'));
    const repro = JSON.parse(readFileSync(file, 'utf8'));
    for (const r of repro.runs) delete r.noItemSucceeded;
    writeFileSync(file, JSON.stringify(repro));
    const again = await mergeShards(join(dir, 'merged-older'), [join(dir, 's1'), join(dir, 's2')], recipe);
    expect(cells(again.table)).toBe(cells(whole.table));
  }, 60_000);

  it('fails the merged run when no item of any shard succeeded, with the line the unsharded run ends with', async () => {
    const all = () => true;
    const whole = await grid('whole-none', all);
    const unsharded = whole.reproduction.runs.find((r) => r.id === 'llm-only');
    expect(unsharded).toMatchObject({ status: 'failed', noItemSucceeded: true });
    await grid('n1', all, 1);
    await grid('n2', all, 2);
    const merged = await mergeShards(join(dir, 'merged-none'), [join(dir, 'n1'), join(dir, 'n2')], recipe);
    expect(merged.runs.find((r) => r.id === 'llm-only')).toEqual({ id: 'llm-only', status: 'failed', items: LIMIT });
    const state = merged.table.runs.find((r) => r.id === 'llm-only');
    expect(state).toMatchObject({ status: 'failed', noItemSucceeded: true, error: unsharded?.error });
    expect(state?.error).toMatch(/^no item succeeded: 4 of 4 failed \(first error: /);
    expect(merged.warnings).toEqual([`run llm-only is failed in the merge: ${unsharded?.error}`]);
    expect(cells(merged.table)).toBe(cells(whole.table));
  }, 60_000);
});
