/**
 * Where a pooled query's time goes, for the scale bench (issue 38: the 10M query spread that comes in
 * spells inside one process, docs/notes/2026-12-04-machine-probe.md): per query, the calling thread's
 * own scoring, the worker's scoring as the worker timed it, the wait from the calling thread's end to
 * the last part's arrival, and the GC pauses of the worker's isolate (the calling thread's are seen by
 * a PerformanceObserver there). Cumulative, per process, over every pool; nothing in lexcase reads
 * them. The workers observe their GC only when `LEXCASE_QUERY_TIMINGS=1` is set in the environment
 * before the pool starts (the bench's query processes set it); the scoring times are always kept
 * (two clock reads per range).
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

export interface QueryTimings {
  /** Queries the pools answered. */
  queries: number;
  /** Σ ms the calling thread spent scoring its own range. */
  localMs: number;
  /** Σ ms the workers spent scoring (their own clocks; with more than one worker, the slowest's). */
  workerMs: number;
  /** Σ ms from the calling thread's part to the query's last part (hand-off, a worker's queue and its scoring beyond the calling thread's). */
  waitMs: number;
  /** Σ ms of GC pauses in the workers' isolates (0 unless LEXCASE_QUERY_TIMINGS=1). */
  workerGcMs: number;
  /** The CPU the last query's (slowest) worker ran on when it finished (Linux, LEXCASE_QUERY_TIMINGS=1; else −1). */
  lastWorkerCpu: number;
}

const totals: QueryTimings = { queries: 0, localMs: 0, workerMs: 0, waitMs: 0, workerGcMs: 0, lastWorkerCpu: -1 };

/** A copy of this process's totals so far (subtract two to get one query's). */
export function queryTimings(): QueryTimings {
  return { ...totals };
}

/** Called by the pool once per answered query. */
export function addQueryTimings(t: Omit<QueryTimings, 'queries'>): void {
  totals.queries++;
  totals.lastWorkerCpu = t.lastWorkerCpu;
  totals.localMs += t.localMs;
  totals.workerMs += t.workerMs;
  totals.waitMs += t.waitMs;
  totals.workerGcMs += t.workerGcMs;
}

export const timingsWanted = (): boolean => process.env.LEXCASE_QUERY_TIMINGS === '1';

/** In a worker: a running sum of this isolate's GC pauses (ms). */
export function gcClock(): () => number {
  let ms = 0;
  const obs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) ms += e.duration;
  });
  obs.observe({ entryTypes: ['gc'] });
  return () => ms;
}

/** The CPU the calling thread is on (field 39 of /proc/thread-self/stat); −1 where it cannot be read. */
export function threadCpu(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    const cpu = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[36]);
    return Number.isInteger(cpu) ? cpu : -1;
  } catch {
    return -1;
  }
}
