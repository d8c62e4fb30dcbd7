/**
 * --query-runs N (bench/scale-processes.ts): N query processes over one index become one result
 * whose latency figures are the medians, each process's kept; the 10M targets judge the median and
 * claim nothing unless every process was quiet. The figures are four real query processes over the
 * 10M-passage bench-corpus index, run back to back on the quiet 2-core VM on 2026-12-04
 * (bench/results/scale-2026-12-04T10-5*, T11-0*).
 */
import { describe, expect, it } from 'vitest';
import { median, mergeQueryProcesses, type QueryProcessResult, runQueryProcesses } from './scale-processes.js';
import { checkScaleTargets, parseScaleArgs, renderScaleMarkdown, type ScaleRun } from './scale.js';

const cpu = { wallS: 20, machineS: 30, ownS: 29.9, resolutionS: 0.04 };
/** One query process of the 10M bench corpus: Bar Exam and agent cold p50 / p95, serving RSS, load at the start. */
function proc(bar: [number, number], agent: [number, number], rss: number, load = 1.1): QueryProcessResult {
  const shape = (name: 'barexam' | 'agent', k: number, [p50, p95]: [number, number]) => ({
    shape: name,
    k,
    queries: 100,
    p50Ms: p50,
    p95Ms: p95,
    meanMs: p50 * 1.05,
    maxMs: p95 * 1.4,
    cpuP50Ms: p50 * 1.6,
    cpuP95Ms: p95 * 1.6,
    meanDistinctWords: name === 'agent' ? 13 : 110,
    loadAvgAtStart: [load, 1, 1],
    loadAvgAtEnd: [load + 0.2, 1, 1],
    cpu,
    warm: { p50Ms: p50 * 0.8, p95Ms: p95 * 0.8, cpuP50Ms: p50 * 1.3, cpuP95Ms: p95 * 1.3 },
  });
  return {
    method: 'bm25',
    openS: 4.8,
    shapes: [shape('barexam', 1000, bar), shape('agent', 10, agent)],
    servingPeakRssMiB: rss,
    servingRssMiB: rss - 10,
    loadAvg: [load, 1, 1],
    loadAvgAtStart: load,
    loadAvgAtEnd: load + 0.1,
    cpu,
  };
}
const four = [
  proc([48, 67.03], [5.81, 13.59], 1840.3),
  proc([53.25, 73.31], [4.58, 8.41], 1867.1),
  proc([36.65, 59.14], [4.48, 7.32], 1862.7),
  proc([46.81, 72.25], [5.96, 10.36], 1860),
];
const run10m = (q: QueryProcessResult): ScaleRun => ({ size: 10_000_000, profile: 'bench', status: 'ok', reused: true, queries: [q] });

