import { describe, expect, it } from 'vitest';
import { runOpenAiLocalBench } from './embed-openai-local.js';
import { checkTargets, renderMarkdown, type BenchResults, type EmbedScaleResult } from './report.js';
import { runUseLiteBound } from './use-lite-bound.js';
import { syntheticPassagesSync } from './synthetic.js';

const empty = { runs: [], comparisons: [], corpora: [] } as Pick<BenchResults, 'runs' | 'comparisons' | 'corpora'>;
/** The embed child's phase as bench/run.ts records it: 1-min load at its start and end, and its CPU (120 s wall, the bench's own 1.9 cores, `others` cores of other work). */
const withEmbed = (result: EmbedScaleResult, loadAtStart = 0.4, others = 0) => ({
  ...empty,
  dense: [
    {
      scenario: 'embed' as const,
      args: {},
      status: 'ok' as const,
      result,
      loadAvgAtStart: loadAtStart,
      loadAvgAtEnd: 1.2,
      cpu: { wallS: 120, machineS: 120 * (1.9 + others), ownS: 120 * 1.9, resolutionS: 0.04 },
    },
  ],
});

describe("embed scenario, issue 31 target 4 (figures are the bench run's; this checks the machinery)", () => {
  it('times the openai client against instant servers in a child process (base64 and float-only) and addDenseIndex end to end', async () => {
    const r = await runOpenAiLocalBench({ passages: 600, dim: 16 });
    expect(r.rows.map((x) => [x.what.split(' ')[0], x.server, x.concurrency])).toEqual([
      ['embedder', 'base64', 1],
      ['embedder', 'base64', 4],
      ['embedder', 'float', 4],
      ['addDenseIndex', 'base64', 4],
    ]);
    for (const x of r.rows) {
      expect(x.passages).toBe(600);
      expect(x.passagesPerS).toBeGreaterThan(0);
      expect(x.clientCpuUsPerPassage).toBeGreaterThan(0);
    }
    expect(r.loadAvg).toHaveLength(3);
  }, 120_000);

  it('measures use-lite beside its compute bound: MACs per 128-token passage, kernel rate on all workers, passages/s', async () => {
    const texts = [...syntheticPassagesSync({ n: 4, seed: 1 })].map((p) => p.text);
    const u = await runUseLiteBound({ texts, workers: 2, gemmSeconds: 0.2 });
    expect(u.meanTokens).toBe(128); // synthetic 128-word passages tokenize past the graph's 128
    expect(u.macsPerPassage).toBe(521_142_272);
    expect(u.gemm.gmacsPerSBefore).toBeGreaterThan(0);
    expect(u.boundPassagesPerS).toBeCloseTo((((u.gemm.gmacsPerSBefore + u.gemm.gmacsPerSAfter) / 2) * 1e9) / u.macsPerPassage, 0);
    expect(u.percentOfBound).toBeCloseTo((100 * u.passagesPerS) / u.boundPassagesPerS, -1);
    expect(u.perCpuSecond.percentOfBound).toBeGreaterThan(0);
  }, 180_000);

  it('claims the targets only from an idle run, and says so in the report', () => {
    const openaiLocal = {
      dim: 384,
      wordsPerPassage: 128,
      batchSize: 64,
      appendBatch: 256,
      loadAvg: [0.4, 0.5, 0.6],
      rows: [
        { what: 'embedder', server: 'base64', concurrency: 4, passages: 20000, seconds: 2, passagesPerS: 10000, clientCpuUsPerPassage: 70 },
        {
          what: 'addDenseIndex (embed + LanceDB append, flat)',
          server: 'base64',
          concurrency: 4,
          passages: 20000,
          seconds: 5,
          passagesPerS: 4000,
          clientCpuUsPerPassage: 150,
        },
      ],
    };
    const useLiteBound = {
      workers: 2,
      passages: 96,
      meanTokens: 128,
      macsPerPassage: 521_142_272,
      gemm: { variant: 'simd', shape: '128x512·512x1536', gmacsPerSBefore: 20, gmacsPerSAfter: 20 },
      passagesPerS: 25,
      boundPassagesPerS: 38.4,
      percentOfBound: 65.1,
      perCpuSecond: { passages: 48, gmacsPerCpuS: 10, passagesPerCpuS: 16, boundPassagesPerCpuS: 19.2, percentOfBound: 83.4 },
      loadAvg: [0.5, 0.7],
    };
    const idle = checkTargets(withEmbed({ openaiLocal, useLiteBound }), 856_835, 100_000, 1.5);
    expect(idle.find((t) => t.id === 'embed-openai-client')?.pass).toBe(true);
    expect(idle.find((t) => t.id === 'use-lite-bound')?.pass).toBe(false);
    // the quiet rule of every timing target (bench/quiet.ts): the embed child's start load and the other work beside it
    const loaded = checkTargets(withEmbed({ openaiLocal, useLiteBound }, 6), 856_835, 100_000, 1.5);
    const busy = checkTargets(withEmbed({ openaiLocal, useLiteBound }, 0.4, 0.6), 856_835, 100_000, 1.5);
    for (const id of ['embed-openai-client', 'use-lite-bound']) {
      expect(loaded.find((x) => x.id === id)).toMatchObject({ pass: null, measured: expect.stringContaining('not claimed: load 6 at start > 1.5') });
      expect(busy.find((x) => x.id === id)).toMatchObject({ pass: null, measured: expect.stringContaining('not claimed: others 0.6 cores') });
    }
    const machine = { cpus: 2, cpuModel: 'test', totalMemGiB: 24, node: 'v20', platform: 'linux', arch: 'x64', loadAvgAtStart: [0.4, 0.5, 0.6], nice: 0 };
    const md = renderMarkdown({
      schema: 'lexcase-bench/1',
      startedAt: 'now',
      finishedAt: 'now',
      command: 'npm run bench -- --only embed',
      machine,
      options: {},
      ...withEmbed({ openaiLocal, useLiteBound }),
      targets: idle,
      notes: [],
    });
    expect(md).toContain('## openai embedder client against an instant local server');
    expect(md).toContain('| wall, 2 threads at once (kernel before / after) | 20.00 / 20.00 | 38.4 | 25.0 | 65.1 |');
  });
});
