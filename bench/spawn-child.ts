/** Run one scenario in a fresh Node process (bench/child.ts or dist/bench/child.js) and read its result. */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ChildSpec } from './child.js';
import { type PhaseProbe, probeMachine } from './machine-probe.js';
import { readCpuSample } from './proc-stat.js';
import { phaseCpu, type PhaseCpu } from './quiet.js';

export interface ChildOutcome {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: string;
  wallS: number;
  loadAvgAtStart: number;
  /** 1-min load when the child had exited (bench/quiet.ts: a figure claims only when both ends are quiet). */
  loadAvgAtEnd: number;
  /** Machine busy and own CPU (this process + the child and its children) over the child's life (bench/quiet.ts); absent off Linux. */
  cpu?: PhaseCpu;
  /** The fixed work timed in this process right before the child started and right after it ended (bench/machine-probe.ts); with `probe` only. */
  probe?: PhaseProbe;
}

const fromTs = fileURLToPath(import.meta.url).endsWith('.ts');
const childPath = fileURLToPath(new URL(fromTs ? './child.ts' : './child.js', import.meta.url));

export async function runChild(spec: ChildSpec, timeoutS: number, heapMiB?: number, opts: { probe?: boolean } = {}): Promise<ChildOutcome> {
  // Outside the phase: before its load, CPU and wall readings start, after they end.
  const before = opts.probe ? probeMachine() : undefined;
  const args = [...(fromTs ? ['--import', 'tsx'] : []), ...(heapMiB ? [`--max-old-space-size=${heapMiB}`] : []), childPath, JSON.stringify(spec)];
  const loadAvgAtStart = Math.round(loadavg()[0] * 100) / 100;
  await rm(spec.resultFile, { force: true });
  const cpu0 = readCpuSample();
  const t = performance.now();
  const code = await new Promise<number | string>((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr.on('data', (d: Buffer) => {
      tail = (tail + d.toString()).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
    child.on('close', (c, sig) => {
      clearTimeout(timer);
      resolve(
        c === 0 ? 0 : `exit ${c ?? sig}${sig === 'SIGKILL' ? ` (killed after ${timeoutS} s limit?)` : ''}: ${tail.trim().split('\n').slice(-6).join('\n')}`,
      );
    });
  });
  const cpu = phaseCpu(cpu0, readCpuSample(), (performance.now() - t) / 1000);
  const wallS = Math.round((performance.now() - t) / 10) / 100;
  const loadAvgAtEnd = Math.round(loadavg()[0] * 100) / 100;
  const probe = before ? { probe: { before, after: probeMachine() } } : {};
  if (code !== 0) return { ok: false, error: String(code), wallS, loadAvgAtStart, loadAvgAtEnd, ...(cpu ? { cpu } : {}), ...probe };
  const result = JSON.parse(await readFile(spec.resultFile, 'utf8')) as Record<string, unknown>;
  return { ok: true, result, wallS, loadAvgAtStart, loadAvgAtEnd, ...(cpu ? { cpu } : {}), ...probe };
}
