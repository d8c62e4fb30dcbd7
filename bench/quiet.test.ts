import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimLimit, idleNotice, loadClaim, ownBusy, settle } from './quiet.js';
import { checkPeerTargets, checkScaleTargets, unclaimedFigures, type ScaleResults, type ScaleRun } from './scale.js';
import { NotClaimedError, writeScaleDocs } from './scale-plot.js';
import { checkTargets, type BenchResults, type EngineRun } from './report.js';

// Issue 38 item 5: a figure claims a target (and may be stamped into the docs) only when the 1-min
// load at the start AND the end of its phase was ≤ 0.75 × usable cores. Loads are injected here.

/** A 10M-passage run whose every phase started at `start` and ended at `end` (figures inside the targets). */
function run10M(start: number, end: number | undefined): ScaleRun {
  const shape = (shape: 'agent' | 'barexam', k: number, p50Ms: number) => ({
    shape,
    k,
    queries: 20,
    p50Ms,
    p95Ms: p50Ms * 2,
    meanMs: p50Ms,
    maxMs: p50Ms * 3,
    cpuP50Ms: p50Ms,
    cpuP95Ms: p50Ms,
    meanDistinctWords: 12,
    loadAvgAtStart: [start, start, start],
    ...(end === undefined ? {} : { loadAvgAtEnd: [end, end, end] }),
  });
  return {
    size: 10_000_000,
    profile: 'bench',
    status: 'ok',
    build: {
      passages: 10_000_000,
      buildS: 300,
      buildCpuS: 560,
      buildPeakRssMiB: 2000,
      indexBytes: 1,
      indexBytesNoDocs: 1,
      indexBreakdown: {},
      generatorCpuS: 1,
      loadAvg: [0, 0, 0],
      loadAvgAtStart: start,
      ...(end === undefined ? {} : { loadAvgAtEnd: end }),
    },
    queries: [
      {
        method: 'bm25',
        openS: 1,
        shapes: [shape('barexam', 1000, 30), shape('agent', 10, 2)],
        servingPeakRssMiB: 1500,
        servingRssMiB: 1400,
        loadAvg: [0, 0, 0],
        loadAvgAtStart: start,
        ...(end === undefined ? {} : { loadAvgAtEnd: end }),
      },
    ],
  };
}

describe('the quiet-machine rule (bench/quiet.ts)', () => {
  it('claims a figure only when the load at its start and its end is within 0.75 × usable cores', () => {
    expect(claimLimit(2)).toBe(1.5);
    expect(claimLimit(16)).toBe(12);
    expect(loadClaim([0.4, 1.5], 1.5)).toEqual({ load: 1.5, claimed: true });
    // quiet at the start, loaded by the end (a test suite started meanwhile): not claimed
    expect(loadClaim([0.4, 2.37], 1.5)).toEqual({ load: 2.37, claimed: false, reason: 'not claimed: load 2.37 at start/end > 1.5' });
    expect(loadClaim([3.1, 0.2], 1.5).claimed).toBe(false);
    // an end load never recorded (a result file from before the rule) claims nothing either
    expect(loadClaim([0.4, undefined], 1.5)).toMatchObject({ load: 0.4, claimed: false, reason: 'not claimed: no load recorded at start/end (limit 1.5)' });
  });

  it("lets a phase's end load exceed the limit by the cores the phase itself kept busy, no more", () => {
    expect(ownBusy(560, 300)).toBe(1.87);
    expect(ownBusy(undefined, 300)).toBe(0);
    expect(loadClaim([0.4, { load: 3.3, ownBusy: 1.87 }], 1.5)).toEqual({ load: 3.3, claimed: true });
    expect(loadClaim([0.4, { load: 3.5, ownBusy: 1.87 }], 1.5)).toMatchObject({
      claimed: false,
      reason: "not claimed: load 3.5 at start/end > 1.5 + 1.87 (the phase's own busy cores)",
    });
    // the allowance is for the end only: a start above the limit is other work (or the bench's own last phase, not settled)
    expect(loadClaim([2.0, { load: 1.0, ownBusy: 1.87 }], 1.5).claimed).toBe(false);
  });

  it('settles: waits while the load is above the limit (polling), up to its bound, and starts at once when quiet', async () => {
    const seq = [2.6, 2.1, 1.7, 1.4, 1.2];
    const lines: string[] = [];
    expect(
      await settle(
        1.5,
        60,
        (l) => lines.push(l),
        () => seq.shift()!,
        1,
      ),
    ).toBe(1.4);
    expect(lines).toEqual([expect.stringMatching(/^settling: load 2\.6 > 1\.5/), expect.stringMatching(/^settled: load 1\.4 after \d+ s$/)]);
    expect(
      await settle(
        1.5,
        60,
        () => {},
        () => 0.3,
        1,
      ),
    ).toBe(0.3);
    // bounded: a machine that stays loaded is waited on for maxS only, and the load it starts at is returned (the figure is then not claimed)
    expect(
      await settle(
        1.5,
        0.05,
        () => {},
        () => 4,
        1,
      ),
    ).toBe(4);
    expect(
      await settle(
        1.5,
        0,
        () => {},
        () => 4,
        1,
      ),
    ).toBe(4);
  });

  it('says at the start that the run needs an idle machine, with the rule and the load now', () => {
    expect(idleNotice(1.5, 2, 0.31)).toMatch(/needs an idle machine: .* exceeds 1\.5 \(0\.75 × 2 usable cores\).*load now 0\.31$/);
    expect(idleNotice(1.5, 2, 4.2)).toMatch(/load now 4\.2 — ABOVE the limit/);
  });
});

