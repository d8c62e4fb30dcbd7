/**
 * The query split (bench/query-split.ts): a CPU that runs
 * slower shows as its ranges' p50 and as the cpu1 ÷ cpu0 ratio, whichever thread is on it (the threads
 * swap CPUs halfway here, as they did in a 10M query process: docs/notes/2026-12-04-vcpu-spells.md).
 */
import { describe, expect, it } from 'vitest';
import { cpuRatio, splitLine, type PassSplit } from './query-split.js';

/** 20 queries, both halves 4 ms of work; cpu1 1.5× slower; the calling thread on cpu0 then, from query 10, on cpu1. */
function pass(): PassSplit {
  const queries: PassSplit['queries'] = [];
  for (let i = 0; i < 20; i++) {
    const [mainCpu, workerCpu] = i < 10 ? [0, 1] : [1, 0];
    const own = mainCpu === 1 ? 6 : 4;
    const worker = workerCpu === 1 ? 6 : 4;
    queries.push([Math.max(own, worker) + 0.1, own, worker, Math.max(0, worker - own) + 0.1, 0, mainCpu, workerCpu]);
  }
  return {
    pooled: 20,
    localP50Ms: 5,
    localP95Ms: 6,
    workerP50Ms: 5,
    workerP95Ms: 6,
    waitP50Ms: 1,
    waitP95Ms: 2.1,
    mainGcMs: 0,
    workerGcMs: 1.5,
    byCpu: { cpu0: { ranges: 20, p50Ms: 4 }, cpu1: { ranges: 20, p50Ms: 6 } },
    queries,
  };
}

describe('the query split', () => {
  it('puts a slow CPU at 1.5 × the other whichever thread is on it', () => {
    expect(cpuRatio(pass())).toBe(1.5);
    // with the CPUs named the other way round, the ratio inverts
    const swapped = pass();
    swapped.queries = swapped.queries.map(([w, o, k, wait, gc, m, c]) => [w, o, k, wait, gc, 1 - m, 1 - c]);
    expect(cpuRatio(swapped)).toBeCloseTo(1 / 1.5, 2);
  });

  it('has no ratio where no query had a range on each CPU (both threads on one CPU, or in-process)', () => {
    const one = pass();
    one.queries = one.queries.map(([w, o, k, wait, gc]) => [w, o, k, wait, gc, 0, 0]);
    expect(cpuRatio(one)).toBeUndefined();
  });

  it("prints each pass's parts and CPUs on the query's log line", () => {
    const p = pass();
    expect(splitLine({ cold: p, warm: { ...p, pooled: 0 } })).toBe(
      "split cold: own range p50 5, worker 5, wait 1 ms, GC 0 + 1.5 ms, by CPU cpu0 4 (20), cpu1 6 (20), cpu1 ÷ cpu0 1.5: one CPU ran slower (the host's; the figure is kept); warm: in-process (no worker pool)",
    );
  });
});
