/**
 * The parts of `npm run docs:figures` (docs-figures.ts) that decide what is written, apart from the
 * runs themselves so they can be tested with injected readings:
 * - measureDemo: the demo's output and — only when the machine was quiet — its wall time. A wall
 *   time taken at a 1-minute load average over MAX_LOAD (1.5) is not written: the docs keep their
 *   old figure and the script says why. The demo's CPU time (user + system, the demo and every
 *   process it waited for) is stated beside the wall time.
 * - parseTimes: the CPU seconds of a POSIX shell's `times` output (its children's line).
 * - writeFigures: every figure region of the docs re-rendered from the facts measured; a region
 *   whose facts were not taken is left as it is, with the reason.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { keepTimingCells, REGIONS, type Facts } from './figures.js';
import { figureRegions, replaceRegion } from './markdown.js';

/** The highest 1-minute load average at which a wall time is stamped into the docs. */
export const MAX_LOAD = 1.5;

export interface DemoRun {
  code: number | null;
  stdout: string;
  /** Wall seconds. */
  seconds: number;
  /** CPU seconds (user + system) of the demo and its children, when the runner could read them. */
  cpuSeconds?: number;
}

export interface DemoMeasure {
  demoStdout: string;
  /** Absent when the load was too high to stamp a wall time. */
  demoWall?: NonNullable<Facts['demoWall']>;
  /** Why demoWall is absent. */
  kept?: string;
}

export interface Machine {
  /** 1-minute load average now (os.loadavg()[0]). */
  load(): number;
  cpu: string;
  cores: number;
  today: string;
}

/**
 * This machine's readings. Windows has no load average: os.loadavg() is always [0, 0, 0] there, which
 * read as a quiet machine and stamped any wall time ("load 0 at the start"); it reads NaN (unknown)
 * instead, so nothing is stamped.
 */
export const thisMachine = (platform: NodeJS.Platform = process.platform, load1: () => number = () => loadavg()[0]): Machine => ({
  load: () => (platform === 'win32' ? Number.NaN : load1()),
  cpu: cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? '?',
  cores: cpus().length,
  today: new Date().toISOString().slice(0, 10),
});

/** Run the demo (`runDemo`) and take its figures; the load is read just before it starts. */
export async function measureDemo(runDemo: () => Promise<DemoRun>, machine: Machine = thisMachine(), command = 'npm run demo'): Promise<DemoMeasure> {
  const load = machine.load();
  const r = await runDemo();
  if (r.code !== 0) throw new Error(`${command} exited ${r.code}`);
  const cpu = r.cpuSeconds !== undefined ? `, ${r.cpuSeconds.toFixed(1)} s CPU` : '';
  if (Number.isNaN(load))
    return {
      demoStdout: r.stdout,
      kept: `this platform has no 1-minute load average (os.loadavg() is always 0 on Windows), so nothing shows the machine was quiet for its ${r.seconds.toFixed(1)} s wall${cpu}; run docs:figures on Linux or macOS`,
    };
  if (!(load <= MAX_LOAD))
    return {
      demoStdout: r.stdout,
      kept: `the 1-minute load average was ${load.toFixed(2)} when the demo started (over ${MAX_LOAD}), so its ${r.seconds.toFixed(1)} s wall${cpu} says more about the other work on this machine than about lexcase; run docs:figures again on a quiet machine`,
    };
  return {
    demoStdout: r.stdout,
    demoWall: {
      seconds: r.seconds,
      ...(r.cpuSeconds !== undefined ? { cpuSeconds: r.cpuSeconds } : {}),
      command,
      cpu: machine.cpu,
      cores: machine.cores,
      load,
      date: machine.today,
    },
  };
}

/**
 * CPU seconds of the children in a POSIX shell's `times` output: two lines, the shell's own user
 * and system time, then its children's ("0m24.310s 0m1.020s"; dash prints "0m24.31s 0m1.02s").
 */
export function parseTimes(text: string): number | undefined {
  const lines = text.trim().split('\n');
  const kids = lines[1]?.trim().split(/\s+/);
  if (!kids || kids.length !== 2) return undefined;
  let total = 0;
  for (const t of kids) {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    if (!m) return undefined;
    total += Number(m[1]) * 60 + Number(m[2]);
  }
  return total;
}

/**
 * Re-render every figure region of `files` (paths under `root`) from `facts`; regions whose facts
 * are missing are left as they are, with `why[region]` (or "not measured in this run") in the log.
 * Returns the files written.
 */
export function writeFigures(
  root: string,
  files: readonly string[],
  facts: Facts,
  why: Record<string, string> = {},
  log: (line: string) => void = console.log,
): string[] {
  const written: string[] = [];
  for (const f of files) {
    const path = join(root, f);
    const before = readFileSync(path, 'utf8');
    let text = before;
    for (const r of figureRegions(f, before)) {
      const spec = REGIONS[r.name];
      if (spec.needs.some((k) => facts[k] === undefined)) {
        log(`docs:figures: ${f}:${r.line} ${r.name} left as it is (${why[r.name] ?? 'not measured in this run'})`);
        continue;
      }
      // a demo on a loaded machine (no wall time written) keeps the docs' latency cells too
      const fresh = spec.render(facts);
      text = replaceRegion(text, r.name, why['demo-wall'] && r.name === 'demo-table' ? keepTimingCells(r.content, fresh) : fresh);
    }
    if (text !== before) {
      writeFileSync(path, text);
      written.push(f);
      log(`docs:figures: wrote ${f}`);
    }
  }
  return written;
}
