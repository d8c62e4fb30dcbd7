/**
 * Batch search on worker threads: `threads` workers (search-worker.ts), each with its own read-only
 * open of the index (openRetriever: the same method and options as the calling thread's), take the
 * topics one at a time — the next free worker the next topic — and hand back each topic's hits,
 * which come out here in topic order. A retriever's ranking depends only on the index, the method,
 * its options and the query, so the hits (and the run file written from them) are those of one
 * thread, whatever the number of workers. Query-time threads (bm25/qld over a large index) are off
 * inside the workers unless the options set them: the workers are the parallelism. No topic is
 * handed out until every worker has opened the index (`onStarted` then), so a caller can time the
 * search apart from starting the threads.
 */
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../../core/worker-url.js';
import { LexcaseError, type ErrorCode } from '../../core/errors.js';
import type { Topic } from '../../corpora/topics.js';
import type { ApproxOptions, Hit } from '../../retrieval/types.js';
import { methodOptionKeys } from '../../retrieval/method-options.js';
import type { TieMode } from './anserini-ties.js';

/** What each worker opens: the index dir, the method and its options (as openRetriever takes them). */
export interface SearchSource {
  index: string;
  method: string;
  retrieverOptions?: Record<string, unknown>;
}

type Out =
  | { type: 'ready'; method: string }
  | { type: 'hits'; i: number; hits: Hit[]; cut: boolean; ms: number; noFeedback?: boolean }
  | { type: 'error'; i?: number; code?: ErrorCode; message: string; details?: Record<string, unknown> };

/** Topics a worker may be ahead of the one handed on last (see `window`). */
const AHEAD_PER_WORKER = 4;

const toError = (m: Extract<Out, { type: 'error' }>): Error =>
  m.code ? new LexcaseError(m.code, m.message, m.details ?? {}) : new Error(`batch-search worker failed: ${m.message}`);

/**
 * Search every topic on `threads` workers; `onTopic(i, hits, ms, cut, noFeedback)` is called in topic order (i =
 * 0, 1, …), awaited before the next. Resolves when all are done; rejects on the first error (a
 * worker's LexcaseError keeps its code and message), after stopping the workers.
 */
export async function searchOnWorkers(
  source: SearchSource,
  topics: readonly Topic[],
  o: { threads: number; k: number; approx?: ApproxOptions; ties?: TieMode; signal?: AbortSignal; onStarted?: () => void },
  onTopic: (i: number, hits: Hit[], ms: number, cut: boolean, noFeedback: boolean) => Promise<void> | void,
): Promise<void> {
  const n = Math.max(1, Math.min(o.threads, topics.length));
  const options = { ...(source.retrieverOptions ?? {}) };
  // one query thread a worker (the workers are the parallelism), for a method that has query threads
  if (options.threads === undefined && methodOptionKeys(source.method).includes('threads')) options.threads = 0;
  const workers: Worker[] = [];
  const done = new Map<number, { hits: Hit[]; ms: number; cut: boolean; noFeedback: boolean }>();
  // Topics handed out but not yet handed on stay at most this many: results a slow `onTopic` (the
  // run file, the scoring) has not taken wait in memory, and with no bound the workers ran ahead
  // until nearly every topic's hits waited here (4,000 topics × 1,000 hits: a heap over 60 MB).
  const window = n * AHEAD_PER_WORKER;
  const idle: Worker[] = [];
  let next = 0;
  let emitted = 0;
  let ready = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      let emitting = false;
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        reject(e);
      };
      const give = (w: Worker) => {
        if (failed) return;
        if (o.signal?.aborted) return fail(o.signal.reason instanceof Error ? o.signal.reason : new Error('batch search aborted'));
        if (next >= topics.length) return;
        if (next - emitted >= window) {
          idle.push(w);
          return;
        }
        const i = next++;
        w.postMessage({ type: 'search', i, text: topics[i].text, k: o.k, ties: o.ties, ...(o.approx ? { approx: o.approx } : {}) });
      };
      // Hand results on in topic order, one at a time (onTopic may write to a file).
      const emit = async () => {
        if (emitting) return;
        emitting = true;
        try {
          while (!failed && done.has(emitted)) {
            const r = done.get(emitted)!;
            done.delete(emitted);
            await onTopic(emitted, r.hits, r.ms, r.cut, r.noFeedback);
            emitted++;
            while (idle.length && next - emitted < window) give(idle.shift()!);
          }
          if (!failed && emitted === topics.length) resolve();
        } catch (e) {
          fail(e as Error);
        } finally {
          emitting = false;
        }
        if (!failed && done.has(emitted)) void emit();
      };
      for (let t = 0; t < n; t++) {
        const w = spawnWorker(import.meta.url, './search-worker.js');
        workers.push(w);
        w.on('message', (m: Out) => {
          if (m.type === 'error') return fail(toError(m));
          // every worker has opened the index: the search starts
          if (m.type === 'ready') {
            if (++ready < n) return;
            o.onStarted?.();
            for (const x of workers) give(x);
            return;
          }
          done.set(m.i, { hits: m.hits, ms: m.ms, cut: m.cut, noFeedback: m.noFeedback === true });
          give(w);
          void emit();
        });
        w.on('error', (e) => fail(e));
        w.on('exit', (code) => {
          if (code !== 0) fail(new Error(`batch-search worker exited with code ${code}`));
        });
        w.postMessage({ type: 'open', index: source.index, method: source.method, options });
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
