/**
 * The docs check's --recipes step does not run again a recipe that a block above already reproduced
 * from the installed package (tests/docs/docs-check.ts reproducedRecipe): README.md's `npx lexcase
 * reproduce case-table3 --limit 20`, docs/llm.md's case-table2 --limit 5, docs/reproductions.md's
 * acal-table4 shards. What counts: `[npx] lexcase reproduce <id>`, not a --replay, at --limit 2 or
 * more, whose run dir holds the table.md it wrote.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reproducedRecipe } from './docs-check.js';

const cwd = mkdtempSync(join(tmpdir(), 'lexcase-docs-recipes-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const table = (dir: string) => {
  mkdirSync(join(cwd, dir), { recursive: true });
  writeFileSync(join(cwd, dir, 'table.md'), '| row | R@10 |\n');
};

describe('docs check: a recipe reproduced by a block', () => {
  it('is the id of `lexcase reproduce <id>` whose run dir holds table.md', () => {
    expect(reproducedRecipe('npx lexcase reproduce case-table3 --limit 20', cwd)).toBeUndefined(); // nothing written yet
    table('runs/reproduce-case-table3-n20');
    expect(reproducedRecipe('npx lexcase reproduce case-table3 --limit 20', cwd)).toBe('case-table3');
    table('runs/reproduce-acal-table4-n10-shard1of2');
    expect(reproducedRecipe('lexcase reproduce acal-table4 --endpoint http://127.0.0.1:1/v1 --model M --limit 10 --shard 1/2   # host 1 → runs/…', cwd)).toBe(
      'acal-table4',
    );
    table('out/mine');
    expect(reproducedRecipe('lexcase reproduce mad-rounds --limit 2 --run-dir out/mine', cwd)).toBe('mad-rounds');
  });

  it('is none for a replay, a --limit under 2, another command, or another run dir', () => {
    table('runs/reproduce-case-table2-n5-replay');
    expect(reproducedRecipe('lexcase reproduce case-table2 --limit 5 --replay runs/reproduce-case-table2-n5', cwd)).toBeUndefined();
    table('runs/reproduce-emar-table4-n1');
    expect(reproducedRecipe('lexcase reproduce emar-table4 --limit 1', cwd)).toBeUndefined();
    expect(reproducedRecipe('lexcase reproduce', cwd)).toBeUndefined();
    expect(reproducedRecipe('lexcase report runs/reproduce-case-table3-n20', cwd)).toBeUndefined();
    expect(reproducedRecipe('lexcase reproduce case-table3 --limit 20 --run-dir elsewhere', cwd)).toBeUndefined();
  });
});
