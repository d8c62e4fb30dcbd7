/**
 * The `run` parent command shared by every `run <system>` module, and its one run-directory flag:
 * `--run-dir <dir>` everywhere, with `--out <dir>` kept (hidden) as a deprecated alias for a release.
 */
import { Option, type Command } from 'commander';
import { log } from '../../core/log.js';

/** The shared `run` parent command: reuse it when another module registered it first. */
export function runCommand(program: Command): Command {
  return program.commands.find((c) => c.name() === 'run') ?? program.command('run').description('run an agent system over a dataset (resumable run directory)');
}

/** Adds `--run-dir <dir>` (and the deprecated `--out <dir>` alias) to a `run <system>` command. */
export function addRunDirOption(cmd: Command, defaultDir: string): Command {
  return cmd
    .option('--run-dir <dir>', `run directory (default ${defaultDir})`)
    .addOption(new Option('--out <dir>', 'deprecated alias of --run-dir').hideHelp());
}

/** The run directory the user asked for, from --run-dir or the deprecated --out. */
export function runDirFlag(flags: { runDir?: string; out?: string }): string | undefined {
  if (flags.runDir === undefined && flags.out !== undefined) log.warn('--out is deprecated for `run` commands; use --run-dir');
  return flags.runDir ?? flags.out;
}
