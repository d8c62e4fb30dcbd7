/**
 * Where each timed query's wall goes, in a scale-bench query process (issue 38; the 10M spread that
 * comes in spells inside one process, docs/notes/2026-12-04-machine-probe.md): the calling thread's
 * scoring of its doc range, the worker's scoring of the other (its own clock), the wait from the
 * calling thread's part to the worker's (hand-off and queue), and the GC pauses of each isolate. If a
 * slow spell is the host running the vCPUs slower, both ranges' scoring slows together with no GC;
 * if it is GC, the pauses show it.
 *
 *   const gc = mainGcClock();
 *   const rec = splitRecorder(gc);
 *   const s = rec.before(); …one query… rec.after(s, wallMs);
 *   const split = await rec.done();   // p50/p95 per part, Σ GC, and each query's row
 */
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { queryTimings, threadCpu, type QueryTimings } from '../retrieval/sparse/query-timings.js';
import { latencyStats } from './measure.js';

export interface PassSplit {
  /** Timed queries the worker pool answered (0: the index was queried in-process; then only `queries` walls). */
  pooled: number;
  localP50Ms: number;
  localP95Ms: number;
  workerP50Ms: number;
  workerP95Ms: number;
  waitP50Ms: number;
  waitP95Ms: number;
  /** Σ GC pauses over the pass on the calling thread, and in the worker (a worker's pause is counted with the query after it). */
  mainGcMs: number;
  workerGcMs: number;
  /**
   * Each range's scoring by the CPU its thread was on when it finished (Linux; −1 unknown): the p50
   * and count of the calling thread's and the worker's parts together. A slow spell on one CPU (the
   * host running that vCPU slower) shows as one CPU's p50 above the other's, whichever thread is on it.
   */
  byCpu: Record<string, { ranges: number; p50Ms: number }>;
  /** Each timed query in order: [wall, calling thread's scoring, worker's scoring, wait, calling thread's GC] in ms, then [calling thread's CPU, worker's CPU]. */
  queries: [number, number, number, number, number, number, number][];
}

export interface GcClock {
  entries: { start: number; ms: number }[];
  stop(): void;
}

/** The calling thread's GC pauses (PerformanceObserver 'gc'; delivered after the task that paused). */
export function mainGcClock(): GcClock {
  const entries: { start: number; ms: number }[] = [];
  const obs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) entries.push({ start: e.startTime, ms: e.duration });
  });
  obs.observe({ entryTypes: ['gc'] });
  return { entries, stop: () => obs.disconnect() };
}

const r2 = (x: number) => Math.round(x * 100) / 100;

