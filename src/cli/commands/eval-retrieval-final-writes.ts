/**
 * The last step of `eval retrieval` (both forms): the report files written at the end (--out,
 * --plot), each atomic. A Ctrl-C / SIGTERM that comes while they are written lets them finish (no
 * half-written file), then the command stops as at any other moment: exit 130 / 143 with one line
 * saying what was written whole. Before, the writes finished and the command exited 0 as if no
 * signal had come.
 *
 * LEXCASE_TEST_HOLD_FINAL_WRITES=FILE (tests only): before the final writes, create FILE and wait
 * for the signal, so a process test sends it at exactly this moment.
 */
import { writeFileSync } from 'node:fs';
import { errors, isLexcaseError } from '../../../core/errors.js';

/** The files `eval retrieval` was asked to write (the flags' values). */
export interface EvalRetrievalFiles {
  runFile?: string;
  qrelsFile?: string;
  out?: string;
  plot?: string;
}

/** What the one line says was kept when the signal came during the final writes. */
export function finalWritesNote(files: EvalRetrievalFiles): string {
  const parts: string[] = [];
  if (files.runFile !== undefined) parts.push('the run file was written');
  const whole = [files.qrelsFile !== undefined && '--qrels-file', files.out !== undefined && '--out', files.plot !== undefined && '--plot'].filter(
    (f): f is string => f !== false,
  );
  if (whole.length > 0) parts.push(`${whole.join(', ')} ${whole.length === 1 ? 'was' : 'were'} written whole`);
  const kept = parts.length > 0 ? parts.join(' and ') : 'nothing was written';
  return `${kept} (the signal came during the final writes; the summary was not printed)`;
}

/**
 * Run `write` (the final writes) under `signal` (whileInterruptible's): a signal that came before
 * stops here as the search does; one that comes while it runs stops the command once the writes are
 * done, with the INTERRUPTED error whose note says they were written.
 */
export async function finalWrites(signal: AbortSignal, files: EvalRetrievalFiles, write: () => Promise<void>): Promise<void> {
  signal.throwIfAborted();
  await holdForTest(signal);
  await write();
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    const sig = isLexcaseError(reason) ? reason.details.signal : undefined;
    throw errors.interrupted('eval retrieval', sig ?? 'SIGINT', finalWritesNote(files));
  }
}

async function holdForTest(signal: AbortSignal): Promise<void> {
  const marker = process.env.LEXCASE_TEST_HOLD_FINAL_WRITES;
  if (!marker) return;
  // a timer keeps the event loop alive while it waits (a signal handler alone does not)
  const alive = setInterval(() => {}, 1000);
  const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  writeFileSync(marker, `${process.pid}\n`);
  await aborted.finally(() => clearInterval(alive));
}
