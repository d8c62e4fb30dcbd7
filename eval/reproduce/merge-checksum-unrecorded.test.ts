/**
 * `lexcase merge` refuses a shard whose results.jsonl its checksums.json does not record: before, a
 * shard copied to the merging host without its checksums.json (or one whose reproduce stopped before
 * it wrote it) merged as it was — an edited copy's answers included — and the merged table's accuracy
 * moved with no word and exit 0.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merge-unrecorded-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `lexcase run baseline … --run-dir D` as the grid runs it in process, answering "A" to every question. */
const runner = baselineRunner(() => questions);

describe('merge and a shard results.jsonl with no recorded checksum', () => {
  it("refuses the shard, naming it, the file and the resume that records it (with the shard's --limit), whether checksums.json is gone or does not list the file", async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2] = ['s1', 's2'].map((d) => join(dir, d));
    for (const [i, d] of [s1, s2].entries())
      await runGrid({ recipe, recipeText: text, dir: d, limit: LIMIT, shard: { index: i + 1, count: 2 }, only: ['llm-only'], runCommand: runner });
    // as the shards were written, they merge
    expect((await mergeShards(join(dir, 'merged'), [s1, s2], recipe)).runs[0]).toMatchObject({ status: 'done', items: LIMIT });

    // shard 2's answers edited into the gold ones (its copy changed after the run), its checksums.json left behind
    const results = join(runDirOf(s2, 'llm-only'), 'results.jsonl');
    const edited = readFileSync(results, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const r = JSON.parse(l);
        return `${JSON.stringify({ ...r, prediction: r.gold, correct: true })}\n`;
      })
      .join('');
    expect(edited).not.toBe(readFileSync(results, 'utf8'));
    writeFileSync(results, edited);
    rmSync(join(s2, 'checksums.json'));
    await expect(mergeShards(join(dir, 'merged-no-sums'), [s1, s2], recipe)).rejects.toThrow(
      new RegExp(
        `${s2}: runs/llm-only/results.jsonl has no checksum in checksums.json \\(the file is missing\\).*--run-dir ${s2} --shard 2/2 --limit ${LIMIT}\``,
      ),
    );
    // a checksums.json that lists other files only
    writeFileSync(join(s2, 'checksums.json'), JSON.stringify({ 'runs/bm25-rag-k3/results.jsonl': 'x'.repeat(64) }));
    await expect(mergeShards(join(dir, 'merged-unlisted'), [s1, s2], recipe)).rejects.toThrow(
      /runs\/llm-only\/results\.jsonl has no checksum in checksums\.json \(it does not list it\)/,
    );
  }, 60_000);

  it('a leftover run dir that is no run of the recipe does not block the merge: it is named as ignored', async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2] = ['t1', 't2'].map((d) => join(dir, d));
    for (const [i, d] of [s1, s2].entries())
      await runGrid({ recipe, recipeText: text, dir: d, limit: LIMIT, shard: { index: i + 1, count: 2 }, only: ['llm-only'], runCommand: runner });
    // shard 2's folder also holds a run an older grid left (no checksum recorded), and its checksums.json lists a
    // results.jsonl of another such run that is gone
    const stale = join(s2, 'runs', 'case-k3-old');
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'results.jsonl'), `${JSON.stringify({ id: 'mbe_1', prediction: 'A', gold: 'B', correct: false, ms: 1 })}\n`);
    const sums = JSON.parse(readFileSync(join(s2, 'checksums.json'), 'utf8'));
    writeFileSync(join(s2, 'checksums.json'), JSON.stringify({ ...sums, 'runs/mad-k5-old/results.jsonl': 'x'.repeat(64) }));
    const warn = vi.spyOn(log, 'warn');
    try {
      // before: "runs/case-k3-old/results.jsonl has no checksum in checksums.json (it does not list it)"
      const merged = await mergeShards(join(dir, 'merged-leftover'), [s1, s2], recipe);
      expect(merged.runs.find((r) => r.id === 'llm-only')).toMatchObject({ status: 'done', items: LIMIT });
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toContain(
        `merge: ${s2}/runs holds case-k3-old, mad-k5-old, no run of recipe case-table2: ignored (not merged, not checked)`,
      );
    } finally {
      warn.mockRestore();
    }
    // a recipe run's results.jsonl with no checksum still refuses
    writeFileSync(join(s2, 'checksums.json'), JSON.stringify({}));
    await expect(mergeShards(join(dir, 'merged-leftover-2'), [s1, s2], recipe)).rejects.toThrow(/runs\/llm-only\/results\.jsonl has no checksum/);
  }, 60_000);
});
