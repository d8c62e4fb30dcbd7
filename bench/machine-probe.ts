/**
 * A fixed piece of work timed before and after each benchmark phase, so a figure carries the speed of
 * the machine it was taken on.
 *
 * Why: on the 2-core VM the same code, index and queries gave a 10M Bar Exam p50 of 36.65–53.25 ms
 * from one query process to the next, the CPU per query moving with it, with no other work beside
 * them (docs/notes/2026-12-04-query-process-spread.md), and notes compare runs of different hours
 * ("the machine slower than in the morning"). The VM reports no steal time, so a host that gives the
 * guest less would show only as slower code. The probe is the same work every time, run in the bench's
 * own process (never in the measured child, whose CPU, RSS and timings stay its own), outside the
 * phase's CPU reading:
 *
 * - `opNs`: ns per step of a 32-bit integer mixing loop (no memory traffic): the core's speed.
 * - `readNs`: ns per dependent read of a pointer chase over a 32 MiB random cycle (each read's
 *   address is the previous read's value): what a cache miss costs, the posting walk's other cost.
 *
 * Each figure is the fastest of REPS repetitions (interruptions only add). A phase's figure is
 * explained by the machine when its probe moved by as much; not when the probe held still.
 */

import { readFileSync } from 'node:fs';

/** Integer steps a compute repetition runs (~15–30 ms on the 2-core VM). */
const OPS = 20_000_000;
/** Entries of the pointer-chase cycle: 8 Mi u32, 32 MiB (well past the VM's last-level cache). */
const CHASE_ENTRIES = 1 << 23;
/** Dependent reads a memory repetition makes (~20–40 ms at ~100 ns a miss). */
const READS = 300_000;
const REPS = 3;

export interface MachineProbe {
  /** ns per step of the integer loop (fastest of REPS). */
  opNs: number;
  /** ns per dependent read of the 32 MiB pointer chase (fastest of REPS). */
  readNs: number;
}

/** The probe right before a phase and right after it (absent in result files from before 2026-12-04 12:30 UTC). */
export interface PhaseProbe {
  before: MachineProbe;
  after: MachineProbe;
}

let chase: Uint32Array | undefined;

/** One random cycle through all `n` entries (Sattolo's shuffle, seeded): following it from any entry visits every entry once. */
export function chaseCycle(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < a.length; i++) a[i] = i;
  let s = 0x9e3779b9;
  for (let i = a.length - 1; i > 0; i--) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const j = (s >>> 0) % i; // j < i: one cycle
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a;
}

/** The integer loop; returns its state so the work cannot be dropped. */
function mix(n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) {
    h ^= i;
    h = Math.imul(h, 0x01000193);
    h ^= h >>> 15;
  }
  return h;
}

/** `n` dependent reads of the cycle from `start`; returns where it ended. */
function follow(a: Uint32Array, start: number, n: number): number {
  let p = start;
  for (let i = 0; i < n; i++) p = a[p];
  return p;
}

/** The loops' results, kept in module state (and readable through probeSink) so the timed work cannot be optimised away. */
let sink = 0;

/** Times the fixed work (about 0.2–0.4 s on the 2-core VM; the first call also builds the 32 MiB cycle). */
export function probeMachine(): MachineProbe {
  chase ??= chaseCycle(CHASE_ENTRIES);
  const a = chase;
  let opNs = Number.POSITIVE_INFINITY;
  let readNs = Number.POSITIVE_INFINITY;
  mix(OPS >> 4); // compiled before it is timed
  follow(a, 0, READS >> 4);
  let p = 1;
  for (let r = 0; r < REPS; r++) {
    let t = performance.now();
    sink ^= mix(OPS);
    opNs = Math.min(opNs, ((performance.now() - t) * 1e6) / OPS);
    t = performance.now();
    p = follow(a, p, READS);
    readNs = Math.min(readNs, ((performance.now() - t) * 1e6) / READS);
  }
  sink ^= p;
  return { opNs: Math.round(opNs * 1000) / 1000, readNs: Math.round(readNs * 100) / 100 };
}

/**
 * What decides whether the index's arrays sit in 2 MiB pages: the kernel's transparent-huge-page mode
 * and glibc's malloc tunables (glibc.malloc.hugetlb=1 madvises malloc's large mappings, where Node
 * allocates array buffers). On the 2-core VM (mode madvise) they changed a 10M index's open from
 * 5.3 to 2.1 s (docs/notes/2026-12-04-machine-probe.md), so a result records them.
 */
export interface HugePages {
  /** The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled, or null off Linux. */
  thp: string | null;
  /** GLIBC_TUNABLES as the bench and its children see it, or null when unset. */
  glibcTunables: string | null;
}

export function hugePages(): HugePages {
  let thp: string | null = null;
  try {
    thp = /\[(\w+)\]/.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1] ?? null;
  } catch {
    // not Linux, or no THP support: null
  }
  return { thp, glibcTunables: process.env.GLIBC_TUNABLES ?? null };
}

/** "op 0.91 → 0.93 ns, read 98.1 → 101.2 ns" for a phase's log line. */
export function probeLine(before?: MachineProbe, after?: MachineProbe): string {
  if (!before || !after) return 'machine probe: –';
  return `machine probe: op ${before.opNs} → ${after.opNs} ns, read ${before.readNs} → ${after.readNs} ns`;
}

/** The loops' folded results: reading them is what makes the timed work observable to the compiler. */
export const probeSink = () => sink;
