import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latencyStats } from './measure.js';
import { syntheticQueries } from './synthetic.js';
import type { ScaleResults } from './scale.js';
import { fitPowerLaw, projections, writeScaleDocs } from './scale-plot.js';
import { compactJson } from './scale.js';

const run = promisify(execFile);

// The scale bench as a user starts it (`bench/run.ts --scale`, here through tsx), on 3,000 passages
// per corpus and a few queries: the corpus is written by a generator process to a file the build reads, each
// method is queried from a fresh process, the index is deleted afterwards, and the plot script
// turns the result file into an SVG and the table block of a doc.
describe('npm run bench -- --scale on a tiny corpus', () => {
  let dir: string;
  let res: ScaleResults;
  let stdout: string;
  let stderr: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lexcase-scale-'));
    const out = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/run.ts',
        '--scale',
        '--scale-sizes',
        '3000',
        '--queries',
        '4',
        '--workers',
        '1',
        '--settle',
        '0',
        '--work',
        join(dir, 'work'),
        '--out',
        join(dir, 'results'),
      ],
      { timeout: 240_000, env: { ...process.env, LEXCASE_BM25S_SRC: '' } },
    );
    stdout = out.stdout;
    stderr = out.stderr;
    res = JSON.parse(await readFile(join(dir, 'results', 'scale-latest.json'), 'utf8')) as ScaleResults;
  }, 300_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('builds each corpus from the stream and reports build, open, RSS and p50/p95 per query shape and method', () => {
    expect(res.schema).toBe('lexcase-bench-scale/1');
    expect(res.runs.map((r) => `${r.size}:${r.profile}:${r.status}`)).toEqual(['3000:bench:ok', '3000:zipf:ok']);
    for (const r of res.runs) {
      expect(r.build!.passages).toBe(3000);
      // issue 38 item 4: the corpus is written first (timed apart), the build reads the file, and
      // its throughput is printed: analysed tokens per second and per CPU second (per core)
      expect(r.generate!.bytes).toBeGreaterThan(3000 * 100);
      expect(r.generate!.cpuS).toBeGreaterThan(0);
      expect(r.build!.generatorCpuS).toBe(0);
      expect(r.build!.workers).toBe(1);
      expect(r.build!.tokens).toBeGreaterThan(3000 * 20);
      expect(r.build!.tokensPerCpuS).toBe(Math.round(r.build!.tokens! / r.build!.buildCpuS));
      expect(r.build!.tokensPerS).toBe(Math.round(r.build!.tokens! / r.build!.buildS));
      expect(r.build!.buildS).toBeGreaterThan(0);
      expect(r.build!.buildPeakRssMiB).toBeGreaterThan(10);
      expect(r.build!.indexBytesNoDocs).toBeGreaterThan(0);
      expect(r.build!.indexBytes).toBeGreaterThan(r.build!.indexBytesNoDocs);
      expect(r.queries.map((q) => q.method)).toEqual(['bm25', 'qld']);
      for (const q of r.queries) {
        expect(q.openS).toBeGreaterThan(0);
        expect(q.servingPeakRssMiB).toBeGreaterThan(10);
        const shapes = q.shapes.map((s) => `${s.shape}@${s.k}`);
        expect(shapes).toEqual(r.profile === 'zipf' ? ['worst@1000', 'agent@10'] : ['barexam@1000', 'agent@10']);
        for (const s of q.shapes) {
          expect(s.queries).toBe(4);
          expect(s.p95Ms).toBeGreaterThanOrEqual(s.p50Ms);
          expect(s.loadAvgAtStart).toHaveLength(3);
          expect(s.loadAvgAtEnd).toHaveLength(3);
          // counted from the index the queries ran on: each query's terms hold postings
          expect(s.meanPostings).toBeGreaterThan(0);
          expect(s.cpuNsPerPosting).toBeGreaterThan(0);
          // each timed query's wall, cold and warm, with its split (bench/query-split.ts): 3,000
          // passages are scored in-process (no worker pool below QUERY_THREADS_MIN_DOCS), so no parts
          for (const pass of [s.split!.cold, s.split!.warm]) {
            expect(pass.queries).toHaveLength(4);
            expect(pass.pooled).toBe(0);
            for (const [wall, own, worker] of pass.queries) expect([wall > 0, own, worker]).toEqual([true, 0, 0]);
          }
          expect(latencyStats(s.split!.cold.queries.map((x) => x[0])).p50Ms).toBeCloseTo(s.p50Ms, 1);
        }
        const agent = q.shapes.find((s) => s.shape === 'agent')!;
        expect(agent.meanDistinctWords).toBeGreaterThanOrEqual(6);
        expect(agent.meanDistinctWords).toBeLessThanOrEqual(30);
      }
      // bm25 and qld run the same queries on the same index: the same postings per shape
      expect(r.queries[0].shapes.map((s) => s.meanPostings)).toEqual(r.queries[1].shapes.map((s) => s.meanPostings));
    }
    // Load at both ends of every phase and its CPU (issue 38 item 5: machine busy and the bench's
    // own, from /proc), printed per phase, and the idle-machine rule said at the start.
    const cpuOk = (c: { wallS: number; machineS: number; ownS: number } | undefined) => {
      expect(c!.wallS).toBeGreaterThan(0);
      // the phase's own CPU is inside the machine's busy time (up to the 10 ms tick counters' sampling)
      expect(c!.ownS).toBeGreaterThan(0);
      expect(c!.machineS).toBeGreaterThanOrEqual(c!.ownS * 0.9 - 0.1);
    };
    // The machine probe (bench/machine-probe.ts) timed in the bench's process before and after each phase.
    const probeOk = (p: { before: { opNs: number; readNs: number }; after: { opNs: number; readNs: number } } | undefined) => {
      for (const x of [p!.before, p!.after]) {
        expect(x.opNs).toBeGreaterThan(0);
        expect(x.readNs).toBeGreaterThan(x.opNs); // a dependent cache miss costs more than an integer step
      }
    };
    expect(res.machine.hugePages!.glibcTunables).toBe(process.env.GLIBC_TUNABLES ?? null);
    for (const r of res.runs) {
      expect(typeof r.build!.loadAvgAtEnd).toBe('number');
      cpuOk(r.build!.cpu);
      probeOk(r.build!.probe);
      for (const q of r.queries) {
        expect(typeof q.loadAvgAtEnd).toBe('number');
        cpuOk(q.cpu);
        probeOk(q.probe);
        for (const s of q.shapes) expect(s.cpu!.wallS).toBeGreaterThan(0);
      }
    }
    expect(stderr).toMatch(/3,000 bench: built in .*; load [\d.]+ → [\d.]+, others [\d.]+ cores \(machine [\d.]+, own [\d.]+\)/);
    expect(stderr).toMatch(/3,000 zipf bm25: open .*; machine probe: op [\d.]+ → [\d.]+ ns, read [\d.]+ → [\d.]+ ns/);
    expect(stderr).toMatch(/3,000 zipf bm25 agent@10: cold p50 .*; split cold: in-process \(no worker pool\); warm: in-process \(no worker pool\)/);
    expect(stderr).toMatch(/3,000 zipf qld agent@10: cold p50 .* ms, warm p50 [\d.]+ \/ p95 [\d.]+ ms; others [\d.]+ cores \(machine [\d.]+, own [\d.]+\)/);
    // Every shape reports its cold first pass and, apart, the warm second pass over the same queries.
    for (const r of res.runs)
      for (const q of r.queries)
        for (const s of q.shapes) {
          expect(s.warm!.p50Ms).toBeGreaterThan(0);
          expect(s.warm!.p95Ms).toBeGreaterThanOrEqual(s.warm!.p50Ms);
          expect(typeof s.warm!.cpuP50Ms).toBe('number');
        }
    expect(stdout).toContain('| cold p50 / p95 ms | cold CPU p50 ms | CPU ns / posting | warm p50 / p95 ms (CPU p50) |');
    expect(stderr).toMatch(
      /needs an idle machine: .* above \d+(\.\d+)? \(0\.75 × \d+ usable cores\), or had more than 0\.25 cores of other work.* load now \d/,
    );
    // The 10M targets are only checked at ≥ 10M passages; the agent tail (p95 ≤ 3 × p50) at every
    // size, one per corpus and method (its verdict depends on the load, so only its presence is checked).
    expect(res.targets.filter((t) => !t.target.startsWith('agent tail'))).toEqual([]);
    expect(res.targets.map((t) => t.target).sort()).toEqual(
      ['bench bm25', 'bench qld', 'zipf bm25', 'zipf qld'].map((x) => `agent tail p95 ÷ p50, cold (${x}, 3,000)`),
    );
    for (const t of res.targets) expect(t.value).toBeGreaterThanOrEqual(1);
    expect(stdout).toContain('| 3,000 | zipf |');
    expect(stderr).toMatch(/3,000 bench: built in .* tokens: [\d,]+ tokens\/s, [\d,]+ tokens\/s per core/);
    expect(stderr).toMatch(/3,000 bench: corpus written in /);
    // No BM25S source given: the peer is skipped with one line, in the log and the results' notes.
    expect(stderr.match(/BM25S peer skipped: no source given/g)).toHaveLength(1);
    expect(res.notes.some((n) => n.startsWith('BM25S peer skipped'))).toBe(true);
    expect(res.runs.every((r) => r.bm25s === undefined)).toBe(true);
  });

  it('deletes the indexes it built and the corpus files it wrote', async () => {
    const left = await readdir(join(dir, 'work'));
    expect(left.filter((f) => f.startsWith('scale-'))).toEqual([]);
    expect(left.filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });

  it('draws the curve as an SVG and fills the generated block of a doc', async () => {
    const doc = join(dir, 'bench.md');
    await writeFile(doc, '# Bench\n\nbefore\n\n<!-- scale:begin -->\nold\n<!-- scale:end -->\n\nafter\n');
    const svg = join(dir, 'bench-scale.svg');
    const pdoc = join(dir, 'scale.md');
    await writeFile(pdoc, '# Scale\n\n<!-- scale-projection:begin -->\n<!-- scale-projection:end -->\n');
    // The stamp takes quiet runs only (bench/quiet.test.ts tests the refusal): this machine's load and
    // other work are whatever else runs on it, so the run's recorded loads are set to a quiet 0.1 and
    // each phase's machine busy time to its own CPU here.
    const quiet = join(dir, 'scale-quiet.json');
    const q = JSON.parse(await readFile(join(dir, 'results', 'scale-latest.json'), 'utf8')) as ScaleResults;
    for (const r of q.runs) {
      const quietCpu = (c: { machineS: number; ownS: number } | undefined) => Object.assign(c!, { machineS: c!.ownS });
      Object.assign(r.build!, { loadAvgAtStart: 0.1, loadAvgAtEnd: 0.1 });
      quietCpu(r.build!.cpu);
      for (const x of r.queries) {
        Object.assign(x, { loadAvgAtStart: 0.1, loadAvgAtEnd: 0.1 });
        quietCpu(x.cpu);
        for (const s of x.shapes) {
          Object.assign(s, { loadAvgAtStart: [0.1, 0.1, 0.1], loadAvgAtEnd: [0.1, 0.1, 0.1] });
          quietCpu(s.cpu);
        }
      }
    }
    await writeFile(quiet, JSON.stringify(q));
    const r = await writeScaleDocs([quiet], svg, doc, pdoc);
    // One size only: nothing to fit a curve to, so the projection table has its header alone.
    expect(await readFile(pdoc, 'utf8')).toContain('projected at 100,000,000');
    expect(r.runs).toBe(2);
    expect(existsSync(svg)).toBe(true);
    const text = await readFile(svg, 'utf8');
    expect(text.startsWith('<svg')).toBe(true);
    expect(text).toContain('passages (log)');
    const md = await readFile(doc, 'utf8');
    expect(md).toContain('before');
    expect(md).toContain('after');
    expect(md).not.toContain('\nold\n');
    expect(md).toContain('![scale curve');
    expect(md).toContain('| 3,000 | bench |');
  });
});

