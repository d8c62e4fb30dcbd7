/**
 * Runs deeper than the listing searches (MAX_DEPTH, 3 folders under --runs): the listing says which
 * folders it did not search (`notSearched`, in /api/runs/summary and /v1/runs), and a reproduction's
 * grid runs (`<repro>/runs/<id>`) are searched wherever the reproduction lies. Before, a run four levels
 * down was in no list with no word, and `serve --runs .` above `runs/reproduce-x/` listed the
 * reproduction ("its cells are runs of their own, listed beside it") and none of its cells.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRunFigures } from '../../src/api/runs.js';
import { findRun, listRunsWithin } from './runs.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-runs-depth-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (...parts: string[]) => {
  const dir = join(root, ...parts);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 1, config: { system: 'case', mode: 'offline' }, provenance: {} }));
  writeFileSync(join(dir, 'results.jsonl'), `${JSON.stringify({ id: 'q1', prediction: 'A', gold: 'A', correct: true, ms: 1 })}\n`);
};

describe('the runs listing and its depth', () => {
  it('says which folders it did not search when runs lie deeper than it looks (they were left out with no word)', async () => {
    run('shallow', 'case-off');
    run('a', 'b', 'c', 'case-plan');
    const listed = await listRunsWithin(root);
    expect(listed.runs.map((r) => r.id)).toEqual(['shallow/case-off']);
    expect(listed.notSearched).toEqual({ depth: 3, dirs: 1, examples: ['a/b/c'] });
    const v1 = await listRunFigures(root);
    expect(v1.notSearched?.note).toBe(
      '1 folder 3 levels under the runs directory holds folders that were not searched for runs (e.g. a/b/c): runs below them are not listed; start the server with --runs on a folder nearer them',
    );
    // the run itself is still served by its id
    expect((await findRun(root, 'a/b/c/case-plan')).id).toBe('a/b/c/case-plan');
    // --runs nearer it lists it, and says nothing was left
    const nearer = await listRunsWithin(join(root, 'a'));
    expect(nearer.runs.map((r) => r.id)).toEqual(['b/c/case-plan']);
    expect(nearer.notSearched).toBeUndefined();
  });

  it("lists a reproduction's grid runs wherever it lies: runs/reproduce-x/runs/<id> under --runs . (4 levels)", async () => {
    const repro = join(root, 'runs', 'repro-t3');
    mkdirSync(repro, { recursive: true });
    writeFileSync(join(repro, 'reproduction.json'), JSON.stringify({ recipe: 'case-table3', runs: [] }));
    run('runs', 'repro-t3', 'runs', 'bm25');
    run('runs', 'repro-t3', 'runs', 'qld');
    const listed = await listRunsWithin(root);
    expect(listed.runs.map((r) => [r.id, r.parent])).toEqual([
      ['runs/repro-t3', undefined],
      ['runs/repro-t3/runs/bm25', 'runs/repro-t3'],
      ['runs/repro-t3/runs/qld', 'runs/repro-t3'],
    ]);
    expect(listed.notSearched).toBeUndefined();
    const v1 = await listRunFigures(root);
    expect(v1.runs.map((r) => r.id)).toContain('runs/repro-t3/runs/bm25');
    expect(v1.runs.find((r) => r.id === 'runs/repro-t3')?.note).toBe(
      'a reproduction: its cells are runs of their own (runs/repro-t3/runs/<cell>); 2 are listed beside it',
    );
  });

  it('a tree within the depth says nothing (a run dir is not searched below, and its folders are not "not searched")', async () => {
    run('x', 'y', 'z');
    mkdirSync(join(root, 'x', 'y', 'z', 'traces', 'deeper'), { recursive: true });
    const listed = await listRunsWithin(root);
    expect(listed.runs.map((r) => r.id)).toEqual(['x/y/z']);
    expect(listed.notSearched).toBeUndefined();
  });
});
