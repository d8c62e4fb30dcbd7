/**
 * CPU time from Linux /proc, in seconds (issue 38 item 5): the machine's busy time (/proc/stat) and
 * this process's own CPU with its waited-for children's (/proc/self/stat), read at the same instant
 * so that a benchmark phase can tell its own work from other work on the machine (bench/quiet.ts).
 * Pure parsers plus one reader; off Linux the reader returns null.
 */
import { existsSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times (USER_HZ: 100 on every Linux architecture Node supports). */
export const USER_HZ = 100;

/** Busy CPU seconds since boot of the counted cores, and how many cores were counted. */
export interface MachineCpu {
  busyS: number;
  cpus: number;
}

/**
 * Busy seconds from /proc/stat: user + nice + system + irq + softirq + steal (idle and iowait are
 * not busy; guest and guest_nice are already inside user and nice). `allowed` (the cores this
 * process may run on, `Cpus_allowed_list`) sums those cores' `cpuN` lines; without it, the
 * aggregate `cpu` line over all cores.
 */
export function parseProcStat(text: string, allowed?: ReadonlySet<number>): MachineCpu {
  let busy = 0;
  let cpus = 0;
  let all: { busy: number; cpus: number } | undefined;
  let perCpu = 0;
  for (const line of text.split('\n')) {
    const m = /^cpu(\d*)\s+(.*)$/.exec(line);
    if (!m) continue;
    const f = m[2].trim().split(/\s+/).map(Number);
    if (f.length < 4 || f.some((x) => !Number.isFinite(x))) throw new Error(`/proc/stat: unreadable line "${line}"`);
    const [user, nice, system, , , irq = 0, softirq = 0, steal = 0] = f;
    const b = user + nice + system + irq + softirq + steal;
    if (m[1] === '') {
      all = { busy: b, cpus: 0 };
      continue;
    }
    perCpu++;
    if (allowed?.has(Number(m[1]))) {
      busy += b;
      cpus++;
    }
  }
  if (!all) throw new Error('/proc/stat: no aggregate "cpu" line');
  if (!allowed || !cpus) return { busyS: all.busy / USER_HZ, cpus: perCpu };
  return { busyS: busy / USER_HZ, cpus };
}

/** A process's own CPU seconds (utime + stime) and its waited-for children's (cutime + cstime), from /proc/<pid>/stat. */
export function parseSelfStat(text: string): { selfS: number; childrenS: number } {
  // the fields after the command name (which may hold spaces and parentheses) start at field 3
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => {
    const v = Number(rest[n - 3]);
    if (!Number.isFinite(v)) throw new Error(`/proc/self/stat: field ${n} unreadable`);
    return v;
  };
  return { selfS: (field(14) + field(15)) / USER_HZ, childrenS: (field(16) + field(17)) / USER_HZ };
}

/** The cores of a `Cpus_allowed_list` value (`0-3,8,10-11`). */
export function parseCpuList(list: string): Set<number> {
  const out = new Set<number>();
  for (const part of list.trim().split(',')) {
    if (!part) continue;
    const [a, b = a] = part.split('-').map(Number);
    if (!Number.isInteger(a) || !Number.isInteger(b)) throw new Error(`cpu list: unreadable "${list}"`);
    for (let i = a; i <= b; i++) out.add(i);
  }
  return out;
}

/** One reading: the counted cores' busy seconds and this process's own (with its waited-for children). */
export interface CpuSample {
  machineS: number;
  ownS: number;
  cpus: number;
}

/** Reads /proc now (the cores this process may run on); null where there is no /proc/stat (not Linux). */
export function readCpuSample(): CpuSample | null {
  if (!existsSync('/proc/stat') || !existsSync('/proc/self/stat')) return null;
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const list = /^Cpus_allowed_list:\s*(.+)$/m.exec(status)?.[1];
    const m = parseProcStat(readFileSync('/proc/stat', 'utf8'), list ? parseCpuList(list) : undefined);
    const own = parseSelfStat(readFileSync('/proc/self/stat', 'utf8'));
    return { machineS: m.busyS, ownS: own.selfS + own.childrenS, cpus: m.cpus };
  } catch {
    return null;
  }
}
