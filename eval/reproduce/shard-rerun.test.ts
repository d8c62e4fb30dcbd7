/**
 * A shard's LLM run prints the command that reruns it as that shard (`lexcase reproduce … --shard i/n`),
 * a merged reproduction the unsharded one (the merged dir, no --shard), and a shard's run dir is not
 * resumed outside its shard (before: `lexcase run … --run-dir <shard 1>/runs/llm-only` ran shard 2's
 * items into shard 1: "items in results 5, items planned 3").
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
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
  dir = mkdtempSync(join(tmpdir(), 'lexcase-shard-rerun-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `lexcase run baseline … --run-dir D` as the grid runs it in process (inside the shard), answering "A" to every item. */
const runBaseline = (runDir: string, limit = LIMIT) =>
  runExperiment({
    runDir,
    system: async () => ({ prediction: 'A', trace: {} }),
    items: questions.slice(0, limit),
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit },
    seed: 13,
  });
const fakeRun: CommandRunner = async (argv) => {
  await runBaseline(argv[argv.indexOf('--run-dir') + 1], Number(argv[argv.indexOf('--limit') + 1]));
  return { code: 0, stdout: '', stderr: '' };
};

describe('case-table2 llm-only in two shards', () => {
  it('prints each shard run with --shard, the merged run without it, and refuses a shard run dir resumed without its shard', async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2, merged] = ['s1', 's2', 'merged'].map((d) => join(dir, d));
    for (const [i, d] of [s1, s2].entries()) {
      const r = await runGrid({ recipe, recipeText: text, dir: d, limit: LIMIT, shard: { index: i + 1, count: 2 }, only: ['llm-only'], runCommand: fakeRun });
      // before: ['run', 'baseline', …, '--run-dir', '<s1>/runs/llm-only', '--limit', '5'] — no shard
      expect(r.reproduction.runs[0].argv).toEqual(['reproduce', 'case-table2', '--only', 'llm-only', '--run-dir', d, '--shard', `${i + 1}/2`, '--limit', '5']);
      expect(r.tableMd).toContain(`\`lexcase reproduce case-table2 --only llm-only --run-dir ${d} --shard ${i + 1}/2 --limit 5\``);
    }
    expect((await readResults(runDirOf(s1, 'llm-only'))).records).toHaveLength(3);

    const m = await mergeShards(merged, [s1, s2], recipe);
    // before: shard 1's command (its run dir)
    expect(m.table.runs[0].argv).toEqual(['reproduce', 'case-table2', '--only', 'llm-only', '--run-dir', merged, '--limit', '5']);
    expect(JSON.parse(readFileSync(join(runDirOf(merged, 'llm-only'), 'config.json'), 'utf8')).config.shard).toBeUndefined();

    // shard 1's run dir resumed as a plain run: refused, nothing added (before: it ran shard 2's 2 items into it)
    await expect(runBaseline(runDirOf(s1, 'llm-only'))).rejects.toThrow(
      /holds shard 1\/2 of a reproduction's items: resuming it without --shard would run other shards' items into it; resume it with `lexcase reproduce <recipe> --run-dir .*s1 --shard 1\/2`, or use a new run dir/,
    );
    expect((await readResults(runDirOf(s1, 'llm-only'))).records).toHaveLength(3);
    // a shard run dir an older lexcase wrote (no shard in config.json): its shard.json says which shard
    const cfgFile = join(runDirOf(s2, 'llm-only'), 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    delete cfg.config.shard;
    writeFileSync(cfgFile, JSON.stringify(cfg));
    await expect(runBaseline(runDirOf(s2, 'llm-only'))).rejects.toThrow(/holds shard 2\/2 of a reproduction's items/);
    // the merged run dir resumes unsharded: every item already done
    expect((await runBaseline(runDirOf(merged, 'llm-only'))).skipped).toBe(LIMIT);
  }, 60_000);
});

describe('more shards than items (--limit 2, three shards)', () => {
  it('the empty shard says so and records an empty run; merge joins the three (before: ENOENT, and a half-written OUT that refused the retry)', async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const shards = [1, 2, 3].map((i) => join(dir, `e-s${i}`));
    const warn = vi.spyOn(log, 'warn');
    for (const [i, d] of shards.entries())
      await runGrid({ recipe, recipeText: text, dir: d, limit: 2, shard: { index: i + 1, count: 3 }, only: ['llm-only'], runCommand: fakeRun });
    expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/shard 3\/3 has no items \(2 items, 3 shards\)/);
    warn.mockRestore();
    expect(readFileSync(join(runDirOf(shards[2], 'llm-only'), 'results.jsonl'), 'utf8')).toBe('');

    const m = await mergeShards(join(dir, 'e-merged'), shards, recipe);
    expect(m.runs[0]).toEqual({ id: 'llm-only', status: 'done', items: 2 });
    expect((await readResults(runDirOf(join(dir, 'e-merged'), 'llm-only'))).records.map((r) => r.id)).toEqual(questions.slice(0, 2).map((q) => q.id));

    // an empty shard an older lexcase wrote (no results.jsonl, so none in checksums.json) merges too
    const forget = (shard: string) => {
      rmSync(join(runDirOf(shard, 'llm-only'), 'results.jsonl'));
      writeFileSync(join(shard, 'checksums.json'), '{}');
    };
    forget(shards[2]);
    expect((await mergeShards(join(dir, 'e-merged-old'), shards, recipe)).runs[0]).toMatchObject({ status: 'done', items: 2 });
    // a shard with items and no results.jsonl is refused before OUT is written
    forget(shards[1]);
    await expect(mergeShards(join(dir, 'e-merged-bad'), shards, recipe)).rejects.toThrow(/e-s2\/runs\/llm-only: has no results\.jsonl for its 1 items/);
    expect(existsSync(join(dir, 'e-merged-bad'))).toBe(false);
  }, 60_000);
});
