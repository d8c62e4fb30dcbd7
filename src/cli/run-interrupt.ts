/**
 * Ctrl-C (SIGINT) or SIGTERM during `lexcase run <system>`: instead of dying at once without a
 * word, the command lets the results.jsonl writes under way finish, starts no new one
 * (eval/results-writes.ts: no partial line is left), prints once on stderr how many items are
 * saved in results.jsonl, the run dir and the command that resumes the run (the same command line:
 * a run resumes in its run dir, docs/runner.md), and exits 130 (SIGINT) or 143 (SIGTERM), the
 * shell's 128 + signal number. A second signal ends the process at once (the default action).
 *
 * A command with nothing to save (`eval run`: it reads its files and prints its figures at the end,
 * writing no file) takes the signals with `exitOnInterrupt`: one message saying nothing was written
 * and the command that starts it again, exit 130 / 143, as a run; before, Node's default ended it
 * without a word.
 *
 * Why this does not abort and unwind as demo, index build, index dense and eval retrieval do
 * (core/interrupt.ts whileInterruptible): a run has nothing to undo (each results.jsonl line is
 * whole) and its items wait on LLM requests that the plugin API gives no AbortSignal, so unwinding
 * would keep the process alive for minutes; the signal handling itself is the shared one
 * (core/interrupt.ts onFirstSignal, exitCodeOfSignal).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { holdResultWrites, resultsDirs } from '../../eval/results-writes.js';
import { RUN_FILES } from '../../eval/run-files.js';
import { exitCodeOfSignal, onFirstSignal, STOP_SIGNALS } from '../../core/interrupt.js';

/** One argument as a POSIX shell reads it back: bare when safe, else single-quoted. */
export function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line that resumes the run: the same arguments, with `--run-dir DIR` added to a `run
 * <system>` that gave none (a `reproduce` that runs the cell in this process resumes as it was given).
 */
export function resumeCommand(args: readonly string[], runDir: string | undefined): string {
  const isRun = args.find((a) => !a.startsWith('-')) === 'run';
  const hasRunDir = args.some((a) => a === '--run-dir' || a.startsWith('--run-dir='));
  return ['lexcase', ...args, ...(isRun && runDir !== undefined && !hasRunDir ? ['--run-dir', runDir] : [])].map(shellWord).join(' ');
}

/** Items recorded in a run dir's results.jsonl (whole lines), and how many of them failed. */
function savedItems(dir: string): { saved: number; failed: number } {
  const file = join(dir, RUN_FILES.results);
  if (!existsSync(file)) return { saved: 0, failed: 0 };
  const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1).filter(Boolean);
  let failed = 0;
  for (const l of lines) {
    try {
      if ((JSON.parse(l) as { error?: unknown }).error !== undefined) failed++;
    } catch {
      // an older run's truncated line: a resume cuts it off
    }
  }
  return { saved: lines.length, failed };
}

/** What the command prints on the signal. */
export function interruptMessage(signal: NodeJS.Signals, args: readonly string[], dirs: readonly string[]): string {
  if (dirs.length === 0)
    return `interrupted (${signal}) before any item was saved: nothing is in a results.jsonl yet.\nto start again: ${resumeCommand(args, undefined)}\n`;
  const lines = [`interrupted (${signal}):`];
  for (const dir of dirs) {
    const { saved, failed } = savedItems(dir);
    const failedText = failed ? ` (${failed} failed: a resume runs ${failed === 1 ? 'it' : 'them'} again)` : '';
    lines.push(`  ${saved} item${saved === 1 ? '' : 's'} completed and saved in ${join(dir, RUN_FILES.results)}${failedText}; run dir: ${dir}`);
  }
  lines.push(`to resume: ${resumeCommand(args, dirs.length === 1 ? dirs[0] : undefined)}`);
  return lines.join('\n') + '\n';
}

/**
 * Take SIGINT and SIGTERM for a command that writes no file (`what`: its name, e.g. "eval run"; `args`:
 * its command line without node and the script): on the first, say so and exit 130 / 143 at once.
 * Call dispose() when the command ends (after its output).
 */
export function exitOnInterrupt(what: string, args: readonly string[]): { dispose(): void } {
  return onFirstSignal((signal) => {
    process.stderr.write(
      `interrupted (${signal}): ${what} stopped before it printed its figures; it writes no file, so nothing is half-written.\nto start again: ${resumeCommand(args, undefined)}\n`,
    );
    process.exit(exitCodeOfSignal(signal));
  }, STOP_SIGNALS);
}

/**
 * Take SIGINT and SIGTERM for a run command (`args`: its command line without node and the script).
 * Call dispose() when the command ends.
 */
export function reportRunInterrupt(args: readonly string[]): { dispose(): void } {
  return onFirstSignal((signal) => {
    void holdResultWrites().then(() => {
      process.stderr.write(interruptMessage(signal, args, resultsDirs()));
      process.exit(exitCodeOfSignal(signal));
    });
  }, STOP_SIGNALS);
}
