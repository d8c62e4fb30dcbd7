/**
 * abortOnSignals(what): an AbortSignal that fires on SIGINT or SIGTERM with an INTERRUPTED error,
 * for long steps that clean up after themselves when aborted (an index build removes its temp dir
 * and terminates its workers, then the CLI prints its one line and exits 130 for SIGINT, 143 for
 * SIGTERM, src/cli/action.ts). While it is installed the default "die at once"
 * is replaced for the first signal only: a second one ends the process as usual.
 */
import { errors } from './errors.js';

export interface Interrupt {
  signal: AbortSignal;
  /** The signal received, if any. */
  received(): NodeJS.Signals | undefined;
  /**
   * The error to report for `e`, thrown while this was installed: once a signal came, the INTERRUPTED
   * error (what was kept), whatever the step threw on its way out.
   */
  reason(e: unknown): unknown;
  /** Remove the handlers (call in a finally). */
  dispose(): void;
}

export function abortOnSignals(what: string, opts: { note?: string; signals?: NodeJS.Signals[] } = {}): Interrupt {
  const signals = opts.signals ?? ['SIGINT', 'SIGTERM'];
  const ac = new AbortController();
  let got: NodeJS.Signals | undefined;
  const handlers = signals.map((s) => {
    const h = () => {
      got = s;
      dispose();
      ac.abort(errors.interrupted(what, s, opts.note));
    };
    process.once(s, h);
    return [s, h] as const;
  });
  function dispose(): void {
    for (const [s, h] of handlers) process.off(s, h);
  }
  return { signal: ac.signal, received: () => got, reason: (e) => (ac.signal.aborted ? ac.signal.reason : e), dispose };
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
