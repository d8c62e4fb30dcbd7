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

/**
 * The run dirs a run of this process has opened (taken their lock), written to yet or not: a signal before
 * the run writes results.jsonl (its preflight, its index loading) is said with the items the dir already
 * holds. Before, a resume of a run dir with 8 saved items stopped then said "before any item was saved:
 * nothing is in a results.jsonl yet".
 */
const opened: string[] = [];

/** A run of this process holds `dir` (listed once). */
export function noteRunDirOpened(dir: string): void {
  if (!opened.includes(dir)) opened.push(dir);
}

/** The run dirs runs of this process have opened. */
export function openedRunDirs(): readonly string[] {
  return opened;
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

/**
 * The items under way in each run dir, with the requests each has sent so far (core/llm/record-replay.ts
 * ExchangeLog `sent`): an item leaves when its line is written (or it ends with none). What those left at
 * a signal sent is in no results.jsonl line; the signal's handler records it (src/cli/run-interrupt.ts).
 */
/** `tokens`: what the replies the item got so far reported (its usage meter), in no line either. */
type UnderWayItem = { readonly sent: number; readonly tokens?: number };
const itemsUnderWay = new Map<string, Map<string, UnderWayItem>>();

/** Item `id` of run dir `dir` is under way; call the returned function when it ends without a line written. */
export function noteItemUnderWay(dir: string, id: string, requests: UnderWayItem): () => void {
  const items = itemsUnderWay.get(dir) ?? new Map<string, UnderWayItem>();
  itemsUnderWay.set(dir, items);
  items.set(id, requests);
  return () => noteItemWritten(dir, id);
}

/** Item `id`'s line is written in `dir`'s results.jsonl (inside the write, so a signal's hold sees it). */
export function noteItemWritten(dir: string, id: string): void {
  itemsUnderWay.get(dir)?.delete(id);
}

/** The items under way in `dir` that have sent requests, and how many they sent: in no results.jsonl line. */
export function unrecordedRequests(dir: string): { items: number; requests: number; tokens?: number } {
  let items = 0;
  let requests = 0;
  let tokens = 0;
  for (const r of itemsUnderWay.get(dir)?.values() ?? []) {
    if (!r.sent) continue;
    items++;
    requests += r.sent;
    tokens += r.tokens ?? 0;
  }
  return { items, requests, ...(tokens ? { tokens } : {}) };
}
