/**
 * A batch-search worker (search-workers.ts): opens the index read-only (openRetriever) once, then
 * answers one topic at a time.
 *   → {type:'open', index, method, options}          ← {type:'ready', method} | {type:'error', …}
 *   → {type:'search', i, text, k, ties?, approx?}     ← {type:'hits', i, hits, cut, ms, noFeedback?} | {type:'error', i, …}
 * (noFeedback: RM3 only, the topic gained no feedback term: retrieval/rm3-no-feedback.ts)
 * The k hits are the top k as trec_eval ranks them (retrieval/top-k.ts searchTopK), as on the calling thread.
 */
import { parentPort } from 'node:worker_threads';
import { isLexcaseError } from '../../core/errors.js';
import { openRetriever } from '../../retrieval/open.js';
import type { ApproxOptions, Retriever } from '../../retrieval/types.js';
import type { TieMode } from './anserini-ties.js';
import { searchTopKCut } from '../../retrieval/top-k.js';
import { gainedNoFeedbackTerm } from '../../retrieval/rm3-no-feedback.js';

type In =
  | { type: 'open'; index: string; method: string; options: Record<string, unknown> }
  | { type: 'search'; i: number; text: string; k: number; ties?: TieMode; approx?: ApproxOptions };

let opened: Promise<Retriever> | undefined;

const failure = (e: unknown, i?: number) =>
  isLexcaseError(e)
    ? { type: 'error', i, code: e.code, message: e.message.replace(/\n {2}hint: [\s\S]*$/, ''), details: { ...e.details, cause: undefined } }
    : { type: 'error', i, message: (e as Error)?.stack ?? String(e) };

parentPort!.on('message', (m: In) => {
  if (m.type === 'open') {
    opened = openRetriever(m.index, m.method, m.options);
    opened.then(
      (r) => parentPort!.postMessage({ type: 'ready', method: String(r.method) }),
      (e) => parentPort!.postMessage(failure(e)),
    );
    return;
  }
  const t0 = performance.now();
  opened!
    .then(async (r) => {
      const found = await searchTopKCut((depth) => r.search(m.text, { k: depth, ...(m.approx ? { approx: m.approx } : {}) }), m.k, {
        ties: m.ties,
        digits: r.scoreDigits,
      });
      return { ...found, ms: performance.now() - t0, noFeedback: await gainedNoFeedbackTerm(r, m.text) };
    })
    .then(
      ({ hits, cut, ms, noFeedback }) =>
        parentPort!.postMessage({
          type: 'hits',
          i: m.i,
          hits: hits.map((h) => ({ id: h.id, score: h.score, rank: h.rank })),
          cut,
          ms,
          ...(noFeedback ? { noFeedback } : {}),
        }),
      (e) => parentPort!.postMessage(failure(e, m.i)),
    );
});
