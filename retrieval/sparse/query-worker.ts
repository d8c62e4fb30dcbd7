/**
 * Query worker: scores one doc range of a shared (SharedArrayBuffer) sparse index.
 *   → {type:'init', data: ScoringData, lo, hi, timings?}
 *   → {type:'score', id, req: ScoreRequest}   ← {type:'result', id, docs, scores, ms, gcMs} | {type:'error', id, message}
 * `ms`: this worker's scoring time for the request; `gcMs`: its isolate's GC pauses so far and `cpu`
 * the CPU it is on when `timings` was asked at init, else 0 and −1 (query-timings.ts; GC entries arrive after the task that paused,
 * so a pause inside one request is counted with the next).
 * `req.approx` (opt-in posting budget, approx.ts) travels inside the request; the kept plan prefix
 * depends only on index-wide document frequencies, so every worker scores the same terms.
 */
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { gcClock, threadCpu } from './query-timings.js';
import { isLexcaseError } from '../../core/errors.js';
import { prewarmPostings, setCacheBudget } from './decoded-postings.js';
import { scoreTopK, type ScoreRequest } from './score-core.js';
import { scoringView, type ScoringData, type ScoringView } from '../../indexer/sparse/scoring-view.js';

let view: ScoringView | undefined;
/** A failure while warming up (a posting block that fails its checksum): every request answers it. */
let initError: unknown;
let gcMs: () => number = () => 0;
let timings = false;

/** An error as a message: a LexcaseError keeps its code and message (INDEX_CORRUPT naming the file), anything else its stack. */
const errorMessage = (id: number | undefined, e: unknown) =>
  isLexcaseError(e) ? { type: 'error', id, code: e.code, message: e.message } : { type: 'error', id, message: (e as Error)?.stack ?? String(e) };

parentPort!.on(
  'message',
  (m: { type: string; id?: number; data?: ScoringData; lo?: number; hi?: number; cacheBytes?: number; timings?: boolean; req?: ScoreRequest }) => {
    if (m.type === 'init') {
      if (m.timings) (gcMs = gcClock()), (timings = true);
      view = scoringView(m.data!, m.lo, m.hi);
      // This worker's share of the index's decoded-list cache budget (list-cache.ts), before prewarming fills it.
      if (m.cacheBytes !== undefined) setCacheBudget(view, m.cacheBytes);
      // Decode the frequent lists now (before the first request is read), not inside some query:
      // a first use of a long list would otherwise land in the latency tail.
      try {
        prewarmPostings(view);
      } catch (e) {
        initError = e;
      }
      return;
    }
    try {
      if (initError) throw initError;
      const t0 = performance.now();
      const r = scoreTopK(view!, m.req!);
      parentPort!.postMessage({
        type: 'result',
        id: m.id,
        docs: r.docs,
        scores: r.scores,
        ms: performance.now() - t0,
        gcMs: gcMs(),
        cpu: timings ? threadCpu() : -1,
      });
    } catch (e) {
      parentPort!.postMessage(errorMessage(m.id, e));
    }
  },
);
