/**
 * Benchmarks on a quiet machine (issue 38 item 5): a figure claims a target, and may be stamped into
 * the docs, only when the 1-minute load average at the START and at the END of the phase that took
 * it was at most CLAIM_MAX_LOAD_PER_CPU × the usable cores (1.5 on 2 cores). A phase whose load at
 * either end is unknown (a result file written before the end load was recorded) claims nothing
 * either. Pure functions: the loads are passed in, so the rule is tested without timing.
 */
import { availableParallelism, loadavg } from 'node:os';

/** 1-min load per usable core above which a figure claims nothing (1.5 on the 2-core machine). */
export const CLAIM_MAX_LOAD_PER_CPU = 0.75;

/** The load limit for `usableCpus` cores (those this process may run on: taskset/cgroup affinity). */
export const claimLimit = (usableCpus: number = availableParallelism()): number => CLAIM_MAX_LOAD_PER_CPU * usableCpus;

export interface LoadClaim {
  /** Largest load recorded at the phase's start and end (null: none recorded). */
  load: number | null;
  claimed: boolean;
  /** Why not, when not claimed: `not claimed: load X at start/end > L`. */
  reason?: string;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Whether figures taken between loads `loads` (each phase's start and end; several phases when a
 * figure combines them, e.g. lexcase beside BM25S) may be claimed under `limit`.
 */
export function loadClaim(loads: readonly (number | null | undefined)[], limit: number): LoadClaim {
  const known = loads.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  const load = known.length ? round2(Math.max(...known)) : null;
  if (load !== null && load > limit) return { load, claimed: false, reason: `not claimed: load ${load} at start/end > ${limit}` };
  if (known.length < loads.length || !loads.length) return { load, claimed: false, reason: `not claimed: no load recorded at start/end (limit ${limit})` };
  return { load, claimed: true };
}

/** The line a benchmark prints at its start: it needs an idle machine, the rule, and the load now. */
export function idleNotice(limit: number = claimLimit(), usableCpus: number = availableParallelism(), now: number = loadavg()[0]): string {
  const l = round2(now);
  return (
    `this benchmark needs an idle machine: a figure whose 1-min load at the start or end of its phase exceeds ${limit} (${CLAIM_MAX_LOAD_PER_CPU} × ${usableCpus} usable cores) is reported but not claimed, and scale-plot will not stamp it into the docs; load now ${l}` +
    (l > limit ? ` — ABOVE the limit: stop other work (test suites, CI, other benchmarks) first` : '')
  );
}