it('agent queries are 8–30 words, seeded, and drawn apart from the long queries', () => {
  const a = syntheticQueries({ count: 50, seed: 7, shape: 'agent' });
  const words = a.map((q) => q.split(/\s+/).length);
  expect(Math.min(...words)).toBeGreaterThanOrEqual(8);
  expect(Math.max(...words)).toBeLessThanOrEqual(30);
  expect(syntheticQueries({ count: 50, seed: 7, shape: 'agent' })).toEqual(a);
  const long = syntheticQueries({ count: 5, seed: 7 });
  expect(long[0].split(/\s+/).length).toBeGreaterThanOrEqual(140);
  expect(long[0].startsWith(a[0].slice(0, 20))).toBe(false);
});

it('projects a metric to 100M passages with the power law fitted to the largest sizes', () => {
  // v = 2·n^0.9 exactly: the fit recovers the exponent and the projection.
  const pts = [1e5, 1e6, 1e7].map((n) => ({ n, v: 2 * n ** 0.9 }));
  const { a, b } = fitPowerLaw(pts);
  expect(b).toBeCloseTo(0.9, 9);
  expect(a).toBeCloseTo(2, 6);
  const run = (size: number, buildS: number) => ({
    size,
    profile: 'bench' as const,
    status: 'ok' as const,
    queries: [],
    build: {
      passages: size,
      buildS,
      buildCpuS: buildS,
      buildPeakRssMiB: 100,
      indexBytes: size * 700,
      indexBytesNoDocs: size * 300,
      indexBreakdown: {},
      generatorCpuS: 1,
      loadAvg: [0, 0, 0],
      loadAvgAtStart: 0,
    },
  });
  // Build time linear in n from the three largest sizes (the smallest is left out of the fit).
  const ps = projections([run(1000, 999), run(1e6, 30), run(3e6, 90), run(1e7, 300)]);
  const wall = ps.find((p) => p.metric === 'build wall')!;
  expect(wall.sizes).toEqual([1e6, 3e6, 1e7]);
  expect(wall.exponent).toBe(1);
  expect(wall.projected).toBeCloseTo(3000, 6);
  const rss = ps.find((p) => p.metric === 'build peak RSS')!;
  expect(rss.exponent).toBe(0);
  expect(rss.projected).toBeCloseTo(100, 6);
});

