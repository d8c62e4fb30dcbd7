/**
 * Benchmarks on a quiet machine (issue 38 item 5): a figure claims a target, and may be stamped into
 * the docs, only when nothing else ran beside the phase that took it. Two readings per phase:
 *
 * - Other work, measured directly: the machine's busy CPU time over the phase (/proc/stat, the cores
 *   this process may run on) minus the benchmark's own (its process and the children it waited
 *   for, /proc/self/stat: the phase's child process and that child's own children). Others' cores
 *   = that difference ÷ the phase's wall seconds; at most OTHERS_MAX_CORES (plus the counters'
 *   resolution, a few 10 ms ticks ÷ wall) is quiet.
 * - The 1-min load at the phase's START, at most CLAIM_MAX_LOAD_PER_CPU × the usable cores (1.5 on
 *   2): the machine was quiet when the phase began (the bench `settle`s before each phase so its
 *   own previous phase has decayed).
 *
 * The load at the END is recorded but decides nothing: the load average counts runnable threads, so
 * a 2-worker build ends near 3.5 on an idle 2-core machine (3 threads on 2 cores), and no
 * allowance from CPU ÷ wall counts those threads right. A phase without a CPU reading (not Linux,
 * or a result file written before this rule) or without a start load claims nothing. Pure
 * functions: readings are passed in, so the rule is tested without timing.
 */
import { availableParallelism, loadavg } from 'node:os';
import { USER_HZ, type CpuSample } from './proc-stat.js';

/** 1-min load per usable core at a phase's start above which a figure claims nothing (1.5 on the 2-core machine). */
export const CLAIM_MAX_LOAD_PER_CPU = 0.75;

/**
 * Cores of other work (machine busy − the bench's own CPU, ÷ wall) above which a phase's figures
 * claim nothing: a quarter of a core — an editor, a shell, the odd daemon fit under it; a test suite,
 * a CI job or another benchmark (each at least one busy core while it runs) does not.
 */
export const OTHERS_MAX_CORES = 0.25;

/** The load limit for `usableCpus` cores (those this process may run on: taskset/cgroup affinity). */
export const claimLimit = (usableCpus: number = availableParallelism()): number => CLAIM_MAX_LOAD_PER_CPU * usableCpus;

const round2 = (x: number) => Math.round(x * 100) / 100;

/** CPU over one phase, in seconds: the counted cores' busy time, the bench's own, and the counters' resolution. */
export interface PhaseCpu {
  wallS: number;
  /** Busy CPU seconds of the cores this process may run on (/proc/stat), all processes. */
  machineS: number;
  /** CPU seconds of the bench process and the children it waited for (/proc/self/stat). */
  ownS: number;
  /** What the tick counters may be off by: one tick per counted core and two for the own figures. */
  resolutionS: number;
}

/** The phase between two readings `wallS` apart (undefined when either is missing: not Linux). */
export function phaseCpu(start: CpuSample | null | undefined, end: CpuSample | null | undefined, wallS: number): PhaseCpu | undefined {
  if (!start || !end || !(wallS > 0)) return undefined;
  return {
    wallS: Math.round(wallS * 1000) / 1000,
    machineS: round2(end.machineS - start.machineS),
    ownS: round2(end.ownS - start.ownS),
    resolutionS: round2((Math.max(start.cpus, end.cpus) + 2) / USER_HZ),
  };
}

/** Cores of other work over the phase: (machine busy − own) ÷ wall, never below 0 (the counters' rounding). */
export const othersCores = (p: PhaseCpu): number => round2(Math.max(0, (p.machineS - p.ownS) / p.wallS));

/** The most others' cores a phase of `p.wallS` may show and stay quiet: OTHERS_MAX_CORES + the resolution ÷ wall. */
export const othersLimit = (p: PhaseCpu): number => round2(OTHERS_MAX_CORES + p.resolutionS / p.wallS);

