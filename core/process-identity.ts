/**
 * Which process a pid names, beyond "is some process running with this pid": a pid is reused (after
 * a reboot, in a container whose pids restart at 1, or just after many processes), so a lock or temp
 * file naming pid 4242 may now name an unrelated process. On Linux a process's identity is the boot
 * it runs in and its start time in clock ticks since that boot (/proc/<pid>/stat field 22): two
 * processes never share both. Elsewhere (no /proc) identity is unknown and callers fall back to
 * the pid alone.
 *
 *   const me = processStartId(process.pid);            // "340d…e847:49239" on Linux, else undefined
 *   sameProcessRunning(pid, recordedStartId);           // false once that process is gone, even if the pid is reused
 *   processStartedAt(pid);                              // epoch ms the process started (Linux), for records without an id
 */
import { readFileSync } from 'node:fs';
import { processAlive } from './owned-dir.js';

/** Linux's USER_HZ (the unit of /proc/<pid>/stat's start time): 100 on every mainstream architecture. */
const USER_HZ = 100;

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Start time of `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), when readable. */
function startTicks(pid: number): number | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]); // field 3 (state) is fields[0], so field 22 is fields[19]
  return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : undefined;
}

let bootId: string | undefined | null = null;
const currentBootId = (): string | undefined => {
  if (bootId === null) bootId = readProc('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
  return bootId;
};

/** A string naming this very process among all processes of this machine, ever (Linux); undefined where unknown. */
export function processStartId(pid: number): string | undefined {
  const boot = currentBootId();
  const ticks = startTicks(pid);
  return boot && ticks !== undefined ? `${boot}:${ticks}` : undefined;
}

/**
 * Is the process that `startId` (from processStartId) names still running as `pid`? Without a
 * recorded id, or where ids are unknown, this is processAlive(pid).
 */
export function sameProcessRunning(pid: number, startId: string | undefined): boolean {
  if (!processAlive(pid)) return false;
  if (!startId) return true;
  const now = processStartId(pid);
  return now === undefined || now === startId;
}

/**
 * When `pid` started (epoch ms), from its start ticks and the boot time; undefined where unknown, or
 * when the computation does not hold for this very process (a clock that disagrees with /proc).
 */
export function processStartedAt(pid: number): number | undefined {
  const btime = /^btime (\d+)$/m.exec(readProc('/proc/stat') ?? '')?.[1];
  const ticks = startTicks(pid);
  const mine = startTicks(process.pid);
  if (!btime || ticks === undefined || mine === undefined) return undefined;
  const at = (t: number) => Number(btime) * 1000 + (t * 1000) / USER_HZ;
  // Check the unit and the boot time on this process, whose start we know: off by more than 5 s → unknown.
  if (Math.abs(at(mine) - (Date.now() - process.uptime() * 1000)) > 5000) return undefined;
  return at(ticks);
}
