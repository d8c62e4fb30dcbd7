/**
 * `reproduce --only` names runs of the recipe: an id the recipe does not have is refused, naming it
 * and the run meant, before anything is written. Before, `--only bm25,qdl` ran bm25 alone and said
 * nothing of qdl, and `--only bm-25` ran nothing at all and exited 0.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRecipe } from './recipe.js';
import { runGrid, type RunGridOptions } from './run-grid.js';

const dir = mkdtempSync(join(tmpdir(), 'repro-only-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reproduce --only', () => {
  it('an id that is no run of the recipe is a usage error with the run meant; nothing is written', async () => {
    const { recipe, text } = loadRecipe('case-table3');
    const out = join(dir, 'r');
    const grid = (only: string[]) => runGrid({ recipe, recipeText: text, dir: out, only } as unknown as RunGridOptions);
    await expect(grid(['bm25', 'qdl'])).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('"qdl" is no run of case-table3; did you mean "qld"?'),
    });
    await expect(grid(['bm-25'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('did you mean "bm25"?') });
    expect(existsSync(out)).toBe(false);
  });
});
