import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './tests/tiers.js';

// Unit and offline integration tests run in `npm test` (project "fast"); the process, browser and
// whole-system tests in `npm run test:slow` (project "slow", tests/tiers.ts); CI runs both.
// `*.int.test.ts` need a real LLM endpoint or a model download and run only when LEXCASE_INT=1.
const integration = process.env.LEXCASE_INT === '1';
const include = ['{core,serve,src,corpora,indexer,retrieval,agents,eval,tests,bench,web}/**/*.test.ts'];
const exclude = ['node_modules/**', 'dist/**', ...(integration ? [] : ['**/*.int.test.ts'])];

// Test files run in parallel, one per worker. Vitest's own default is one core less than the
// machine has: 1 on a 2-core machine, where both tiers then ran one file at a time. The fast tier
// computes, so it gets a worker per core; the slow tier's files mostly wait on the child processes
// and browsers they start, so it gets one more. VITEST_MAX_WORKERS=N overrides both (e.g. 1: one
// file at a time); vitest's --maxWorkers flag does not, as it sets the root and each project keeps its own.
const cores = availableParallelism();
const fromEnv = Number.parseInt(process.env.VITEST_MAX_WORKERS ?? '', 10);
const workers = (perTier: number) => (fromEnv > 0 ? fromEnv : perTier);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Index verification records go to a temp dir per test file, not the user's cache.
    setupFiles: ['tests/support/verify-cache-setup.ts'],
    projects: [
      // the two tiers have their own worker counts, so `npm run test:all` runs them one after the other (groupOrder)
      {
        extends: true,
        // isolate: false — a worker runs its files one after another in one module graph instead of a
        // fresh one per file: the fast tier re-imported the code under test for each of its ~190 files
        // (48 of them: 148 → 117 s CPU). Each file starts from a fresh process's settings and puts back
        // what it changed (tests/support/shared-state-setup.ts: progress, log level, env, cwd): an
        // in-process `--json` command had left progress off for the next file (core/progress.test.ts failed in CI).
        test: {
          name: 'fast',
          setupFiles: ['tests/support/shared-state-setup.ts', 'tests/support/file-cpu-setup.ts'],
          include,
          exclude: [...exclude, ...SLOW_TESTS],
          maxWorkers: workers(Math.max(2, cores)),
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // the package tests share one `npm pack` per run (tests/support/installed-package.ts).
        // Shared workers too (isolate: false, the same setup as the fast tier): at VITEST_MAX_WORKERS=1
        // and load 2, 14 child-process files went 70.0 → 50.7 s CPU, 12 in-process ones 139.9 → 139.5.
        test: {
          name: 'slow',
          setupFiles: ['tests/support/shared-state-setup.ts', 'tests/support/file-cpu-setup.ts'],
          include: [...SLOW_TESTS],
          exclude,
          globalSetup: ['tests/support/pack-dir-setup.ts'],
          isolate: false,
          maxWorkers: workers(Math.max(3, cores + 1)),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