// `--keep` then `--reuse` (issue 38's 10M reruns): the second run queries the index the first left,
// builds nothing (no build figures, its table says so), keeps it, and times the same queries on it.
describe('npm run bench -- --scale --reuse', () => {
  it('queries the index a --keep run left, without writing or building one; refuses where none is left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-scale-reuse-'));
    try {
      const args = (extra: string[], out: string) => [
        '--import',
        'tsx',
        'bench/run.ts',
        '--scale',
        '--scale-sizes',
        '2000',
        '--corpora',
        'bench',
        '--methods',
        'bm25',
        '--queries',
        '3',
        '--workers',
        '1',
        '--settle',
        '0',
        '--work',
        join(dir, 'work'),
        '--out',
        join(dir, out),
        ...extra,
      ];
      const env = { ...process.env, LEXCASE_BM25S_SRC: '' };
      await run(process.execPath, args(['--keep'], 'kept'), { timeout: 240_000, env });
      const kept = JSON.parse(await readFile(join(dir, 'kept', 'scale-latest.json'), 'utf8')) as ScaleResults;
      const manifest = join(dir, 'work', 'scale-bench-2000', 'index', 'manifest.json');
      const before = await readFile(manifest, 'utf8');
      const out = await run(process.execPath, args(['--reuse'], 'reused'), { timeout: 240_000, env });
      const reused = JSON.parse(await readFile(join(dir, 'reused', 'scale-latest.json'), 'utf8')) as ScaleResults;
      const r = reused.runs[0];
      expect(r.status).toBe('ok');
      expect(r.reused).toBe(true);
      expect(r.build).toBeUndefined();
      expect(r.generate).toBeUndefined();
      expect(out.stderr).toMatch(/2,000 bench: reusing the index at .* \(built by an earlier --keep run; no build figures\)/);
      expect(out.stderr).not.toMatch(/built in|writing the corpus/);
      // the same queries on the same index: the same postings per shape; the index is left as it was
      expect(r.queries[0].shapes.map((s) => [s.shape, s.meanPostings])).toEqual(kept.runs[0].queries[0].shapes.map((s) => [s.shape, s.meanPostings]));
      expect(await readFile(manifest, 'utf8')).toBe(before);
      expect(out.stdout).toContain('| 2,000 | bench | reused: built by an earlier --keep run |');
      // no build, so no build target is judged (not a miss)
      expect(reused.targets.some((t) => t.target.startsWith('build'))).toBe(false);
      // --query-runs 3: three fresh query processes over the same index, merged; every figure the median of the three
      const thrice = await run(process.execPath, args(['--reuse', '--query-runs', '3'], 'thrice'), { timeout: 240_000, env });
      const three = JSON.parse(await readFile(join(dir, 'thrice', 'scale-latest.json'), 'utf8')) as ScaleResults;
      expect(three.options.queryRuns).toBe(3);
      const q3 = three.runs[0].queries;
      expect(q3).toHaveLength(1);
      expect(q3[0].processes).toHaveLength(3);
      for (const s of q3[0].shapes) {
        expect(s.processes).toHaveLength(3);
        const p50s = s.processes!.map((x) => x.p50Ms).sort((a, b) => a - b);
        expect(s.p50Ms).toBe(p50s[1]);
      }
      expect(thrice.stderr).toMatch(/2,000 bench bm25 \(query process 3 of 3\): open/);
      expect(thrice.stderr).toMatch(/2,000 bench bm25 agent@10: median of 3 query processes: cold p50 [\d.]+ \/ p95 [\d.]+ ms \(p50 [\d.]+–[\d.]+, p95/);
      expect(thrice.stdout).toMatch(/\| agent, 10 \| [\d.]+ \/ [\d.]+ \(median of 3 processes; p50 [\d.]+–[\d.]+\) \|/);
      const tail = three.targets.find((t) => t.target.startsWith('agent tail'))!;
      const agent = q3[0].shapes.find((s) => s.shape === 'agent')!;
      expect(tail.value).toBe(Math.round((agent.p95Ms / agent.p50Ms) * 100) / 100);
      // another seed is another corpus: refused, not timed on this one (the build recorded what it held)
      await run(process.execPath, args(['--reuse', '--seed', '7'], 'seed7'), { timeout: 240_000, env });
      const seed7 = JSON.parse(await readFile(join(dir, 'seed7', 'scale-latest.json'), 'utf8')) as ScaleResults;
      expect(seed7.runs[0].status).toBe('failed');
      expect(seed7.runs[0].reason).toMatch(
        /--reuse: the index at .* holds another corpus \(built from \{"n":2000,"profile":"bench","seed":42\}, this run asks \{"n":2000,"profile":"bench","seed":7\}\)/,
      );
      // nothing left to reuse at another size: that run fails, naming where it looked
      const none = await run(
        process.execPath,
        args(['--reuse'], 'none').map((a) => (a === '2000' ? '1500' : a)),
        { timeout: 240_000, env },
      );
      const failed = JSON.parse(await readFile(join(dir, 'none', 'scale-latest.json'), 'utf8')) as ScaleResults;
      expect(failed.runs[0].status).toBe('failed');
      expect(failed.runs[0].reason).toMatch(/--reuse: no index at .*scale-bench-1500.index/);
      expect(none.stderr).toContain('--reuse: no index at');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});

it('a bad --scale option is one line naming it and exit 2, nothing run', async () => {
  for (const [bad, says] of [
    [['--query-runs', '0'], /^bench: --query-runs: expected a positive integer, got 0 \(npm run bench -- --scale --help\)\n$/],
    [['--query-runs', 'x2'], /^bench: --query-runs: expected a positive integer, got "x2"/],
    [['--bogus'], /^bench: Unknown option '--bogus'/],
  ] as const) {
    const err = await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--scale', ...bad], { timeout: 60_000 }).then(
      () => null,
      (e: { code: number; stderr: string; stdout: string }) => e,
    );
    expect(err?.code).toBe(2);
    expect(err?.stderr).toMatch(says);
    expect(err?.stderr).not.toMatch(/\n\s+at /);
    expect(err?.stdout).toBe('');
  }
}, 120_000);

it('writes result files with each array of numbers on one line, the same JSON', () => {
  const value = {
    a: [1, 2.5, -3e-7],
    rows: [
      [1, 2],
      [3, 4],
    ],
    o: { s: 'x', n: null, e: [] as number[] },
    mixed: [1, 'a'],
  };
  const text = compactJson(value);
  expect(JSON.parse(text)).toEqual(value);
  expect(text).toContain('"a": [1,2.5,-3e-7]');
  expect(text).toContain('    [1,2],\n    [3,4]');
  // an array that holds anything but numbers keeps one element a line
  expect(text).toContain('"mixed": [\n    1,\n    "a"\n  ]');
});
