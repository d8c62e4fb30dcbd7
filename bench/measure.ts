/** Small measurement helpers shared by the benchmark scenarios. */
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { freemem } from 'node:os';
import { join } from 'node:path';

/** Nearest-rank percentile of a list of numbers (p in [0, 100]). */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

export interface LatencyStats {
  queries: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  maxMs: number;
}

export function latencyStats(ms: readonly number[]): LatencyStats {
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    queries: ms.length,
    p50Ms: round(percentile(ms, 50)),
    p95Ms: round(percentile(ms, 95)),
    meanMs: round(ms.reduce((a, b) => a + b, 0) / (ms.length || 1)),
    maxMs: round(ms.length ? Math.max(...ms) : NaN),
  };
}

/** Total bytes of the regular files under `dir`, recursively. */
export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await dirBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

/** Bytes per top-level entry of `dir` (e.g. sparse/, docs/, manifest.json). */
export async function dirBreakdown(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    out[e.name] = e.isDirectory() ? await dirBytes(p) : (await stat(p)).size;
  }
  return out;
}

/**
 * Peak resident set size of this process so far, in KiB: its memory's high-water mark (VmHWM of
 * /proc/self/status; worker threads share it), not getrusage's maxRSS. On Linux maxRSS carries over
 * the parent's RSS at the moment it spawned this process (fork copies it, exec keeps it): a child
 * started by a driver holding 600 MB reported 618 MB where its own peak was 40 MB, so a benchmark
 * child's (or a test child's) peak read as at least its driver's. Elsewhere (no /proc) maxRSS.
 */
export function ownPeakRssKiB(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    /* not Linux */
  }
  return process.resourceUsage().maxRSS;
}

/** MemAvailable of /proc/meminfo in MiB (os.freemem() where there is none). */
export function availableMemMiB(): number {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    /* no /proc */
  }
  return freemem() / 2 ** 20;
}

/** Peak resident set size of this process so far, in MiB (ownPeakRssKiB: this process's own, not its parent's). */
export function peakRssMiB(): number {
  return Math.round((ownPeakRssKiB() / 1024) * 10) / 10;
}

/** CPU seconds (user + system) used by this process so far, all threads. */
export function cpuSeconds(): number {
  const u = process.resourceUsage();
  return Math.round(((u.userCPUTime + u.systemCPUTime) / 1e6) * 100) / 100;
}