describe('scale bench targets and the docs stamp refuse loaded figures', () => {
  it('marks a 10M target met only when its phase was quiet at both ends, else not claimed with the load', () => {
    const quiet = checkScaleTargets([run10M(0.5, 1.2)], 2);
    expect(quiet.find((t) => t.target === 'agent query p50 (bench bm25)')).toMatchObject({ met: true, load: 1.2 });
    expect(quiet.find((t) => t.target === 'build wall (bench)')).toMatchObject({ met: true, load: 1.2 });
    // at the end the load may exceed the limit by the cores the phase kept busy itself (build: 560 CPU s in 300 s = 1.87; a shape's queries: CPU p50 ÷ wall p50 = 1)
    const own = checkScaleTargets([run10M(0.5, 2.4)], 2);
    expect(own.find((t) => t.target === 'build wall (bench)')).toMatchObject({ met: true, load: 2.4 });
    expect(own.find((t) => t.target === 'agent query p50 (bench bm25)')).toMatchObject({ met: true, load: 2.4 });
    const loaded = checkScaleTargets([run10M(0.5, 3.5)], 2);
    for (const t of loaded) {
      expect(t.met).toBeNull();
      expect(t.note).toMatch(/not claimed: load 3\.5 at start\/end > 1\.5 \+ (1\.87|1) \(the phase's own busy cores\)/);
    }
    // a figure outside its limit is missed whatever the load
    const slow = run10M(0.5, 3);
    slow.queries[0].shapes[1].p50Ms = 50;
    expect(checkScaleTargets([slow], 2).find((t) => t.target === 'agent query p50 (bench bm25)')?.met).toBe(false);
    // the same loads on a 4-core machine are quiet (limit 3)
    expect(checkScaleTargets([run10M(0.5, 3.5)], 4).every((t) => t.met === true)).toBe(true);
  });

  it("counts both engines' phases in a speed-up over BM25S", () => {
    const r: ScaleRun = { ...run10M(0.3, 0.3), size: 856_835 };
    r.queries[0].shapes[1] = { ...r.queries[0].shapes[1], shape: 'agent' };
    const peerShape = {
      shape: 'agent',
      k: 10,
      queries: 20,
      p50Ms: 60,
      p95Ms: 70,
      meanMs: 60,
      maxMs: 80,
      cpuP50Ms: 60,
      cpuP95Ms: 70,
      loadAvgAtStart: [0.3, 0.3, 0.3],
    };
    const peer = (end: number) => ({
      status: 'ok' as const,
      result: { shapes: [peerShape], loadAvgAtStart: 0.3, loadAvgAtEnd: end } as never,
      compare: [{ shape: 'agent' as const, k: 10, method: 'bm25', speedupP50: 30, cpuSpeedupP50: 30 }],
    });
    expect(checkPeerTargets([{ ...r, bm25s: peer(0.4) }], 2)[0]).toMatchObject({ met: true, value: 30 });
    expect(checkPeerTargets([{ ...r, bm25s: peer(2.6) }], 2)[0]).toMatchObject({ met: null, load: 2.6 });
    expect(unclaimedFigures([{ ...r, bm25s: peer(2.6) }], 1.5).map((f) => f.what)).toEqual(['856,835 bench BM25S peer']);
  });

  describe('scale-plot', () => {
    let dir: string;
    const results = (runs: ScaleRun[]): ScaleResults => ({
      schema: 'lexcase-bench-scale/1',
      startedAt: '2026-11-28T00:00:00.000Z',
      finishedAt: '2026-11-28T01:00:00.000Z',
      command: 'x',
      gitSha: null,
      machine: { cpus: 8, usableCpus: 2, cpuModel: 'x', totalMemGiB: 8, freeMemGiBAtStart: 4, node: 'v20', loadAvgAtStart: [0.2, 0.2, 0.2], nice: 0 },
      options: { corpora: ['bench'] } as ScaleResults['options'],
      runs,
      targets: [],
      notes: [],
    });
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'lexcase-quiet-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const docFiles = async () => {
      const doc = join(dir, 'bench.md');
      const pdoc = join(dir, 'scale.md');
      await writeFile(doc, '# Bench\n<!-- scale:begin -->\nold\n<!-- scale:end -->\n');
      await writeFile(pdoc, '# Scale\n<!-- scale-projection:begin -->\nold\n<!-- scale-projection:end -->\n');
      await rm(join(dir, 'curve.svg'), { force: true });
      return { doc, pdoc, svg: join(dir, 'curve.svg') };
    };

    it('refuses to stamp a run loaded at the end of a phase: nothing written, the result file kept, exit reason per figure', async () => {
      // usable cores 2 (the run was pinned), machine cores 8: the limit is 1.5, not 6
      const file = join(dir, 'loaded.json');
      const json = JSON.stringify(results([run10M(0.4, 3.5)]));
      await writeFile(file, json);
      const { doc, pdoc, svg } = await docFiles();
      const err = await writeScaleDocs([file], svg, doc, pdoc).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotClaimedError);
      const figures = (err as NotClaimedError).figures;
      expect(figures.map((f) => f.what)).toEqual([
        '10,000,000 bench build',
        '10,000,000 bench bm25 queries',
        '10,000,000 bench bm25 barexam@1000',
        '10,000,000 bench bm25 agent@10',
      ]);
      for (const f of figures) expect(f.reason).toMatch(/^not claimed: load 3\.5 at start\/end > 1\.5 \+ (1\.87|1) \(the phase's own busy cores\)$/);
      expect(await readFile(doc, 'utf8')).toContain('\nold\n');
      expect(await readFile(pdoc, 'utf8')).toContain('\nold\n');
      expect(existsSync(svg)).toBe(false);
      expect(await readFile(file, 'utf8')).toBe(json);
    });

    it('refuses a result file without end loads (written before the rule), and stamps a quiet one', async () => {
      const old = join(dir, 'old.json');
      await writeFile(old, JSON.stringify(results([run10M(0.4, undefined)])));
      let { doc, pdoc, svg } = await docFiles();
      await expect(writeScaleDocs([old], svg, doc, pdoc)).rejects.toThrow(/no load recorded at start\/end/);
      const quiet = join(dir, 'quiet.json');
      await writeFile(quiet, JSON.stringify(results([run10M(0.4, 1.1)])));
      ({ doc, pdoc, svg } = await docFiles());
      await writeScaleDocs([quiet], svg, doc, pdoc);
      const md = await readFile(doc, 'utf8');
      expect(md).not.toContain('\nold\n');
      expect(md).toContain('| 10,000,000 | bench | 300 (560) | 2000 |');
      expect(md).toContain('| 0.4 / 1.1 |');
      expect(existsSync(svg)).toBe(true);
    });
  });
});

describe('npm run bench targets (bench/report.ts) on a loaded machine', () => {
  const lex = (method: string, start: number, end: number): EngineRun => ({
    size: 856_835,
    engine: 'lexcase',
    method,
    status: 'ok',
    build: { buildS: 40, buildCpuS: 70, buildPeakRssMiB: 900, indexBytes: 100, postingsBytes: 50, loadAvgAtStart: start, loadAvgAtEnd: end },
    query: {
      byK: { '1000': { queries: 50, p50Ms: 8, p95Ms: 12, meanMs: 8, maxMs: 20 } },
      queryPeakRssMiB: 300,
      top10: [],
      loadAvgAtStart: start,
      loadAvgAtEnd: end,
    },
  });
  const res = (start: number, end: number): Pick<BenchResults, 'runs' | 'comparisons' | 'dense' | 'corpora' | 'startup'> => ({
    runs: [lex('bm25', start, end), lex('qld', start, end)],
    comparisons: [],
    dense: [],
    corpora: [{ size: 856_835, passages: 856_835, rawTextBytes: 1000, words: 1, meanWords: 1, generateS: 1, cached: true }],
  });

  it('passes a timing target from a quiet run and does not claim it from a run loaded at its end; memory targets stand', () => {
    const quiet = checkTargets(res(0.3, 1.0), 856_835, 100_000, 1.5);
    expect(quiet.find((t) => t.id === 'build-time')?.pass).toBe(true);
    expect(quiet.find((t) => t.id === 'p50-bm25')?.pass).toBe(true);
    const loaded = checkTargets(res(0.3, 2.2), 856_835, 100_000, 1.5);
    for (const id of ['build-time', 'p50-bm25', 'p50-qld']) {
      const t = loaded.find((x) => x.id === id)!;
      expect(t.pass).toBeNull();
      expect(t.measured).toContain('not claimed: load 2.2 at start/end > 1.5');
    }
    expect(loaded.find((t) => t.id === 'build-rss')?.pass).toBe(true);
  });
});
