/**
 * Query-time parallelism: `threads` scoring threads each own a contiguous doc range of the same
 * shared index and return their exact top-k; the merge of per-range top-k lists is the exact global
 * top-k (identical scores: each doc is scored by the same operations in the same order). The calling
 * thread is one of them — it scores the last range itself while `threads − 1` workers score the
 * others — so a query waits for one woken worker, not the later of two (on an idle machine waking a
 * worker costs ~1 ms at p50 and 4–5 ms at p95: docs/notes/2026-11-28-agent-tail.md), and the pool
 * holds no more decoded lists than `threads` ranges.
 */
import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../../core/worker-url.js';
import { LexcaseError, type ErrorCode } from '../../core/errors.js';
import { mergeRanked, scoreTopK, type Ranked, type ScoreRequest } from './score-core.js';
import { scoringView, type ScoringData, type ScoringView } from '../../indexer/sparse/scoring-view.js';
import { prewarmPostings, setCacheBudget } from './decoded-postings.js';
import { addQueryTimings, timingsWanted } from './query-timings.js';

export interface Scorer {
  score(req: ScoreRequest): Promise<Ranked>;
  close(): Promise<void>;
}

export function inProcessScorer(view: ScoringView, cacheBytes?: number): Scorer {
  if (cacheBytes !== undefined) setCacheBudget(view, cacheBytes);
  return { score: async (req) => scoreTopK(view, req), close: async () => undefined };
}

