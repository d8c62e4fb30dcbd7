/**
 * The `run` parent command shared by every `run <system>` module, and its one run-directory flag:
 * `--run-dir <dir>` everywhere (the deprecated `--out` alias is gone: it is an unknown option now).
 */
import type { Command } from 'commander';

/** The shared `run` parent command: reuse it when another module registered it first. */
export function runCommand(program: Command): Command {
  return program.commands.find((c) => c.name() === 'run') ?? program.command('run').description('run an agent system over a dataset (resumable run directory)');
}

/** Adds `--run-dir <dir>` to a `run <system>` command. */
export function addRunDirOption(cmd: Command, defaultDir: string): Command {
  return cmd.option('--run-dir <dir>', `run directory (default ${defaultDir})`);
}

/** The run directory the user asked for (--run-dir). */
export function runDirFlag(flags: { runDir?: string }): string | undefined {
  return flags.runDir;
}
