/**
 * A build's phase timeline (issue 38): per phase its wall time, the CPU time of the whole process
 * (main thread, build workers, zlib's thread pool, GC helpers) and of the main thread alone, and
 * the main thread's GC pauses. A phase whose CPU is mostly the main thread's runs on one core.
 * Cheap: one /proc read and one process.cpuUsage() per phase mark; main-thread CPU is Linux only
 * (/proc/thread-self/stat, 10 ms ticks), absent elsewhere.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

export interface BuildPhase {
  name: string;
  wallS: number;
  /** CPU seconds of the process (every thread). */
  cpuS: number;
  /** CPU seconds of the main thread (Linux; absent elsewhere). */
  mainCpuS?: number;
  /** Main-thread GC pauses (seconds). */
  gcS: number;
}

/** CPU seconds of the calling thread (Linux), or undefined. */
function threadCpuS(): number | undefined {
  try {
    const s = readFileSync('/proc/thread-self/stat', 'latin1');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // fields 14 and 15 (utime, stime) are 12 and 13 after the command name
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return undefined;
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export class PhaseClock {
  private readonly list: BuildPhase[] = [];
  private wall = performance.now();
  private cpu = process.cpuUsage();
  private main = threadCpuS();
  private gcMs = 0;
  private gcAt = 0;
  private readonly observer = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) this.gcMs += e.duration;
  });

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** End the phase that ran since the last mark (or the start) under `name`. */
  mark(name: string): void {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const main = threadCpuS();
    const gc = this.gcMs;
    this.list.push({
      name,
      wallS: round((wall - this.wall) / 1000),
      cpuS: round((cpu.user - this.cpu.user + cpu.system - this.cpu.system) / 1e6),
      ...(main !== undefined && this.main !== undefined ? { mainCpuS: round(main - this.main) } : {}),
      gcS: round((gc - this.gcAt) / 1000),
    });
    this.wall = wall;
    this.cpu = cpu;
    this.main = main;
    this.gcAt = gc;
  }

  /** The phases so far; stops observing GC. */
  done(): BuildPhase[] {
    this.observer.disconnect();
    return this.list;
  }
}
