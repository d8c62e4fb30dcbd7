/**
 * A reproduction table's column over runs that read one per-item metric two ways — MAD declares its
 * round flag an outcome of every item (an item without it counted as 0), a system of the user's own a
 * proportion (over the items that recorded it) — says so, as `lexcase compare` says it of two such
 * runs (eval/stats outcomeDeclarations pairs both). From the same results (12 Bar Exam QA val items,
 * 6 right, 2 failed before any judgment) the column read 50.00 n=12 beside 60.00 n=10, the second
 * cell saying nothing of its denominator and no note saying the two differ.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadQuestions } from '../../corpora/registry.js';
import { loadRecipe, parseRecipe } from './recipe.js';
import { runDirOf } from './reproduction-dir.js';
import { buildTable, tableMarkdown } from './table.js';

const dir = mkdtempSync(join(tmpdir(), 'repro-mixed-outcomes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLUMN = 'Acc. after round 1';

async function writeRun(runId: string, system: string, kind: string) {
  const qs = (await loadQuestions('barexam', 'val')).slice(0, 12);
  const d = runDirOf(dir, runId);
  mkdirSync(d, { recursive: true });
  // items 1–6 right; 11 and 12 failed before any judgment: no round flag
  const line = (q: (typeof qs)[number], i: number) =>
    JSON.stringify({
      id: q.id,
      prediction: i < 10 ? (i < 6 ? q.answer : q.answer === 'A' ? 'B' : 'A') : null,
      gold: q.answer,
      correct: i < 6,
      ms: 5,
      ...(i < 10 ? { metrics: { correctAfterRound1: i < 6 } } : { error: 'LLM_OUTPUT_INVALID: the judge' }),
    });
  writeFileSync(join(d, 'results.jsonl'), `${qs.map(line).join('\n')}\n`);
  writeFileSync(
    join(d, 'config.json'),
    JSON.stringify({ seed: 13, config: { system, rounds: 1 }, metricKinds: { correctAfterRound1: kind }, provenance: { items: 12 } }),
  );
}

/** mad-rounds with one column, the mean of correctAfterRound1, over its two runs' rows, built from the run dirs. */
async function table(file: string) {
  const { recipe: base } = loadRecipe('mad-rounds');
  const rows = base.rows
    .filter((r) => ['mad-r1-sparse', 'single-rag'].includes(r.cells[0].run))
    .map((r) => ({ ...r, cells: [{ column: COLUMN, run: r.cells[0].run, paper: null, metric: { stat: 'mean', key: 'correctAfterRound1' } }] }));
  const recipe = parseRecipe({ ...base, columns: [COLUMN], runs: base.runs.filter((r) => rows.some((x) => x.cells[0].run === r.id)), rows }, file);
  const runs = rows.map((r) => ({ id: r.cells[0].run, system: 'mad', status: 'done' as const }));
  return buildTable(dir, recipe, { limit: 12, shard: null, runs });
}

describe('reproduction table: a column over runs that declare its metric an outcome and runs that do not', () => {
  it('says so in a note and gives each cell its denominator (it said nothing beside 50.00 n=12 and 60.00 n=10)', async () => {
    await writeRun('mad-r1-sparse', 'mad/mad', 'outcome');
    await writeRun('single-rag', 'my-debate', 'proportion');
    const t = await table('mixed.json');
    expect(t.rows.map((r) => [r.cells[0].value, r.cells[0].n, r.cells[0].over])).toEqual([
      [50, 12, 'over every item (n = 12), the 2 that did not record it counted as 0 (metric kind outcome)'],
      [60, 10, 'over the 10 items that recorded it (2 of 12 did not and are left out)'],
    ]);
    expect(t.notes).toContain(
      `Column ${COLUMN} (mean of correctAfterRound1): run \`mad-r1-sparse\` declares it an outcome of every item (metric kind outcome: an item without it counted as 0, as report.md counts it), run \`single-rag\` does not (over the items that recorded it): the column's cells have different denominators, each cell says its own.`,
    );
    expect(tableMarkdown(t)).toContain('60.00 [31.27, 83.18] 95% Wilson n=10 (over the 10 items that recorded it (2 of 12 did not and are left out))');
  });

  it('a column whose runs all declare it so has no such note', async () => {
    await writeRun('mad-r1-sparse', 'mad/mad', 'outcome');
    await writeRun('single-rag', 'mad/mad', 'outcome');
    const t = await table('same.json');
    expect(t.rows.map((r) => [r.cells[0].value, r.cells[0].n])).toEqual([
      [50, 12],
      [50, 12],
    ]);
    expect(t.notes.filter((n) => n.startsWith('Column '))).toEqual([]);
  });
});
