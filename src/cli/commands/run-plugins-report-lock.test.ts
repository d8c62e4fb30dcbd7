/**
 * `lexcase run <id>` of a system whose plugin gives only `run` (no `cliRun`: the generic command,
 * docs/architecture.md "How to add an agent system" step 6) writes report.md before the run dir's lock
 * is released, when its run passes `o.whileLocked` to runExperiment — as the systems with a `cliRun`
 * do — so a resume waiting for the lock sees this run's report, never the one before it. Before, the
 * command always wrote the report after `run` returned, the lock already released (runner.md listed it
 * as not fixed).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogLevel } from '../../../core/log.js';
import { registerReportSection } from '../../../eval/report/index.js';
import { lockRunDir } from '../../../eval/run-dir-guard.js';
import { fixedAnswerPlugin } from '../../../tests/support/fixed-plugin.js';
import { registerPluginCommand } from './run-plugins.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-generic-run-'));
  setLogLevel('silent');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  setLogLevel('info');
  process.exitCode = undefined;
});

/** A system of one's own with the simpler `run`: three items, always "B". */
const items = [
  { id: 'q1', answer: 'B' },
  { id: 'q2', answer: 'A' },
  { id: 'q3', answer: 'B' },
];
const plugin = fixedAnswerPlugin({ id: 'fixed-answer', items, answer: 'B' });

describe('the generic `lexcase run <id>` (a plugin with run, no cliRun)', () => {
  it('writes report.md while it still holds the run dir: a resume waiting for the lock would see this run', async () => {
    const runDir = join(dir, 'run');
    const found: string[] = [];
    registerReportSection(
      'test-generic-lock-probe',
      (run) => {
        if (resolve(run.dir) !== resolve(runDir)) return null;
        try {
          lockRunDir(run.dir, 'a resume').release();
          found.push('unlocked');
        } catch (e) {
          found.push((e as Error).message.includes('run fixed-answer') ? 'locked by the run' : String(e));
        }
        return null;
      },
      { systems: ['fixed-answer'] },
    );
    const prog = new Command().exitOverride();
    prog.option('--json');
    registerPluginCommand(prog, plugin);
    await prog.parseAsync(['node', 'lexcase', 'run', 'fixed-answer', '--run-dir', runDir, '--json']);
    expect(process.exitCode ?? 0).toBe(0);
    // written once, under the lock (before: once, 'unlocked')
    expect(found).toEqual(['locked by the run']);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain('- **items in results**: 3');
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
  });
});
