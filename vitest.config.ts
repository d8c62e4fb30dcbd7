import { defineConfig } from 'vitest/config';

// Unit and offline integration tests run in `npm test`; `*.int.test.ts` need a real LLM endpoint
// or a model download and run only when LEXCASE_INT=1.
const integration = process.env.LEXCASE_INT === '1';

export default defineConfig({
  test: {
    include: ['{core,serve,src,corpora,indexer,retrieval,agents,eval,tests,bench,web}/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', ...(integration ? [] : ['**/*.int.test.ts'])],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Index verification records go to a temp dir per test file, not the user's cache.
    setupFiles: ['tests/support/verify-cache-setup.ts'],
  },
});
