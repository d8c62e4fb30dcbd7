import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './tests/tiers.js';

// Unit and offline integration tests run in `npm test` (project "fast"); the process, browser and
// whole-system tests in `npm run test:slow` (project "slow", tests/tiers.ts); CI runs both.
// `*.int.test.ts` need a real LLM endpoint or a model download and run only when LEXCASE_INT=1.
const integration = process.env.LEXCASE_INT === '1';
const include = ['{core,serve,src,corpora,indexer,retrieval,agents,eval,tests,bench,web}/**/*.test.ts'];
const exclude = ['node_modules/**', 'dist/**', ...(integration ? [] : ['**/*.int.test.ts'])];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Index verification records go to a temp dir per test file, not the user's cache.
    setupFiles: ['tests/support/verify-cache-setup.ts'],
    projects: [
      { extends: true, test: { name: 'fast', include, exclude: [...exclude, ...SLOW_TESTS] } },
      { extends: true, test: { name: 'slow', include: [...SLOW_TESTS], exclude } },
    ],
  },
});