/** `others 0.03 cores (machine 1.84, own 1.81)`: each in cores (CPU s ÷ wall s). */
const cpuParts = (p: PhaseCpu) => `(machine ${round2(p.machineS / p.wallS)}, own ${round2(p.ownS / p.wallS)})`;
export const cpuLine = (p: PhaseCpu | null | undefined): string => (p ? `others ${othersCores(p)} cores ${cpuParts(p)}` : 'others unknown (no /proc/stat)');

/** What a phase recorded: the 1-min load at its start and end, and its CPU. */
export interface Phase {
  loadAtStart: number | null | undefined;
  loadAtEnd?: number | null | undefined;
  cpu: PhaseCpu | null | undefined;
}

export interface QuietClaim {
  /** Largest 1-min load recorded at the phases' starts and ends (for the record; null: none). */
  load: number | null;
  /** Largest others' cores over the phases (null: no CPU reading). */
  others: number | null;
  claimed: boolean;
  /** Why not, when not claimed. */
  reason?: string;
}

const known = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Whether figures taken over `phases` (several when a figure combines them, e.g. lexcase beside
 * BM25S) may be claimed: each phase started at a load ≤ `limit` and had ≤ OTHERS_MAX_CORES (plus
 * resolution) of other work.
 */
export function quietClaim(phases: readonly Phase[], limit: number): QuietClaim {
  const loads = phases.flatMap((p) => [p.loadAtStart, p.loadAtEnd]).filter(known);
  const load = loads.length ? round2(Math.max(...loads)) : null;
  const cpus = phases.map((p) => p.cpu).filter((c): c is PhaseCpu => !!c && c.wallS > 0);
  const others = cpus.length ? Math.max(...cpus.map(othersCores)) : null;
  const out = (reason: string): QuietClaim => ({ load, others, claimed: false, reason: `not claimed: ${reason}` });
  if (!phases.length) return out('no phase recorded');
  const hot = phases.find((p) => known(p.loadAtStart) && p.loadAtStart > limit);
  if (hot) return out(`load ${round2(hot.loadAtStart as number)} at start > ${limit}`);
  if (phases.some((p) => !known(p.loadAtStart))) return out(`no load recorded at start (limit ${limit})`);
  const busy = cpus.find((c) => othersCores(c) > othersLimit(c));
  if (busy) return out(`others ${othersCores(busy)} cores > ${othersLimit(busy)} ${cpuParts(busy)}`);
  if (cpus.length < phases.length) return out("no CPU reading (/proc/stat, Linux only; or a result file from before the others'-CPU rule)");
  return { load, others, claimed: true };
}

/**
 * The share of the claim limit `settle` waits for: a phase's own start (its process, its threads,
 * the index being opened) lifts the 1-min load before the phase records it, so a phase started
 * right at the limit often recorded 1.55–1.69 on 2 cores and was not claimed (2026-11-29 quiet runs).
 */
export const SETTLE_SHARE = 0.85;

/**
 * Waits (polling every `pollMs`) until the 1-min load is at most `limit` × SETTLE_SHARE, for at most
 * `maxS` seconds; returns the load it starts the phase at. The bench's own previous phase decays
 * here instead of counting against the next one.
 */
export async function settle(
  limit: number,
  maxS: number,
  log: (line: string) => void,
  load: () => number = () => loadavg()[0],
  pollMs = 5000,
): Promise<number> {
  const t0 = Date.now();
  const target = round2(limit * SETTLE_SHARE);
  let l = load();
  if (l <= target || maxS <= 0) return round2(l);
  log(`settling: load ${round2(l)} > ${target} (${SETTLE_SHARE} × the ${limit} limit), waiting up to ${maxS} s for it to fall`);
  while (l > target && Date.now() - t0 < maxS * 1000) {
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
    `this benchmark needs an idle machine: a figure whose phase started at a 1-min load above ${limit} (${CLAIM_MAX_LOAD_PER_CPU} × ${usableCpus} usable cores), or had more than ${OTHERS_MAX_CORES} cores of other work beside it (machine busy CPU − the bench's own, /proc/stat), is reported but not claimed, and scale-plot will not stamp it into the docs; load now ${l}` +
    (l > limit ? ` — ABOVE the limit: stop other work (test suites, CI, other benchmarks) first` : '')
  );
}
