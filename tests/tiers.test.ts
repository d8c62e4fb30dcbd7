import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { HEAVY_TESTS, PROCESS_TESTS, SLOW_TESTS } from './tiers.js';

const root = join(import.meta.dirname, '..');
/** What starts a child process or a browser in a test file: node's child_process, the CLI-process helpers, Playwright. */
const STARTS_A_PROCESS = [
  /from ['"](node:)?child_process['"]/,
  /(support\/(run-built-cli|spawn-cli|cli-child)|test-support\/(children|browser))\.js['"]/,
  /from ['"](playwright|@playwright\/test|playwright-core)['"]/,
];

const testFiles = () =>
  execFileSync('git', ['ls-files', '*.test.ts'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.endsWith('.int.test.ts') && existsSync(join(root, f)));

describe('the test tiers (npm test = fast, npm run test:slow = slow)', () => {
  it('every test file that starts a child process or a browser is in the slow tier', () => {
    const unlisted = testFiles().filter(
      (f) => f !== 'tests/tiers.test.ts' && STARTS_A_PROCESS.some((re) => re.test(readFileSync(join(root, f), 'utf8'))) && !PROCESS_TESTS.includes(f),
    );
    expect(unlisted, 'add these to PROCESS_TESTS in tests/tiers.ts').toEqual([]);
  });
  it('every file the tiers name exists, once', () => {
    expect(SLOW_TESTS.filter((f) => !existsSync(join(root, f)))).toEqual([]);
    expect(new Set(SLOW_TESTS).size).toBe(PROCESS_TESTS.length + HEAVY_TESTS.length);
  });
  it('each tier runs files in parallel: a worker per core for the fast tier (at least 2), one more for the slow tier; VITEST_MAX_WORKERS overrides both', async () => {
    // vitest's own default is availableParallelism() - 1: one file at a time on a 2-core machine
    const tiers = async () => {
      vi.resetModules();
      const config = (await import('../vitest.config.js')).default as { test: { projects: { test: { name: string; maxWorkers?: number } }[] } };
      return Object.fromEntries(config.test.projects.map((p) => [p.test.name, p.test.maxWorkers]));
    };
    const cores = availableParallelism();
    try {
      vi.stubEnv('VITEST_MAX_WORKERS', undefined);
      expect(await tiers()).toEqual({ fast: Math.max(2, cores), slow: Math.max(3, cores + 1) });
      vi.stubEnv('VITEST_MAX_WORKERS', '1');
      expect(await tiers()).toEqual({ fast: 1, slow: 1 });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