describe('query processes merged by --query-runs', () => {
  it('takes the median of each latency figure, keeps every process, the largest serving RSS', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([48, 53.25, 36.65, 46.81])).toBe(47.41);
    const m = mergeQueryProcesses(four);
    const bar = m.shapes.find((s) => s.shape === 'barexam')!;
    expect(bar.p50Ms).toBe(47.41);
    expect(bar.p95Ms).toBe(69.64);
    expect(bar.processes!.map((p) => p.p50Ms)).toEqual([48, 53.25, 36.65, 46.81]);
    expect(bar.warm!.p50Ms).toBe(median(four.map((p) => p.shapes[0].warm!.p50Ms)));
    expect(m.shapes.find((s) => s.shape === 'agent')!.p50Ms).toBe(5.2);
    expect(m.servingPeakRssMiB).toBe(1867.1);
    expect(m.processes.map((p) => p.loadAvgAtStart)).toEqual([1.1, 1.1, 1.1, 1.1]);
    expect(() => mergeQueryProcesses(four.slice(0, 1))).toThrow(/2 or more/);
  });

  it('judges the 10M targets on the median: the one process under 40 ms does not make the Bar Exam target met', () => {
    const alone = checkScaleTargets([run10m(four[2])], 2).find((t) => t.target.startsWith('Bar Exam'))!;
    expect(alone).toMatchObject({ value: 36.65, met: true });
    expect(alone.processes).toBeUndefined();
    const merged = checkScaleTargets([run10m(mergeQueryProcesses(four))], 2).find((t) => t.target.startsWith('Bar Exam'))!;
    expect(merged).toMatchObject({ value: 47.41, met: false, processes: [48, 53.25, 36.65, 46.81] });
  });

  it('claims nothing when any one process started on a busy machine', () => {
    const busy = [...four.slice(0, 3), proc([30, 40], [2, 4], 1800, 2.4)];
    const t = checkScaleTargets([run10m(mergeQueryProcesses(busy))], 2).find((x) => x.target.startsWith('Bar Exam'))!;
    expect(t.value).toBe(42.33);
    expect(t.met).toBe(false); // over the limit: missed, whatever the load
    const quietMedian = checkScaleTargets(
      [run10m(mergeQueryProcesses([...four.slice(0, 2), proc([30, 40], [2, 4], 1800, 2.4), proc([20, 30], [2, 4], 1800, 2.4)]))],
      2,
    ).find((x) => x.target.startsWith('Bar Exam'))!;
    // within the limit by its median, but two processes started at load 2.4 (> 1.5 on 2 cores): not claimed
    expect(quietMedian.value).toBe(39);
    expect(quietMedian.met).toBeNull();
    expect(quietMedian.note).toMatch(/load 2\.4 at start > 1\.5/);
  });

  it("a run whose third of four processes fails keeps the two finished processes' figures, shows them, and judges no target on them", async () => {
    const asked: number[] = [];
    const out = await runQueryProcesses('bm25', 4, async (p) => {
      asked.push(p);
      return p === 3 ? { ok: false, error: 'scale-query child exited with signal SIGKILL' } : { ok: true, result: four[p - 1] };
    });
    expect(asked).toEqual([1, 2, 3]); // stops at the failure
    if (!('unfinished' in out)) throw new Error('expected an unfinished result');
    const u = out.unfinished;
    expect(u).toMatchObject({ method: 'bm25', of: 4, failedAt: 3, reason: /SIGKILL/ });
    expect(u.processes.map((p) => p.shapes[0].p50Ms)).toEqual([48, 53.25]);
    const run: ScaleRun = {
      size: 10_000_000,
      profile: 'bench',
      status: 'failed',
      reason: 'bm25 queries (process 3 of 4): SIGKILL',
      reused: true,
      queries: [],
      unfinished: [u],
    };
    // no latency target is judged on a median of the processes that happened to finish
    expect(checkScaleTargets([run], 2).filter((t) => /agent|Bar Exam|worst/.test(t.target) && t.value !== null)).toEqual([]);
    const md = renderScaleMarkdown([{ runs: [run], targets: [], notes: [] } as never]);
    expect(md).toContain('failed: bm25 queries (process 3 of 4): SIGKILL');
    expect(md).toMatch(/bm25 \(process 1 of 4; process 3 failed: judged by no target\) .* barexam, 1000 \| 48 \/ 67\.03 \|/);
    expect(md).toMatch(/bm25 \(process 2 of 4; process 3 failed: judged by no target\) .* agent, 10 \| 4\.58 \/ 8\.41 \|/);
    const all = await runQueryProcesses('bm25', 4, async (p) => ({ ok: true, result: four[p - 1] }));
    expect('merged' in all && all.merged.shapes[0].p50Ms).toBe(47.41);
  });

  it('parses --query-runs as a positive integer', () => {
    expect(parseScaleArgs(['--scale']).queryRuns).toBe(1);
    expect(parseScaleArgs(['--scale', '--query-runs', '3']).queryRuns).toBe(3);
    expect(() => parseScaleArgs(['--scale', '--query-runs', '0'])).toThrow(/--query-runs: expected a positive integer/);
    expect(() => parseScaleArgs(['--scale', '--query-runs', 'x2'])).toThrow(/--query-runs: expected a positive integer, got "x2"/);
  });
});
