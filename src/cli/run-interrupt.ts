/**
 * Ctrl-C (SIGINT) or SIGTERM during `lexcase run <system>`: instead of dying at once without a
 * word, the command lets the results.jsonl writes under way finish, starts no new one
 * (eval/results-writes.ts: no partial line is left), prints once on stderr how many items are
 * saved in results.jsonl, the run dir and the command that resumes the run (the same command line:
 * a run resumes in its run dir, docs/runner.md), and exits 130 (SIGINT) or 143 (SIGTERM), the
 * shell's 128 + signal number. A second signal ends the process at once (the default action).
 * The items under way at the signal have no line: the requests they had sent (eval/results-writes.ts
 * unrecordedRequests) are said and recorded in config.json (`interrupts`), so a resumed run's report.md
 * counts them; before, they were in no count.
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
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { holdResultWrites, openedRunDirs, resultsDirs, unrecordedRequests } from '../../eval/results-writes.js';
import { RUN_FILES } from '../../eval/run-files.js';
import { removeOwnTemps } from '../../eval/run-dir.js';
import { dropSentJournals, SENT_DIR } from '../../eval/sent-journal.js';
import { underWayText } from '../../eval/run-counts.js';
import { exitCodeOfSignal, onFirstSignal, STOP_SIGNALS } from '../../core/interrupt.js';
import { shellWord } from '../../core/shell-word.js';

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

/**
 * Record in `dir`'s config.json (`interrupts`) the requests the items under way had sent (each attempt,
 * retries too) and the tokens their answered ones reported (`tokens`, absent when 0): they have no results.jsonl line, so report.md counts them from there. Synchronous (the
 * process exits next), written through a temp file and a rename; the run dir's request journal
 * (under-way/) is then removed. False when config.json cannot be read or written (the journal is kept
 * for the resume to count).
 */
export function recordInterrupt(dir: string, signal: NodeJS.Signals, u: { items: number; requests: number; tokens?: number }): boolean {
  const file = join(dir, RUN_FILES.config);
  try {
    const cfg = JSON.parse(readFileSync(file, 'utf8')) as { interrupts?: unknown[] };
    const entry = { signal, at: new Date().toISOString(), items: u.items, requests: u.requests, ...(u.tokens ? { tokens: u.tokens } : {}) };
    const tmp = `${file}.${process.pid}.interrupt.tmp`;
    writeFileSync(tmp, JSON.stringify({ ...cfg, interrupts: [...(cfg.interrupts ?? []), entry] }, null, 2) + '\n');
    renameSync(tmp, file);
  } catch {
    return false;
  }
  // their requests kept on disk for a kill (eval/sent-journal.ts) are recorded now: a resume must not count them again
  dropSentJournals(dir);
  return true;
}

/**
 * What the command prints on the signal. `underWay`: per run dir, the items under way (no line written)
 * that had sent requests, how many, and whether config.json recorded them.
 */
export function interruptMessage(
  signal: NodeJS.Signals,
  args: readonly string[],
  dirs: readonly string[],
  underWay: (dir: string) => { items: number; requests: number; tokens?: number; recorded: boolean } = () => ({ items: 0, requests: 0, recorded: false }),
): string {
  if (dirs.length === 0)
    return `interrupted (${signal}) before any item was saved: nothing is in a results.jsonl yet.\nto start again: ${resumeCommand(args, undefined)}\n`;
  const lines = [`interrupted (${signal}):`];
  for (const dir of dirs) {
    const { saved, failed } = savedItems(dir);
    const failedText = failed ? ` (${failed} failed: a resume runs ${failed === 1 ? 'it' : 'them'} again)` : '';
    const results = join(dir, RUN_FILES.results);
    // stopped before its first line (its config.json written, its first request under way): no results.jsonl to name as holding items
    lines.push(
      existsSync(results)
        ? `  ${saved} item${saved === 1 ? '' : 's'} completed and saved in ${results}${failedText}; run dir: ${dir}`
        : `  no item completed yet (${results} not written); run dir: ${dir}`,
    );
    const u = underWay(dir);
    if (u.requests)
      lines.push(
        `  ${underWayText(u)}${u.tokens ? ` (their answered requests reported ${u.tokens.toLocaleString('en-US')} tokens)` : ''} ${u.requests === 1 ? 'is' : 'are'} in no results.jsonl line (a resume runs ${u.items === 1 ? 'the item' : 'those items'} again): ${u.recorded ? `recorded in ${join(dir, RUN_FILES.config)} (interrupts); report.md counts ${u.requests === 1 ? 'it' : 'them'}` : `not recorded (${join(dir, RUN_FILES.config)} could not be written); a resume counts ${u.requests === 1 ? 'it' : 'those'} kept in ${join(dir, SENT_DIR)}`}`,
      );
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
      const dirs = resultsDirs();
      const underWay = new Map(
        dirs.map((dir) => {
          const u = unrecordedRequests(dir);
          const recorded = u.requests > 0 && recordInterrupt(dir, signal, u);
          if (!u.requests) dropSentJournals(dir);
          return [dir, { ...u, recorded }] as const;
        }),
      );
      // and the run dirs opened and not yet written to that hold items (a resume stopped in its preflight): not "nothing is saved"
      const shown = [...dirs, ...openedRunDirs().filter((d) => !dirs.includes(d) && existsSync(join(d, RUN_FILES.results)))];
      // the temp files of trace and exchange writes under way (their items have no results line and run again): not left behind
      for (const dir of new Set([...dirs, ...openedRunDirs()])) removeOwnTemps(dir);
      process.stderr.write(interruptMessage(signal, args, shown, (dir) => underWay.get(dir) ?? { items: 0, requests: 0, recorded: false }));
      process.exit(exitCodeOfSignal(signal));
    });
  }, STOP_SIGNALS);
}
