/**
 * What `npm pack` puts in the package (package.json `files`): everything an installed `lexcase`
 * reads at run time — the recipes `lexcase reproduce` lists and runs, the bundled data — and no
 * tests or test support. `lexcase reproduce` finds its recipes beside its own package, whatever the
 * cwd (an installed package used to look for <cwd>/recipes: ENOENT).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/version.js';
import { packedTarball } from './support/installed-package.js';
import { runBuiltCli } from './support/run-built-cli.js';

const recipes = readdirSync(join(PACKAGE_ROOT, 'recipes')).filter((f) => f.endsWith('.json'));

describe('the package', () => {
  it('ships every recipe and the bundled data, and no tests or test support', async () => {
    // the tarball the other package tests install, packed once per test run (its file list is npm pack's)
    const own = mkdtempSync(join(tmpdir(), 'lexcase-pack-files-'));
    let files: string[];
    try {
      files = (await packedTarball(own)).files;
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
    expect(recipes.length).toBeGreaterThan(5);
    expect(files).toEqual(
      expect.arrayContaining([...recipes.map((r) => `recipes/${r}`), 'dist/src/cli/main.js', 'dist/build-stamp.json', 'corpora/data/barexam/qa.jsonl.gz']),
    );
    expect(files.filter((f) => /(^|\/)tests\/|\.test\.|\/test-support\/|\/fixtures\//.test(f))).toEqual([]);
  }, 120_000);

  it('`lexcase reproduce` lists the recipes from any cwd', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'lexcase-recipes-cwd-'));
    try {
      const r = await runBuiltCli(['--json', 'reproduce'], { cwd });
      expect(r.code, r.stderr).toBe(0);
      expect(
        JSON.parse(r.stdout)
          .map((x: { id: string }) => `${x.id}.json`)
          .sort(),
      ).toEqual([...recipes].sort());
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