export function splitRecorder(gc: GcClock) {
  const rows: { t0: number; t1: number; wall: number; d: QueryTimings; mainCpu: number }[] = [];
  return {
    before: (): { t: number; q: QueryTimings } => ({ q: queryTimings(), t: performance.now() }),
    after(s: { t: number; q: QueryTimings }, wallMs: number): void {
      const q = queryTimings();
      rows.push({
        t0: s.t,
        t1: s.t + wallMs,
        wall: wallMs,
        mainCpu: threadCpu(),
        d: {
          queries: q.queries - s.q.queries,
          localMs: q.localMs - s.q.localMs,
          workerMs: q.workerMs - s.q.workerMs,
          waitMs: q.waitMs - s.q.waitMs,
          workerGcMs: q.workerGcMs - s.q.workerGcMs,
          lastWorkerCpu: q.lastWorkerCpu,
        },
      });
    },
    /** The pass's split, once the GC entries of its last query have been delivered. */
    async done(): Promise<PassSplit> {
      await new Promise((r) => setTimeout(r, 5));
      const mainGc = rows.map((x) => gc.entries.filter((e) => e.start >= x.t0 && e.start < x.t1).reduce((a, e) => a + e.ms, 0));
      const local = latencyStats(rows.map((x) => x.d.localMs));
      const worker = latencyStats(rows.map((x) => x.d.workerMs));
      const wait = latencyStats(rows.map((x) => x.d.waitMs));
      const onCpu = new Map<number, number[]>();
      for (const x of rows.filter((r) => r.d.queries > 0))
        for (const [cpu, ms] of [
          [x.mainCpu, x.d.localMs],
          [x.d.lastWorkerCpu, x.d.workerMs],
        ]) {
          if (!onCpu.has(cpu)) onCpu.set(cpu, []);
          onCpu.get(cpu)!.push(ms);
        }
      const byCpu = Object.fromEntries(
        [...onCpu].sort((a, b) => a[0] - b[0]).map(([cpu, ms]) => [`cpu${cpu}`, { ranges: ms.length, p50Ms: latencyStats(ms).p50Ms }]),
      );
      return {
        pooled: rows.filter((x) => x.d.queries > 0).length,
        localP50Ms: local.p50Ms,
        localP95Ms: local.p95Ms,
        workerP50Ms: worker.p50Ms,
        workerP95Ms: worker.p95Ms,
        waitP50Ms: wait.p50Ms,
        waitP95Ms: wait.p95Ms,
        mainGcMs: r2(mainGc.reduce((a, b) => a + b, 0)),
        workerGcMs: r2(rows.reduce((a, x) => a + x.d.workerGcMs, 0)),
        byCpu,
        queries: rows.map((x, i) => [r2(x.wall), r2(x.d.localMs), r2(x.d.workerMs), r2(x.d.waitMs), r2(mainGc[i]), x.mainCpu, x.d.lastWorkerCpu]),
      };
    },
  };
}

/** Median over a pass's queries of the range time on cpu1 ÷ that on cpu0 (queries with one range on each); undefined if none. */
export function cpuRatio(p: PassSplit): number | undefined {
  const rs: number[] = [];
  for (const [, own, worker, , , mainCpu, workerCpu] of p.queries) {
    const on = new Map([
      [mainCpu, own],
      [workerCpu, worker],
    ]);
    const a = on.get(0);
    const b = on.get(1);
    if (a !== undefined && b !== undefined && a > 0) rs.push(b / a);
  }
  if (!rs.length) return undefined;
  rs.sort((x, y) => x - y);
  const m = rs.length >> 1;
  return Math.round((rs.length % 2 ? rs[m] : (rs[m - 1] + rs[m]) / 2) * 100) / 100;
}

/** A pass whose CPUs' ratio is past this (or its inverse) says so on the log line: one vCPU ran slower (docs/notes/2026-12-04-vcpu-spells.md). */
export const CPU_SKEW = 1.2;

/** The log line's part: "split cold: own range p50 a, worker b, wait c ms, GC d + e ms; warm: …". */
/** Whether the pass's two CPUs differ by CPU_SKEW or more (cpuRatio). */
export function cpuSkewed(p: PassSplit): boolean {
  const r = cpuRatio(p);
  return r !== undefined && (r >= CPU_SKEW || r <= 1 / CPU_SKEW);
}

const skew = (p: PassSplit): string => (cpuSkewed(p) ? `, cpu1 ÷ cpu0 ${cpuRatio(p)}: one CPU ran slower (the host's; the figure is kept)` : '');

export function splitLine(s: { cold: PassSplit; warm: PassSplit }): string {
  const one = (p: PassSplit) =>
    p.pooled
      ? `own range p50 ${p.localP50Ms}, worker ${p.workerP50Ms}, wait ${p.waitP50Ms} ms, GC ${p.mainGcMs} + ${p.workerGcMs} ms, by CPU ${Object.entries(p.byCpu)
          .map(([c, v]) => `${c} ${v.p50Ms} (${v.ranges})`)
          .join(', ')}${skew(p)}`
      : 'in-process (no worker pool)';
  return `split cold: ${one(s.cold)}; warm: ${one(s.warm)}`;
}
