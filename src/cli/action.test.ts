/**
 * action() sets the log level and progress switch a command's --json / --quiet / --debug ask for,
 * and puts them back when the command ends — whether it succeeded or failed — so the next command
 * run in the same process (the library, an in-process test) starts from the settings it had.
 * Before, a `--json` command left progress off and the level at 'warn' for the rest of the process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getLogLevel, log, setLogLevel } from '../../core/log.js';
import { createProgress, isProgressEnabled, setProgressEnabled } from '../../core/progress.js';
import { errors } from '../../core/errors.js';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { action } from './action.js';

/** A command that records the settings it ran under, then succeeds or fails. */
function probe(seen: { level?: string; progress?: boolean }[], fail: boolean) {
  return programWith((p) =>
    p.command('probe').action(
      action(() => {
        seen.push({ level: getLogLevel(), progress: isProgressEnabled() });
        log.info('probe ran');
        createProgress('probe').stop();
        if (fail) throw errors.usage('probe failed on purpose');
      }),
    ),
  );
}

describe('action()', () => {
  const level = getLogLevel();
  afterEach(() => {
    setLogLevel(level);
    setProgressEnabled(true);
  });

  for (const fail of [false, true])
    it(`--json: the command runs at level warn with progress off; afterwards (${fail ? 'after an error' : 'after success'}) both are what they were`, async () => {
      setLogLevel('info');
      setProgressEnabled(true);
      const seen: { level?: string; progress?: boolean }[] = [];
      const r = await runCli(['--json', 'probe'], probe(seen, fail));
      expect(r.code).toBe(fail ? 1 : 0);
      expect(seen).toEqual([{ level: 'warn', progress: false }]);
      expect(getLogLevel()).toBe('info');
      expect(isProgressEnabled()).toBe(true);
    });

  it('--debug then a plain command: the second runs at the level the process had, not debug', async () => {
    setLogLevel('info');
    const seen: { level?: string; progress?: boolean }[] = [];
    await runCli(['--debug', 'probe'], probe(seen, false));
    await runCli(['probe'], probe(seen, false));
    expect(seen.map((s) => s.level)).toEqual(['debug', 'info']);
  });
});
