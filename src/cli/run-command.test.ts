import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addRunDirOption, runCommand, runDirFlag } from './run-command.js';

function program(): { prog: Command; seen: Array<string | undefined> } {
  const prog = new Command().exitOverride();
  const seen: Array<string | undefined> = [];
  for (const name of ['acal', 'emar']) {
    addRunDirOption(runCommand(prog).command(name), `runs/${name}-<seed>`).action((flags: { runDir?: string }) => {
      seen.push(runDirFlag(flags));
    });
  }
  return { prog, seen };
}

describe('one run command and one --run-dir flag', () => {
  it('every system hangs under one `run` command and takes --run-dir; the old --out alias is refused', async () => {
    const { prog, seen } = program();
    prog.configureOutput({ writeErr: () => {} });
    prog.commands[0].commands.forEach((c) => c.exitOverride().configureOutput({ writeErr: () => {} }));
    expect(prog.commands.map((c) => c.name())).toEqual(['run']);
    await prog.parseAsync(['node', 'lexcase', 'run', 'acal', '--run-dir', 'runs/a']);
    await expect(prog.parseAsync(['node', 'lexcase', 'run', 'emar', '--out', 'runs/b'])).rejects.toThrow(/unknown option '--out'/);
    await prog.parseAsync(['node', 'lexcase', 'run', 'emar']);
    expect(seen).toEqual(['runs/a', undefined]);
    const help = prog.commands[0].commands.find((c) => c.name() === 'acal')!.helpInformation();
    expect(help).toContain('--run-dir <dir>');
    expect(help).toContain('runs/acal-<seed>');
    expect(help).not.toContain('--out');
  });
});
