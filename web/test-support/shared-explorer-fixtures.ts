/**
 * The explorer fixtures (explorer-fixtures.ts) shared by the test files of one slow-tier run that only
 * read them. (A module of its own: it imports vitest, which readme-screenshots.ts, a script, must not.)
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { makeExplorerFixtures, type ExplorerFixtures } from './explorer-fixtures.js';

type Shared = Omit<ExplorerFixtures, 'cleanup'>;

/**
 * makeExplorerFixtures(4, { systems: true, reproduction: true }) made once per run of the slow tier,
 * for files that only read them (the layout checks, explorer-layout.ts): the first caller builds them
 * in the run's shared dir (tests/support/pack-dir-setup.ts) holding a lock dir, the others wait and
 * use the same runs and index (~4 s of CPU each saved). cleanup() closes this process's index handles;
 * the dir goes when the run ends. Where no run provides that dir, each caller builds its own.
 */
export async function sharedExplorerFixtures(): Promise<ExplorerFixtures> {
  const opts = { systems: true, reproduction: true };
  const shared = inject('packDir');
  if (!shared) return makeExplorerFixtures(4, opts);
  const done = join(shared, 'explorer-fixtures.json');
  const lock = join(shared, 'explorer-fixtures.lock');
  const use = (x: Shared): ExplorerFixtures => ({ ...x, cleanup: () => closeSparseIndexes(x.index) });
  for (;;) {
    if (existsSync(done)) return use(JSON.parse(readFileSync(done, 'utf8')) as Shared);
    try {
      mkdirSync(lock);
    } catch {
      await new Promise((r) => setTimeout(r, 200)); // another file is building them
      continue;
    }
    try {
      if (existsSync(done)) continue;
      const root = join(shared, 'explorer-fixtures');
      rmSync(root, { recursive: true, force: true }); // what a failed build left
      mkdirSync(root);
      const { cleanup: _cleanup, ...made } = await makeExplorerFixtures(4, { ...opts, root });
      writeFileSync(`${done}.tmp`, JSON.stringify(made));
      renameSync(`${done}.tmp`, done);
      return use(made);
    } finally {
      rmdirSync(lock); // after a failed build the next caller tries again
    }
  }
}
