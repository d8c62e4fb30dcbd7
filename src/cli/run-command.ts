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

/**
 * The exit status of a `run <system>`: 1 when no item of its run dir succeeded (every line of
 * results.jsonl holds an error: an endpoint that refuses every request with HTTP 401, a server that
 * never answers), with one line on stderr — `no item succeeded: N of N failed (first error: …)`.
 * The run dir, its report and the printed summary are written as for any run; a run in which one
 * item succeeded exits 0 and counts its failures in the summary.
 */
export async function exitWhenNoItemSucceeded(runDir: string): Promise<void> {
  const [{ readResults }, { log }, { noItemSucceeded }] = await Promise.all([
    import('../../eval/run-dir.js'),
    import('../../core/log.js'),
    import('../../eval/no-item-succeeded.js'),
  ]);
  const line = noItemSucceeded((await readResults(runDir)).records);
  if (line === undefined) return;
  log.error(line);
  process.exitCode = 1;
}
