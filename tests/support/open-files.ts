/**
 * Whether a process holds a file open (Linux /proc/PID/fd): process tests send their signal once the
 * child is mid-way through writing or reading, never after a guessed sleep.
 */
import { readdirSync, readlinkSync } from 'node:fs';

/** Whether process `pid` holds open a file whose path satisfies `match`. */
export function holdsOpenWhere(pid: number, match: (path: string) => boolean): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return match(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      return false;
    }
  });
}
