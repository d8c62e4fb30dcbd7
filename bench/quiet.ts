/**
 * Benchmarks on a quiet machine (issue 38 item 5): a figure claims a target, and may be stamped into
 * the docs, only when the 1-minute load average at the START and at the END of the phase that took
 * it was at most CLAIM_MAX_LOAD_PER_CPU × the usable cores (1.5 on 2 cores). A phase whose load at
 * either end is unknown (a result file written before the end load was recorded) claims nothing
 * either. Pure functions: the loads are passed in, so the rule is tested without timing.
 *
 * What counts is other work, not the benchmark's own: the 1-min load is a moving average of the
 * runnable threads, so (1) before each phase the bench waits for its own previous phase's load to
 * decay (`settle`: until the load is at most the limit, up to --settle seconds), and (2) at a
 * phase's END the load may exceed the limit by the cores the phase itself kept busy (its CPU s ÷
 * wall s: a 2-worker build ends near load 2 on an idle machine). A start above the limit after the
 * settle, or an end above limit + own busy cores, means other work ran: the figure is not claimed.
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
/** A phase's end load with the cores the phase itself kept busy (CPU s ÷ wall s), which the end load may exceed the limit by. */
export interface EndLoad {
  load: number | null | undefined;
  ownBusy: number;
}

/** The cores a phase kept busy on average: CPU s ÷ wall s (0 when unknown). */
export const ownBusy = (cpuS: number | null | undefined, wallS: number | null | undefined): number =>
  typeof cpuS === 'number' && typeof wallS === 'number' && wallS > 0 && cpuS > 0 ? round2(cpuS / wallS) : 0;

export function loadClaim(loads: readonly (number | null | undefined | EndLoad)[], limit: number): LoadClaim {
  const entries = loads.map((x) => (x !== null && typeof x === 'object' ? x : { load: x, ownBusy: 0 }));
  const known = entries.filter((x): x is { load: number; ownBusy: number } => typeof x.load === 'number' && Number.isFinite(x.load));
  const load = known.length ? round2(Math.max(...known.map((x) => x.load))) : null;
  const over = known.find((x) => x.load > limit + x.ownBusy);
  if (over)
    return {
      load,
      claimed: false,
      reason: over.ownBusy
        ? `not claimed: load ${round2(over.load)} at start/end > ${limit} + ${over.ownBusy} (the phase's own busy cores)`
        : `not claimed: load ${round2(over.load)} at start/end > ${limit}`,
    };
  if (known.length < entries.length || !entries.length) return { load, claimed: false, reason: `not claimed: no load recorded at start/end (limit ${limit})` };
  return { load, claimed: true };
}

/**
 * Waits (polling every `pollMs`) until the 1-min load is at most `limit`, for at most `maxS`
 * seconds; returns the load it starts the phase at. The bench's own previous phase decays here
 * instead of counting against the next one.
 */
export async function settle(
  limit: number,
  maxS: number,
  log: (line: string) => void,
  load: () => number = () => loadavg()[0],
  pollMs = 5000,
): Promise<number> {
  const t0 = Date.now();
  let l = load();
  if (l <= limit || maxS <= 0) return round2(l);
  log(`settling: load ${round2(l)} > ${limit}, waiting up to ${maxS} s for it to fall`);
  while (l > limit && Date.now() - t0 < maxS * 1000) {
    await new Promise((r) => setTimeout(r, pollMs));
    l = load();
  }
  log(`settled: load ${round2(l)} after ${Math.round((Date.now() - t0) / 1000)} s`);
  return round2(l);
}

/** The line a benchmark prints at its start: it needs an idle machine, the rule, and the load now. */
export function idleNotice(limit: number = claimLimit(), usableCpus: number = availableParallelism(), now: number = loadavg()[0]): string {
  const l = round2(now);
  return (
    `this benchmark needs an idle machine: a figure whose 1-min load at the start or end of its phase exceeds ${limit} (${CLAIM_MAX_LOAD_PER_CPU} × ${usableCpus} usable cores) is reported but not claimed, and scale-plot will not stamp it into the docs; load now ${l}` +
    (l > limit ? ` — ABOVE the limit: stop other work (test suites, CI, other benchmarks) first` : '')
  );
}
