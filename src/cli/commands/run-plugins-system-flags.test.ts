/**
 * A flag only some `--system` values read (CliFlag `systems` in a plugin's schema), given with another
 * system, is warned of by the run command itself, for every plugin — with or without a cliRun. Before,
 * MAD and ACAL each kept a table of such flags in their own cli-run.ts; a system of one's own (or one
 * added later) dropped them without a word while config.json recorded them as given.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from '../../../core/log.js';
import { fixedAnswerPlugin } from '../../../tests/support/fixed-plugin.js';
import { registerPluginCommand } from './run-plugins.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-system-flags-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** A system of one's own with two variants: `deep` reads --depth and --no-prune, `shallow` neither. */
const plugin = fixedAnswerPlugin({
  id: 'two-depths',
  items: [{ id: 'q1', answer: 'B' }],
  answer: 'B',
  flags: [
    { name: 'system', arg: 'name', description: 'deep | shallow', type: 'string', default: 'deep' },
    { name: 'depth', arg: 'n', description: 'how deep', type: 'int', default: 2, systems: ['deep'], ignored: 'looks one level only' },
    { name: 'prune', description: 'no pruning', type: 'negatable', systems: ['deep'] },
  ],
  config: (flags) => flags,
});

async function run(...args: string[]): Promise<string[]> {
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
  const prog = new Command().exitOverride();
  prog.option('--json');
  registerPluginCommand(prog, plugin);
  await prog.parseAsync(['node', 'lexcase', 'run', 'two-depths', '--json', ...args]);
  const lines = warn.mock.calls.map((c) => String(c[0]));
  warn.mockRestore();
  return lines;
}

describe('lexcase run: a flag of another --system', () => {
  it('is warned of by the generic command (a plugin with run, no table of its own), with what it means', async () => {
    const runDir = join(dir, 'shallow');
    const warned = await run('--system', 'shallow', '--depth', '5', '--no-prune', '--run-dir', runDir);
    expect(warned).toEqual([
      '--depth is ignored: it applies to --system deep, not shallow (shallow looks one level only)',
      '--no-prune is ignored: it applies to --system deep, not shallow',
    ]);
    // config.json records what was given; the warning is the only word that nothing read it
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config).toMatchObject({ system: 'shallow', depth: 5, prune: false });
  });

  it('says nothing when the system reads the flag, or when the flag was not given (its default)', async () => {
    expect(await run('--system', 'deep', '--depth', '5', '--no-prune', '--run-dir', join(dir, 'deep'))).toEqual([]);
    expect(await run('--system', 'shallow', '--run-dir', join(dir, 'shallow-defaults'))).toEqual([]);
  });
});
