/**
 * `lexcase run <system>` is the system list (eval/systems.ts) as the CLI shows it: one subcommand per
 * entry that runs through the CLI, each with the entry's run-dir flag, and `--index` / `--data`
 * exactly where the entry says the system takes them (what `lexcase reproduce` passes on).
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { SYSTEMS } from '../../eval/systems.js';
import { buildProgram } from './program.js';

const run = buildProgram().commands.find((c) => c.name() === 'run') as Command;
const flags = (c: Command) => c.options.map((o) => o.long);

describe('lexcase run and the system list', () => {
  const cliSystems = SYSTEMS.filter((s) => s.run?.via === 'cli');

  it('has one subcommand per system the list runs through the CLI, and no other', () => {
    expect(run.commands.map((c) => c.name()).sort()).toEqual(cliSystems.map((s) => s.id).sort());
  });

  for (const s of cliSystems) {
    it(`run ${s.id}: ${s.run!.runDirFlag}${s.run!.takesIndex ? ', --index' : ''}${s.run!.takesData ? ', --data' : ''}, --${s.run!.limit}`, () => {
      const c = run.commands.find((x) => x.name() === s.id)!;
      expect(flags(c)).toContain(s.run!.runDirFlag);
      expect(flags(c)).not.toContain('--out');
      expect(flags(c).includes('--index')).toBe(s.run!.takesIndex);
      expect(flags(c).includes('--data')).toBe(s.run!.takesData);
      expect(flags(c)).toContain(`--${s.run!.limit}`);
    });
  }
});
