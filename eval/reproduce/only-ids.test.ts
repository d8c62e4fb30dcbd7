/**
 * `reproduce --only` names runs of the recipe: an id the recipe does not have is refused, naming it
 * and the run meant, before anything is written. Before, `--only bm25,qdl` ran bm25 alone and said
 * nothing of qdl, and `--only bm-25` ran nothing at all and exited 0.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../tests/support/run-cli.js';
import { loadRecipe } from './recipe.js';
import { runGrid, type RunGridOptions } from './run-grid.js';

const dir = mkdtempSync(join(tmpdir(), 'repro-only-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

describe('reproduce --only', () => {
  it('an id that is no run of the recipe is a usage error with the run meant; nothing is written', async () => {
    const { recipe, text } = loadRecipe('case-table3');
    const out = join(dir, 'r');
    const grid = (only: string[]) => runGrid({ recipe, recipeText: text, dir: out, only } as unknown as RunGridOptions);
    await expect(grid(['bm25', 'qdl'])).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('--only: "qdl" is no run of case-table3, did you mean "qld"?'),
    });
    await expect(grid(['bm-25'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('did you mean "bm25"?') });
    expect(existsSync(out)).toBe(false);
  });

  it('lexcase reproduce refuses the id before it asks the endpoint (it said "not reachable" first), in one clause per id', async () => {
    vi.stubEnv('LEXCASE_LLM_BASE_URL', 'http://127.0.0.1:9/v1'); // nothing listens there
    vi.stubEnv('LEXCASE_LLM_MODEL', 'm');
    const out = join(dir, 'cli');
    const r = await runCli(['reproduce', 'case-table2', '--only', 'bm25-rag-k3,bm25-rag-k33,zzz', '--run-dir', out, '--limit', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--only: "bm25-rag-k33" is no run of case-table2, did you mean "bm25-rag-k3"?; "zzz" is no run of case-table2\n');
    expect(r.stderr).not.toContain('reachable');
    expect(existsSync(out)).toBe(false);
  });
});
