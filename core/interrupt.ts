/**
 * Ctrl-C (SIGINT) and SIGTERM: the one way the CLI takes them. onFirstSignal() installs the handlers
 * (the first signal only: both are removed before it is handled, so a second one ends the process at
 * once, Node's default) and exitCodeOfSignal() gives the status (the shell's 128 + signal number: 130,
 * 143). Two responses are built on it, and they must stay two:
 *
 * - abort and unwind (abortOnSignals / whileInterruptible, here): demo, index build, index dense and
 *   eval retrieval hold things that must be undone on the way out (a temp dir beside the index,
 *   worker threads, a run file's temp file), so the signal aborts an AbortSignal the step watches,
 *   the step's own finally blocks clean up, and the INTERRUPTED error it throws reaches
 *   src/cli/action.ts, which prints its one line and sets the exit status.
 * - finish the writes and exit (src/cli/run-interrupt.ts): `run <system>` keeps nothing to undo
 *   (results.jsonl is appended line by line, each whole) and its items wait on LLM requests that
 *   take no AbortSignal through the plugin API (a request can wait minutes with its retries), so
 *   unwinding would keep the process alive for that long; it lets the writes under way finish and
 *   exits from the handler with the counts saved and the resume command (several lines, one per run
 *   dir). `eval run` and `eval retrieval --sweep-fusion`, which write no file, exit from the handler too.
 */
import { constants } from 'node:os';
import { errors, isLexcaseError } from './errors.js';

/** The exit status after `signal`: the shell's 128 + signal number (SIGINT 130, SIGTERM 143). */
export function exitCodeOfSignal(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

/**
 * `then(signal)` on the first of `signals` (default SIGINT, SIGTERM), every handler removed first so
 * that a second signal ends the process at once; dispose() removes them unused (call it in a finally).
 */
export function onFirstSignal<S extends NodeJS.Signals>(then: (signal: S) => void, signals: readonly S[]): { dispose(): void } {
  const handlers = signals.map(
    (s) =>
      [
        s,
        () => {
          dispose();
          then(s);
        },
      ] as const,
  );
  for (const [s, h] of handlers) process.once(s, h);
  function dispose(): void {
    for (const [s, h] of handlers) process.off(s, h);
  }
  return { dispose };
}

/** The signals the CLI takes. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * abortOnSignals(what): an AbortSignal that fires on SIGINT or SIGTERM with an INTERRUPTED error,
 * for long steps that clean up after themselves when aborted (an index build removes its temp dir
 * and terminates its workers, then the CLI prints its one line and exits 130 for SIGINT, 143 for
 * SIGTERM, src/cli/action.ts).
 */
export interface Interrupt {
  signal: AbortSignal;
  /** The signal received, if any. */
  received(): NodeJS.Signals | undefined;
  /**
   * The error to report for `e`, thrown while this was installed: once a signal came, the INTERRUPTED
   * error (what was kept), whatever the step threw on its way out, unless the step threw an
   * INTERRUPTED error of its own (a step that knows better what was kept, as eval retrieval's
   * final writes).
   */
  reason(e: unknown): unknown;
  /** Remove the handlers (call in a finally). */
  dispose(): void;
}

export function abortOnSignals(what: string, opts: { note?: string; signals?: NodeJS.Signals[] } = {}): Interrupt {
  const ac = new AbortController();
  let got: NodeJS.Signals | undefined;
  const { dispose } = onFirstSignal((s) => {
    got = s;
    ac.abort(errors.interrupted(what, s, opts.note));
  }, opts.signals ?? STOP_SIGNALS);
  return { signal: ac.signal, received: () => got, reason: (e) => (ac.signal.aborted && !isInterrupted(e) ? ac.signal.reason : e), dispose };
}

/**
 * `run(signal)` with abortOnSignals(what, opts) installed: what it throws after a signal came is the
 * INTERRUPTED error (what was kept; the CLI exits 130 / 143), whatever the step threw on its way out;
 * the handlers are removed when it ends.
 */
export async function whileInterruptible<T>(what: string, opts: { note?: string }, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const interrupt = abortOnSignals(what, opts);
  try {
    return await run(interrupt.signal);
  } catch (e) {
    throw interrupt.reason(e);
  } finally {
    interrupt.dispose();
  }
}

function isInterrupted(e: unknown): boolean {
  return isLexcaseError(e) && e.code === 'INTERRUPTED';
}
