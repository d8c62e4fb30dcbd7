/**
 * `lexcase merge` builds the merged table from the recipe the shards ran: before, it loaded the recipe
 * of the shards' name (the bundled one) with no word, so shards run from an edited copy of a recipe
 * (another metric under a column, another paper figure) got the bundled rows and paper figures in the
 * merged table, exit 0.
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
import { runGrid } from './run-grid.js';
import { baselineRunner } from './test-support/baseline-runner.js';

const LIMIT = 6;
let dir: string;
let questions: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merge-recipe-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `lexcase run baseline … --run-dir D` as the grid runs it in process, answering "A" to every question. */
const runner = baselineRunner(() => questions);

describe('merge and the recipe the shards ran', () => {
  it('refuses a recipe of the same name with another text, warns when --recipe names it, and merges with the shards own', async () => {
    const bundled = loadRecipe('case-table2');
    // the user's copy: the LLM-Only paper figure edited
    const mine = JSON.parse(bundled.text);
    mine.rows.find((r: { label: string }) => r.label === 'LLM-Only').cells[0].paper = 50;
    const file = join(dir, 'my-case-table2.json');
    writeFileSync(file, JSON.stringify(mine, null, 2));
    const copy = loadRecipe(file);
    const [s1, s2] = ['s1', 's2'].map((d) => join(dir, d));
    for (const [i, d] of [s1, s2].entries())
      await runGrid({
        recipe: copy.recipe,
        recipeText: copy.text,
        // the shards ran the copy from where it was on their host
        recipeArg: '/srv/shared/my-case-table2.json',
        dir: d,
        limit: LIMIT,
        shard: { index: i + 1, count: 2 },
        only: ['llm-only'],
        runCommand: runner,
      });

    const paperOf = (m: Awaited<ReturnType<typeof mergeShards>>) => m.table.rows.find((r) => r.label === 'LLM-Only')!.cells[0].paper;
    // by name (no --recipe): the bundled case-table2 is another text than the shards'
    await expect(mergeShards(join(dir, 'm-bundled'), [s1, s2], bundled.recipe, { ...bundled, explicit: false })).rejects.toThrow(
      /merge: the recipe .*case-table2\.json \(sha256 [0-9a-f]{12}\) is not the one the shards ran \(sha256 [0-9a-f]{12}, .*s1\/reproduction\.json\)/,
    );
    // --recipe naming the bundled one: taken, with a warning in the result
    const chosen = await mergeShards(join(dir, 'm-chosen'), [s1, s2], bundled.recipe, { ...bundled, explicit: true });
    expect(paperOf(chosen)).toBe(65.32);
    expect(chosen.warnings?.join('\n')).toMatch(/is not the one the shards ran.*the table is built from it as --recipe asks/);
    // --recipe with the shards' own file: their paper figure, no warning
    const own = await mergeShards(join(dir, 'm-own'), [s1, s2], copy.recipe, { ...copy, explicit: true, arg: 'my-case-table2.json' });
    expect(paperOf(own)).toBe(50);
    expect(own.warnings).toBeUndefined();
    // the rerun command names the recipe file --recipe gave (before: the shards' /srv/shared/my-case-table2.json)
    const repro = JSON.parse(readFileSync(join(dir, 'm-own', 'reproduction.json'), 'utf8')) as { argv: string[] };
    expect(repro.argv.slice(0, 2)).toEqual(['reproduce', 'my-case-table2.json']);
    expect(repro.argv).toContain(join(dir, 'm-own'));
    // --recipe given as a file (no arg recorded): that file
    const byName = JSON.parse(readFileSync(join(dir, 'm-chosen', 'reproduction.json'), 'utf8')) as { argv: string[] };
    expect(byName.argv[1]).toBe(bundled.file);
    expect(readFileSync(join(dir, 'm-own', 'table.md'), 'utf8')).toContain('paper 50.00');
  }, 60_000);
});
