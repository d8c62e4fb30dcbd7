/**
 * Start-up scenario (issue 25): the CPU time (user + system) of whole `lexcase` processes as a user
 * runs them — `node dist/src/cli/main.js --version`, and `search "<query>" --index DIR -k 10` on the
 * default index (bundled default corpus, bm25 + qld, as `run case` builds it) — beside bare `node -e 0`.
 *
 * The CPU time of each child is read from this process's own /proc/self/stat (cutime + cstime: the
 * children it has waited for), so the child runs exactly as a user runs it, with nothing preloaded.
 * Linux only (elsewhere the scenario is skipped with that reason); resolution one clock tick (10 ms),
 * so each command runs `runs` times and the median is reported.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { USER_HZ, parseSelfStat } from './proc-stat.js';

export interface StartupCommand {
  id: string;
  /** What was run (node's own flags and the script path left out). */
  command: string;
  runs: number;
  cpuMedianS: number;
  cpuMinS: number;
  wallMedianS: number;
  exitCodes: number[];
}

export interface StartupResult {
  commands: StartupCommand[];
  loadAvgAtStart: number;
  /** Seconds per clock tick of the CPU figures. */
  tickS: number;
}

/** CPU seconds (user + system) of the children this process has waited for; undefined off Linux. */
export function childrenCpuS(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  try {
    return parseSelfStat(readFileSync('/proc/self/stat', 'utf8')).childrenS;
  } catch {
    return undefined;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function timeCommand(id: string, args: string[], shown: string, runs: number, cwd: string): StartupCommand {
  const cpu: number[] = [];
  const wall: number[] = [];
  const exitCodes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = childrenCpuS()!;
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    wall.push((performance.now() - t0) / 1000);
    cpu.push(childrenCpuS()! - c0);
    exitCodes.push(r.status ?? -1);
    if (r.status !== 0) throw new Error(`${shown} exited ${r.status ?? r.signal}: ${r.stderr.toString().trim().split('\n').slice(-3).join(' / ')}`);
  }
  return { id, command: shown, runs, cpuMedianS: r3(median(cpu)), cpuMinS: r3(Math.min(...cpu)), wallMedianS: r3(median(wall)), exitCodes };
}

/**
 * Build the default index under workDir with the CLI (not timed), then time each command `runs` times.
 * `cli`: the built entry (dist/src/cli/main.js).
 */
export async function measureStartup(o: {
  cli: string;
  workDir: string;
  runs: number;
  log?: (line: string) => void;
}): Promise<StartupResult | { skipped: string }> {
  if (childrenCpuS() === undefined) return { skipped: 'needs /proc/self/stat (Linux) to read the CPU time of child processes' };
  if (!existsSync(o.cli)) return { skipped: `${o.cli} not built (npm run build)` };
  await rm(o.workDir, { recursive: true, force: true });
  await mkdir(o.workDir, { recursive: true });
  const index = join(o.workDir, 'default-index');
  o.log?.('startup: building the default index (bundled default corpus, bm25 + qld)');
  const b = spawnSync(process.execPath, [o.cli, 'index', 'build', 'default', '--out', index, '--methods', 'bm25,qld', '--quiet'], {
    cwd: o.workDir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (b.status !== 0) throw new Error(`index build default exited ${b.status}: ${b.stderr.toString().trim().split('\n').slice(-3).join(' / ')}`);
  const loadAvgAtStart = Math.round(loadavg()[0] * 100) / 100;
  const query = 'hearsay exception for a statement against interest';
  const commands = [
    timeCommand('node', ['-e', '0'], 'node -e 0', o.runs, o.workDir),
    timeCommand('version', [o.cli, '--version'], 'lexcase --version', o.runs, o.workDir),
    timeCommand('search', [o.cli, 'search', query, '--index', index, '-k', '10'], `lexcase search "${query}" --index <default index> -k 10`, o.runs, o.workDir),
  ];
  for (const c of commands) o.log?.(`startup: ${c.command}: CPU median ${c.cpuMedianS} s, wall median ${c.wallMedianS} s (${c.runs} runs)`);
  return { commands, loadAvgAtStart, tickS: 1 / USER_HZ };
}
