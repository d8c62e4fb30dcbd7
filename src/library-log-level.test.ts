/**
 * A bad LEXCASE_LOG_LEVEL reaches a library caller: `import … from 'lexcase'` (src/index.ts) logs at
 * info, as before, but now says so once on stderr naming the variable, its value and the levels;
 * the CLI still refuses the value with CONFIG_INVALID and prints no warning besides.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliChild, REPO_ROOT } from '../tests/support/cli-child.js';

const run = promisify(execFile);
const WARNING = '[warn] config field "LEXCASE_LOG_LEVEL": expected one of debug, info, warn, error, silent (any case), got "verbose"; logging at info';

describe('LEXCASE_LOG_LEVEL=verbose', () => {
  it('a program importing the package entry (and a subpath) gets one warning naming the variable and the levels, and logs at info', async () => {
    const entry = (p: string) => JSON.stringify(join(REPO_ROOT, p));
    const script = `const lexcase = await import(${entry('src/index.ts')}); await import(${entry('src/exports/core.ts')});
      const { getLogLevel } = await import(${entry('core/log.ts')});
      console.log(typeof lexcase.buildIndex, getLogLevel());`;
    const r = await run(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      env: { ...process.env, LEXCASE_LOG_LEVEL: 'verbose' },
    });
    expect(r.stdout.trim()).toBe('function info');
    expect(r.stderr.split('\n').filter((l) => l.includes('LEXCASE_LOG_LEVEL'))).toEqual([WARNING]);
  }, 120_000);

  it('the CLI refuses it with CONFIG_INVALID before the command starts, with no warning besides', async () => {
    const r = await cliChild(['search', 'hearsay', '--index', join(REPO_ROOT, 'no-such-index')], { env: { LEXCASE_LOG_LEVEL: 'verbose' } });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.includes('LEXCASE_LOG_LEVEL'))).toEqual([
      '[error] config field "LEXCASE_LOG_LEVEL": expected one of debug, info, warn, error, silent (any case), got "verbose"',
    ]);
  }, 120_000);
});