/** `cacheBytes`: the decoded-list cache's budget for the whole index; each worker holds its share (list-cache.ts). */
export function createQueryPool(data: ScoringData, threads: number, cacheBytes?: number): Scorer {
  const plain: ScoringData = {
    N: data.N,
    totalTokens: data.totalTokens,
    avgdl: data.avgdl,
    df: data.df,
    cf: data.cf,
    offsets: data.offsets,
    postings: data.postings,
    postingsFd: data.postingsFd,
    postingsFile: data.postingsFile,
    postingsBlocks: data.postingsBlocks,
    doclen: data.doclen,
    byLen: data.byLen,
    blockBounds: data.blockBounds,
  };
  /** A query in flight: its parts so far, and its timings (query-timings.ts). */
  type Pending = {
    parts: Ranked[];
    left: number;
    k: number;
    resolve(r: Ranked): void;
    reject(e: Error): void;
    localMs: number;
    localEnd: number;
    workerMs: number;
    gcMs: number;
    workerCpu: number;
  };
  const pending = new Map<number, Pending>();
  /** The workers' GC sums as last reported (one per worker). */
  const workerGc: number[] = [];
  let nextId = 0;
  let failure: Error | undefined;
  const workers: Worker[] = [];
  let closed = false;
  /** Every query in flight rejects with `e`, and every later one. */
  const fail = (e: Error) => {
    failure ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  const setRef = (on: boolean) => workers.forEach((w) => (on ? w.ref() : w.unref()));
  const share = cacheBytes !== undefined ? Math.floor(cacheBytes / threads) : undefined;
  /** Range `t`'s first doc (t = threads: N, the end of the last range). */
  const bound = (t: number) => Math.floor((data.N * t) / threads);
  // The calling thread's range (the last): its own view and share of the cache, prewarmed as a worker's is, on first use.
  const local = scoringView(data, bound(threads - 1), bound(threads));
  if (share !== undefined) setCacheBudget(local, share);
  let localReady: { error?: unknown } | undefined;
  const scoreLocal = (req: ScoreRequest): Ranked => {
    if (!localReady) {
      localReady = {};
      try {
        prewarmPostings(local);
      } catch (e) {
        localReady.error = e;
      }
    }
    if (localReady.error) throw localReady.error;
    return scoreTopK(local, req);
  };
  /** One range's answer for request `id` (range `t`; threads − 1 is the calling thread's): the last one resolves it with the merge, a failure rejects it at once. */
  const deliver = (id: number, t: number, part: Ranked | Error, worker?: { ms: number; gcMs: number; cpu: number }) => {
    const p = pending.get(id);
    if (!p) return;
    if (worker) {
      if (worker.ms >= p.workerMs) p.workerCpu = worker.cpu;
      p.workerMs = Math.max(p.workerMs, worker.ms);
      p.gcMs += worker.gcMs - (workerGc[t] ?? 0);
      workerGc[t] = worker.gcMs;
    }
    if (part instanceof Error) {
      pending.delete(id);
      p.reject(part);
    } else {
      p.parts[t] = part;
      if (--p.left === 0) {
        pending.delete(id);
        addQueryTimings({ localMs: p.localMs, workerMs: p.workerMs, waitMs: performance.now() - p.localEnd, workerGcMs: p.gcMs, lastWorkerCpu: p.workerCpu });
        p.resolve(mergeRanked(p.parts, p.k));
      }
    }
    if (pending.size === 0) setRef(false);
  };
  for (let t = 0; t < threads - 1; t++) {
    const lo = bound(t);
    const hi = bound(t + 1);
    const w = spawnWorker(import.meta.url, './query-worker.js');
    w.on(
      'message',
      (m: { type: string; id: number; docs?: number[]; scores?: number[]; ms?: number; gcMs?: number; cpu?: number; message?: string; code?: ErrorCode }) =>
        deliver(
          m.id,
          t,
          m.type === 'error'
            ? // a LexcaseError (INDEX_CORRUPT: a posting block failed its checksum) keeps its code and message
              m.code
              ? new LexcaseError(m.code, m.message ?? '')
              : new Error(`query worker failed: ${m.message}`)
            : { docs: m.docs!, scores: m.scores! },
          m.type === 'error' ? undefined : { ms: m.ms ?? 0, gcMs: m.gcMs ?? 0, cpu: m.cpu ?? -1 },
        ),
    );
    w.on('error', fail);
    // a worker that exits unasked (not by close()) would leave its queries pending for ever
    w.on('exit', (code) => {
      if (!closed) fail(new Error(`query worker failed: it exited (code ${code})`));
    });
    w.postMessage({ type: 'init', data: plain, lo, hi, ...(share !== undefined ? { cacheBytes: share } : {}), ...(timingsWanted() ? { timings: true } : {}) });
    w.unref();
    workers.push(w);
  }
  return {
    score(req) {
      if (failure) return Promise.reject(failure);
      if (req.ids.length === 0 || req.k <= 0) return Promise.resolve({ docs: [], scores: [] });
      return new Promise<Ranked>((resolve, reject) => {
        const id = nextId++;
        const p: Pending = { parts: [], left: threads, k: req.k, resolve, reject, localMs: 0, localEnd: 0, workerMs: 0, gcMs: 0, workerCpu: -1 };
        pending.set(id, p);
        setRef(true);
        // the workers start first; the calling thread scores its range while they run
        for (const w of workers) w.postMessage({ type: 'score', id, req });
        let part: Ranked | Error;
        const t0 = performance.now();
        try {
          part = scoreLocal(req);
        } catch (e) {
          part = e instanceof Error ? e : new Error(String(e));
        }
        p.localEnd = performance.now();
        p.localMs = p.localEnd - t0;
        deliver(id, threads - 1, part);
      });
    },
    async close() {
      closed = true;
      // a query in flight would never settle once its worker is gone
      fail(new Error('query pool closed'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

const pools = new WeakMap<object, Map<string, Scorer>>();

/**
 * The scorer of an index for `threads` (0/1 = in-process) and decoded-list cache budget, created
 * once and reused; in-process scorers with different budgets score on views of their own.
 */
export function scorerFor(owner: object, data: ScoringData, view: ScoringView, threads: number, cacheBytes?: number): Scorer {
  let m = pools.get(owner);
  if (!m) pools.set(owner, (m = new Map()));
  const t = threads > 1 ? threads : 0;
  const key = `${t}:${cacheBytes ?? ''}`;
  let s = m.get(key);
  if (!s) {
    // The index's own view keeps the first in-process budget; another budget gets a view (and cache) of its own.
    const inProcessTaken = [...m.keys()].some((k) => k.startsWith('0:'));
    m.set(key, (s = t ? createQueryPool(data, t, cacheBytes) : inProcessScorer(inProcessTaken ? scoringView(data, view.lo, view.hi) : view, cacheBytes)));
  }
  return s;
}

export async function closeScorers(owner: object): Promise<void> {
  const m = pools.get(owner);
  if (!m) return;
  pools.delete(owner);
  await Promise.all([...m.values()].map((s) => s.close()));
}
