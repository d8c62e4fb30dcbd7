/**
 * `lexcase merge` refuses shards that read different text for the same items: each shard records the
 * checksum of every item's text (shard.json `allContentChecksum`), not only of the items it ran.
 * Before, two hosts whose copies of the data differed by one reworded question (same id, same gold
 * label) merged into one figure over two versions of the data, with no word and exit 0. Shards of an
 * older lexcase, which record no such checksum, merge with one note naming them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { mergeShards } from './merge.js';
import { loadRecipe } from './recipe.js';
import { runDirOf } from './reproduction-dir.js';
import { runGrid } from './run-grid.js';
import { baselineRunner } from './test-support/baseline-runner.js';

const LIMIT = 6;
let dir: string;
let questions: Question[];
/** The questions the next shard reads (one host's copy of the data). */
let copy: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merge-item-text-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function shards(names: string[], copies: Question[][]): Promise<string[]> {
  const { recipe, text } = loadRecipe('case-table2');
  const dirs = names.map((n) => join(dir, n));
  for (const [i, d] of dirs.entries()) {
    copy = copies[i];
    await runGrid({
      recipe,
      recipeText: text,
      dir: d,
      limit: LIMIT,
      shard: { index: i + 1, count: names.length },
      only: ['llm-only'],
      runCommand: baselineRunner(() => copy),
    });
  }
  return dirs;
}

describe('merge and shards that read other item text', () => {
  it('refuses shards whose copies of the data differ by one reworded question (same ids and gold), naming both shard run dirs', async () => {
    const { recipe } = loadRecipe('case-table2');
    // host 2's copy: the second question (shard 2's item) reworded, its id and answer kept; host 1 ran the others as they were
    const reworded = questions.map((q, i) => (i === 1 ? { ...q, question: `${q.question} (Reworded.)` } : q));
    const [s1, s2] = await shards(['a1', 'a2'], [questions, reworded]);
    const shard1 = JSON.parse(readFileSync(join(runDirOf(s1, 'llm-only'), 'shard.json'), 'utf8'));
    expect(shard1.allContentChecksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    // before: merged 2 shards, llm-only done with 6 items, no warning
    await expect(mergeShards(join(dir, 'merged-a'), [s1, s2], recipe)).rejects.toThrow(
      `${runDirOf(s2, 'llm-only')}: read other item text than ${runDirOf(s1, 'llm-only')} (the same ${LIMIT} item ids, but the question, options or text a model is shown differs`,
    );
    // the same copy on both hosts merges
    const [t1, t2] = await shards(['b1', 'b2'], [questions, questions]);
    expect((await mergeShards(join(dir, 'merged-b'), [t1, t2], recipe)).runs[0]).toMatchObject({ status: 'done', items: LIMIT });
  }, 60_000);

  it('refuses shards 2 and 3 that read other text when shard 1, of an older lexcase, records none (before: merged, the note naming shard 1 only)', async () => {
    const { recipe } = loadRecipe('case-table2');
    // host 3's copy: the third question (shard 3's item) reworded; shard 1 from an older lexcase
    const reworded = questions.map((q, i) => (i === 2 ? { ...q, question: `${q.question} (Reworded.)` } : q));
    const [s1, s2, s3] = await shards(['d1', 'd2', 'd3'], [questions, questions, reworded]);
    const f = join(runDirOf(s1, 'llm-only'), 'shard.json');
    const { allContentChecksum: _, ...older } = JSON.parse(readFileSync(f, 'utf8'));
    writeFileSync(f, JSON.stringify(older));
    await expect(mergeShards(join(dir, 'merged-d'), [s1, s2, s3], recipe)).rejects.toThrow(
      `${runDirOf(s3, 'llm-only')}: read other item text than ${runDirOf(s2, 'llm-only')} (the same ${LIMIT} item ids`,
    );
  }, 60_000);

  it('merges shards of an older lexcase (no allContentChecksum) with one note naming them, recorded in the run', async () => {
    const { recipe } = loadRecipe('case-table2');
    const [s1, s2] = await shards(['c1', 'c2'], [questions, questions]);
    for (const s of [s1, s2]) {
      const f = join(runDirOf(s, 'llm-only'), 'shard.json');
      const { allContentChecksum: _, ...older } = JSON.parse(readFileSync(f, 'utf8'));
      writeFileSync(f, JSON.stringify(older));
    }
    // checksums.json does not cover shard.json: the shards stay as an older lexcase left them
    const warn = vi.spyOn(log, 'warn');
    try {
      const merged = await mergeShards(join(dir, 'merged-c'), [s1, s2], recipe);
      expect(merged.runs[0]).toMatchObject({ status: 'done', items: LIMIT });
      const notes = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('allContentChecksum'));
      expect(notes).toEqual([
        `merge: ${runDirOf(s1, 'llm-only')}, ${runDirOf(s2, 'llm-only')} were written by an older lexcase, whose shard.json records no checksum of the items' text (allContentChecksum): the merge cannot check that the shards read the same question text (only the item ids are checked)`,
      ]);
      const config = JSON.parse(readFileSync(join(runDirOf(merged.out, 'llm-only'), 'config.json'), 'utf8'));
      expect(config.mergeWarnings.join('\n')).toContain('allContentChecksum');
    } finally {
      warn.mockRestore();
    }
  }, 60_000);
});
