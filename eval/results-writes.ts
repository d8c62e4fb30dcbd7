/**
 * The results.jsonl writes of this process, for a command that is stopped by a signal
 * (src/cli/run-interrupt.ts): which run dirs it has been writing, and a hold that lets the writes
 * under way finish and starts no new one. A line is appended with one `appendFile` and a replaced
 * line rewrites the file atomically (eval/run-dir.ts `ResultsWriter`), so a process that exits after
 * `holdResultWrites()` leaves every line whole; an item whose line was not started is not recorded,
 * and a resume runs it.
 */

const dirs: string[] = [];
const inFlight = new Set<Promise<unknown>>();
let held = false;

/** A run dir whose results.jsonl this process writes (listed once, in the order first written). */
export function noteResultsDir(dir: string): void {
  if (!dirs.includes(dir)) dirs.push(dir);
}

/** The run dirs this process has written results.jsonl in. */
export function resultsDirs(): readonly string[] {
  return dirs;
}

/** Run one write of results.jsonl, unless writes are held: then it never starts (and never settles). */
export function resultsWrite(write: () => Promise<void>): Promise<void> {
  if (held) return new Promise<void>(() => {});
  const p = write();
  inFlight.add(p);
  void p.then(
    () => inFlight.delete(p),
    () => inFlight.delete(p),
  );
  return p;
}

/** Start no further write of results.jsonl; resolves when the writes under way have finished. */
export async function holdResultWrites(): Promise<void> {
  held = true;
  await Promise.allSettled([...inFlight]);
}
