/**
 * A runs directory with more runs than a listing holds (RUNS_LISTED): the listing says it was cut
 * (the explorer's runs list, /api/runs/summary, /v1/runs), and a run it left out is still found by
 * its id (its view, /v1/run) — before, runs past the 500th were dropped without a word and their
 * views answered 404.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRunFigures, runFigures } from '../../src/api/runs.js';
import { findRun, listRunsWithin, RUNS_LISTED } from './runs.js';

let root: string;
const N = RUNS_LISTED + 5;
const name = (i: number) => `r${String(i).padStart(4, '0')}`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-many-runs-'));
  for (let i = 1; i <= N; i++) {
    const dir = join(root, name(i));
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 1, config: { system: 'case', mode: 'offline' }, provenance: {} }));
    writeFileSync(join(dir, 'results.jsonl'), `${JSON.stringify({ id: 'q1', prediction: 'A', gold: 'A', correct: true, ms: 1 })}\n`);
  }
  // a reproduction listed 500th (after r0001..r0499), so the cut falls on its cells
  const repro = join(root, 'r0499x');
  mkdirSync(join(repro, 'runs', 'bm25'), { recursive: true });
  writeFileSync(join(repro, 'reproduction.json'), JSON.stringify({ recipe: 'case-table3', runs: [] }));
  writeFileSync(join(repro, 'runs', 'bm25', 'config.json'), JSON.stringify({ seed: 1, config: { system: 'case', mode: 'offline' }, provenance: {} }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`a runs directory holding more than ${RUNS_LISTED} runs`, () => {
  it('the listing holds the first RUNS_LISTED and says there are more; /v1/runs says so too', async () => {
    const listed = await listRunsWithin(root);
    expect(listed.runs).toHaveLength(RUNS_LISTED);
    expect(listed.truncated).toBe(true);
    const v1 = await listRunFigures(root);
    expect(v1.runs).toHaveLength(RUNS_LISTED);
    expect(v1.truncated).toEqual({ limit: RUNS_LISTED });
  });

  it("a reproduction whose cells fall past the cut says none of them is listed (it said 'listed beside it')", async () => {
    const v1 = await listRunFigures(root);
    expect(v1.runs.map((r) => r.id)).not.toContain('r0499x/runs/bm25');
    expect(v1.runs.find((r) => r.id === 'r0499x')?.note).toBe(
      `a reproduction: its cells are runs of their own (r0499x/runs/<cell>); 0 are listed beside it, and this list stops at ${RUNS_LISTED} runs (truncated): a cell it left out is served by its id`,
    );
    expect((await runFigures(root, { run: 'r0499x/runs/bm25' })).id).toBe('r0499x/runs/bm25');
  });

  it('a run the listing left out is found by its id; an id outside the root is not', async () => {
    const listed = new Set((await listRunsWithin(root)).runs.map((r) => r.id));
    const left = Array.from({ length: N }, (_, i) => name(i + 1)).find((id) => !listed.has(id))!;
    expect(left).toBeDefined();
    expect((await findRun(root, left)).id).toBe(left);
    expect((await runFigures(root, { run: left })).n).toBe(1);
    await expect(findRun(root, `../${left}`)).rejects.toThrow(/no run/);
  });

  it('a directory within the limit is not marked as cut', async () => {
    const small = mkdtempSync(join(tmpdir(), 'lexcase-few-runs-'));
    try {
      mkdirSync(join(small, 'a'));
      writeFileSync(join(small, 'a', 'config.json'), JSON.stringify({ seed: 1, config: { system: 'case' }, provenance: {} }));
      expect(await listRunsWithin(small)).toMatchObject({ truncated: false, runs: [{ id: 'a' }] });
      expect((await listRunFigures(small)).truncated).toBeUndefined();
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  });
});
