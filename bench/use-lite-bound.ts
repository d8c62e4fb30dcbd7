/**
 * use-lite's passage throughput beside its compute bound (issue 31 target 4), in one run:
 *
 * - multiply-adds per passage: useLiteMacsPerText (use-lite-direct.ts, from the model's shapes) at
 *   each passage's token count after tokenization (128-word passages; the graph keeps ≤ 128 tokens);
 * - the gemm kernel's multiply-adds per second on all `workers` cores at once: each worker thread
 *   runs the kernel (indexer/embed/kernel/gemm.ts, the variant use-lite runs) on the FFN product's
 *   shape (128 × 512 · 512 × 1536, the shape of 58% of the pass's multiply-adds) for `gemmSeconds`;
 *   the rates add up. Measured before and after the passages, and the bound uses their mean;
 * - passages/s of the use-lite embedder with `workers` threads, as `index dense` runs it.
 *
 * bound = kernel multiply-adds/s ÷ multiply-adds per passage; percent = passages/s ÷ bound.
 *
 * Wall-clock figures need an idle machine; `perCpuSecond` gives the same ratio per CPU second of
 * one thread (the kernel alone, then the in-thread embedder), which time-sharing with other
 * processes does not change much — the figure to read on a loaded machine.
 *
 *   runUseLiteBound({ passages: 96, workers: 2 }) → { macsPerPassage, gemm, passagesPerS, bound, percentOfBound, loadAvg }
 */
import { availableParallelism, loadavg } from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { spawnWorker } from '../core/worker-url.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import { gemmKernel, gemmVariant } from '../indexer/embed/kernel/gemm.js';
import { loadUseLiteDirect, useLiteMacsPerText } from '../indexer/embed/use-lite-direct.js';

const SHAPE = { M: 128, K: 512, N: 1536 };
const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;

/** The kernel's multiply-adds per second in this thread on SHAPE, over about `seconds` (wall, or this process's CPU time with `cpu`). */
function gemmRate(seconds: number, cpu = false): number {
  const { M, K, N } = SHAPE;
  const a = 0;
  const b = a + M * K * 4;
  const c = b + K * N * 4;
  const bias = c + M * N * 4;
  const kernel = gemmKernel(bias + N * 4);
  const f = new Float32Array(kernel.memory.buffer);
  for (let i = 0; i < bias / 4 + N; i++) f[i] = ((i * 7919) % 1000) / 1000 - 0.5;
  for (let i = 0; i < 3; i++) kernel.gemm(a, b, c, N * 4, bias, M, K, N, 0);
  let calls = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < seconds * 1000) {
    for (let i = 0; i < 4; i++) kernel.gemm(a, b, c, N * 4, bias, M, K, N, 0);
    calls += 4;
    t = performance.now();
  }
  const used = process.cpuUsage(c0);
  return (calls * M * K * N) / (cpu ? (used.user + used.system) / 1e6 : (t - t0) / 1000);
}

if (!isMainThread && (workerData as { gemmRate?: number } | undefined)?.gemmRate) {
  parentPort!.postMessage(gemmRate((workerData as { gemmRate: number }).gemmRate));
}

/** The kernel's multiply-adds per second summed over `threads` worker threads running at once. */
async function gemmRateAll(threads: number, seconds: number): Promise<{ total: number; perThread: number[] }> {
  const perThread = await Promise.all(
    Array.from({ length: threads }, () => {
      const w = spawnWorker(import.meta.url, './use-lite-bound.js', { workerData: { gemmRate: seconds } });
      return new Promise<number>((res, rej) => {
        w.once('message', (r: number) => {
          res(r);
          void w.terminate();
        });
        w.once('error', rej);
      });
    }),
  );
  return { total: perThread.reduce((s, x) => s + x, 0), perThread };
}

export interface UseLiteBoundArgs {
  /** The 128-word passages to embed (default 96). */
  texts: string[];
  workers?: number;
  gemmSeconds?: number;
  batchSize?: number;
}

export async function runUseLiteBound(args: UseLiteBoundArgs) {
  const workers = args.workers ?? Math.min(2, availableParallelism());
  const gemmSeconds = args.gemmSeconds ?? 2;
  const texts = args.texts.map((t) => t.split(/\s+/).filter(Boolean).slice(0, 128).join(' '));
  const direct = await loadUseLiteDirect();
  const tokens = texts.map((t) => Math.min(direct.tokenize(t).length, direct.maxTokens));
  const macsPerPassage = tokens.reduce((s, n) => s + useLiteMacsPerText(n), 0) / texts.length;
  const loadBefore = loadavg()[0];

  const before = await gemmRateAll(workers, gemmSeconds);
  const emb = await createEmbedder({ provider: 'use-lite', workers, maxWords: 128, ...(args.batchSize ? { batchSize: args.batchSize } : {}) });
  await emb.embed(texts.slice(0, 2 * workers), { kind: 'passage' }); // worker start-up and warm-up
  const t0 = performance.now();
  await emb.embed(texts, { kind: 'passage' });
  const seconds = (performance.now() - t0) / 1000;
  await emb.close?.();
  const after = await gemmRateAll(workers, gemmSeconds);

  // Load-independent: one thread's kernel rate per CPU second and the in-thread embedder's
  // passages per CPU second (no workers alive, so this process's CPU time is this thread's).
  const cpuGemm = gemmRate(gemmSeconds, true);
  const inThread = await createEmbedder({ provider: 'use-lite', workers: 0, maxWords: 128 });
  await inThread.embed(texts.slice(0, 2), { kind: 'passage' });
  const cpuTexts = texts.slice(0, Math.max(8, Math.ceil(texts.length / workers)));
  const c0 = process.cpuUsage();
  await inThread.embed(cpuTexts, { kind: 'passage' });
  const c = process.cpuUsage(c0);
  const passagesPerCpuS = cpuTexts.length / ((c.user + c.system) / 1e6);

  const macRate = (before.total + after.total) / 2;
  const passagesPerS = texts.length / seconds;
  const bound = macRate / macsPerPassage;
  return {
    workers,
    passages: texts.length,
    meanTokens: round(tokens.reduce((s, n) => s + n, 0) / tokens.length, 1),
    macsPerPassage: Math.round(macsPerPassage),
    gemm: {
      variant: gemmVariant(),
      shape: `${SHAPE.M}x${SHAPE.K}·${SHAPE.K}x${SHAPE.N}`,
      gmacsPerSBefore: round(before.total / 1e9, 2),
      gmacsPerSAfter: round(after.total / 1e9, 2),
      gmacsPerSPerThread: [...before.perThread, ...after.perThread].map((x) => round(x / 1e9, 2)),
    },
    seconds: round(seconds, 2),
    passagesPerS: round(passagesPerS, 1),
    boundPassagesPerS: round(bound, 1),
    percentOfBound: round((100 * passagesPerS) / bound, 1),
    perCpuSecond: {
      gmacsPerCpuS: round(cpuGemm / 1e9, 2),
      passages: cpuTexts.length,
      passagesPerCpuS: round(passagesPerCpuS, 2),
      boundPassagesPerCpuS: round(cpuGemm / macsPerPassage, 2),
      percentOfBound: round((100 * passagesPerCpuS * macsPerPassage) / cpuGemm, 1),
    },
    loadAvg: [round(loadBefore, 2), round(loadavg()[0], 2)],
  };
}
