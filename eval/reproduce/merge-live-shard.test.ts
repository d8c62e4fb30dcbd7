/**
 * `lexcase merge` refuses a shard a live `lexcase reproduce` is still writing: before, with shard 2
 * re-run to retry its failed item (every item already has a line), the merge went through on the
 * failed line — the merged table counted the item failed while the retry was answering it — and
 * said nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../../core/errors.js';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { contextFrom, runExperiment } from '../runner.js';
import { readResults } from '../run-dir.js';
import { mergeShards } from './merge.js';
import { loadRecipe } from './recipe.js';
import { runDirOf } from './reproduction-dir.js';
import { runGrid, type CommandRunner } from './run-grid.js';

const LIMIT = 5;
let dir: string;
let questions: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merge-live-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `lexcase run baseline … --run-dir D` as the grid runs it in process, answering "A"; with `fail`, the shard's first item ends in an HTTP 500. */
const runner =
  (fail: boolean, before?: () => Promise<void>): CommandRunner =>
  async (argv) => {
    await before?.();
    const limit = Number(argv[argv.indexOf('--limit') + 1]);
    let calls = 0;
    await runExperiment({
      runDir: argv[argv.indexOf('--run-dir') + 1],
      system: async (q: Question) => {
        if (fail && ++calls === 1) throw errors.llmRequestFailed(`HTTP 500: upstream error (${q.id})`);
        return { prediction: 'A', trace: {} };
      },
      items: questions.slice(0, limit),
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit },
      seed: 13,
    });
    return { code: 0, stdout: '', stderr: '' };
  };

describe('merge and a shard still being run', () => {
  it('refuses the shard a live reproduce is retrying, naming it, and merges once it is done', async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2] = ['s1', 's2'].map((d) => join(dir, d));
    const grid = (d: string, i: number, run: CommandRunner) =>
      runGrid({ recipe, recipeText: text, dir: d, limit: LIMIT, shard: { index: i, count: 2 }, only: ['llm-only'], runCommand: run });
    await grid(s1, 1, runner(false));
    await grid(s2, 2, runner(true));
    const failedIn = async (d: string) => (await readResults(runDirOf(d, 'llm-only'))).records.filter((r) => r.error).length;
    expect(await failedIn(s2)).toBe(1);

    // shard 2 run again to retry its failed item; held just before its run starts
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let started!: () => void;
    const atRun = new Promise<void>((r) => {
      started = r;
    });
    const retry = grid(
      s2,
      2,
      runner(false, async () => {
        started();
        await gate;
      }),
    );
    await atRun;
    try {
      await expect(mergeShards(join(dir, 'merged-early'), [s1, s2], recipe)).rejects.toThrow(
        new RegExp(
          `${s2}.*is still being written \\(reproduce case-table2, pid ${process.pid}, since .*\\): its results can change before the merge ends; merge once it has finished`,
        ),
      );
    } finally {
      release();
      await retry;
    }
    expect(await failedIn(s2)).toBe(0);
    const m = await mergeShards(join(dir, 'merged'), [s1, s2], recipe);
    expect(m.runs[0]).toMatchObject({ status: 'done', items: LIMIT });
    expect((await readResults(runDirOf(join(dir, 'merged'), 'llm-only'))).records.filter((r) => r.error)).toHaveLength(0);
  }, 60_000);
});

describe('merge and a shard whose run failed', () => {
  it('the merged run is failed, naming the shard and its error — not "done" with the results an earlier attempt left', async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2] = ['f1', 'f2'].map((d) => join(dir, d));
    const grid = (d: string, i: number, run: CommandRunner) =>
      runGrid({ recipe, recipeText: text, dir: d, limit: LIMIT, shard: { index: i, count: 2 }, only: ['llm-only'], runCommand: run });
    await grid(s1, 1, runner(false));
    await grid(s2, 2, runner(false));
    // shard 2 run again and refused (its run dir holds the earlier attempt's results)
    const refused: CommandRunner = async () => ({
      code: 1,
      stdout: '',
      stderr: '[error] run runs/llm-only: was started with a different config (field "temperature" differs); use a new run dir\n',
    });
    await grid(s2, 2, refused);
    const m = await mergeShards(join(dir, 'merged-failed'), [s1, s2], recipe);
    expect(m.runs[0]).toMatchObject({ id: 'llm-only', status: 'failed' });
    expect(m.warnings?.join('\n')).toMatch(/run llm-only is failed in the merge: shard 2 \(.*f2\): failed — .*field "temperature" differs/);
    const cell = m.table.rows.find((r) => r.label === 'LLM-Only')!.cells[0];
    expect(cell).toMatchObject({ value: null, status: 'failed' });
  }, 60_000);
});
