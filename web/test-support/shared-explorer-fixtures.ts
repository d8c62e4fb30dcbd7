/**
 * The explorer fixtures (explorer-fixtures.ts) shared by the test files of one slow-tier run that only
 * read them. (A module of its own: it imports vitest, which readme-screenshots.ts, a script, must not.)
 */
import { closeSparseIndexes } from '../../retrieval/open.js';
import { sharedOnce } from '../../tests/support/shared-once.js';
import { makeExplorerFixtures, type ExplorerFixtures } from './explorer-fixtures.js';

type Shared = Omit<ExplorerFixtures, 'cleanup'>;

/**
 * makeExplorerFixtures(4, { systems: true, reproduction: true }) made once per run of the slow tier,
 * for files that only read them (the layout checks, explorer-layout.ts): the first caller builds them
 * in the run's shared dir (tests/support/shared-once.ts) holding a lock dir, the others wait and
 * use the same runs and index (~4 s of CPU each saved). cleanup() closes this process's index handles;
 * the dir goes when the run ends. Where no run provides that dir, each caller builds its own.
 */
export async function sharedExplorerFixtures(): Promise<ExplorerFixtures> {
  const opts = { systems: true, reproduction: true };
  const made = await sharedOnce('explorer-fixtures', async (root): Promise<Shared> => {
    const { cleanup: _cleanup, ...x } = await makeExplorerFixtures(4, { ...opts, root });
    return x;
  });
  return made ? { ...made, cleanup: () => closeSparseIndexes(made.index) } : makeExplorerFixtures(4, opts);
}
