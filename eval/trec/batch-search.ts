/**
 * Batch search: every topic through one Retriever, `k` hits each, into an in-memory TREC run
 * (scores rounded as the run file stores them, run.ts `writtenScore`) and, optionally, a TREC run
 * file (TrecRunWriter: `qid Q0 docid rank score tag`). Used by `lexcase search --topics` and
 * `lexcase eval retrieval --topics`, so both give the numbers `lexcase eval run` / trec_eval give
 * on the written file (`eval retrieval --topics` those of `eval run --complete` where a topic got no hit: eval-index.ts). With `threads` > 1 and a `source` (the index, method and options `retriever` was
 * opened with) the topics are searched on worker threads (search-workers.ts), each over its own
 * read-only open of the index; results come back in topic order, so the run is the same for any N.
 */
import type { Topic } from '../../corpora/topics.js';
import type { ApproxOptions, Hit, Retriever } from '../../retrieval/types.js';
import { TrecRunWriter } from '../retrieval-eval-run-file.js';
import { percentile } from '../bootstrap.js';
import { runDocsOfHits, type RunDoc, type TrecRun } from './run.js';
import { applyTies, type TieMode } from './anserini-ties.js';
import { searchOnWorkers, type SearchSource } from './search-workers.js';
import { searchTopKCut } from '../../retrieval/top-k.js';
import { queriesCutNote } from '../../retrieval/dense-query-cut.js';
import { querySourceNote } from '../../retrieval/dense-query-source.js';
import { gainedNoFeedbackTerm, noFeedbackNote } from '../../retrieval/rm3-no-feedback.js';

export interface BatchSearchOptions {
  k: number;
  /** Write the run here (TREC format). */
  runFile?: string;
  /** Run tag (6th column); default lexcase-<method>. */
  tag?: string;
  /** Opt-in approximate bm25/qld scoring (retrieval/sparse/approx.ts); absent = exact. */
  approx?: ApproxOptions;
  /** 'anserini': Anserini's tie handling of run scores (anserini-ties.ts); default 'none'. */
  ties?: TieMode;
  /**
   * Each topic's documents as the run holds them (scores as the run file writes them; none for a
   * topic without hits), in topic order, as soon as it is searched: a caller that scores topics as
   * they come (eval-index.ts) passes `keepRun: false` and never holds the whole run.
   */
  onTopic?: (qid: string, docs: RunDoc[]) => void;
  /** Keep the in-memory run (`run` of the result; default true). False: `run` is empty, only `onTopic` sees each topic's documents. */
  keepRun?: boolean;
  /** Each topic's hits → what is kept and written, e.g. document aggregation (aggregate/: aggregateHits). */
  mapHits?: (hits: Hit[]) => Hit[];
  /**
   * With `mapHits`: the hits a topic's mapped list should hold (aggregation: documents a topic). A
   * topic whose search was cut at `k` hits (the method ranks more: retrieval/top-k.ts searchTopKCut)
   * yet maps to fewer is counted in `mappedShort`: its list was cut by `k` (--passage-hits), not by
   * what the method finds. Before, a topic whose method matched exactly `k` passages was counted too,
   * and the warning told the user to raise --passage-hits, which would have found nothing more.
   */
  mappedK?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Worker threads (default 1: the calling thread); more need `source`. */
  threads?: number;
  /** What the workers open: the index dir, method and options `retriever` was opened with. */
  source?: SearchSource;
  /** The clock, in ms (default performance.now). */
  now?: () => number;
}

export interface BatchSearchResult {
  method: string;
  tag: string;
  /** The run (empty with `keepRun: false`). */
  run: TrecRun;
  topics: number;
  /** Run lines (hits) in total. */
  hits: number;
  /** Topics that got no hit at all (all terms unknown or stopwords). */
  empty: string[];
  /**
   * Per-topic search times (on whichever thread searched it); wallMs, the batch's wall time from the
   * first topic handed out to the last hit taken (the index already open on every thread, as on the
   * calling thread); startMs, the time before it spent starting worker threads and opening the index
   * in each (0 on the calling thread, whose retriever is opened before).
   */
  latency: { totalMs: number; meanMs: number; p50Ms: number; p95Ms: number; wallMs: number; startMs: number };
  /** Threads that searched (1: the calling thread). */
  threads: number;
  runFile?: string;
  /** Dense, hybrid: "N of M queries were longer than the transformers model's 512 tokens: …" (retrieval/dense-query-cut.ts), when any was. */
  queriesCut?: string;
  /** Dense or hybrid: the queries were embedded by another source than the index's passages (retrieval/dense-query-source.ts). */
  querySource?: string;
  /** RM3: "N of M topics gained no RM3 feedback term …" (retrieval/rm3-no-feedback.ts), when any did: their ranking is the base method's. */
  rm3NoFeedback?: string;
  /** With `mappedK`: the topics whose `k` hits mapped to fewer than `mappedK` (count, the first 10, the fewest any got); absent when none did. */
  mappedShort?: { count: number; examples: string[]; fewest: number };
}

export async function batchSearch(retriever: Retriever, topics: readonly Topic[], opts: BatchSearchOptions): Promise<BatchSearchResult> {
  const tag = opts.tag ?? `lexcase-${retriever.method}`;
  // a hybrid's fused scores keep 10 significant digits (retrieval/top-k.ts scoreText); Anserini's ties write its 4-decimal scores
  const digits = opts.ties === 'anserini' ? undefined : retriever.scoreDigits;
  const writer = opts.runFile ? new TrecRunWriter(opts.runFile, tag, digits) : undefined;
  const run: TrecRun = new Map();
  const keepRun = opts.keepRun ?? true;
  const times: number[] = [];
  const empty: string[] = [];
  const noFeedback: string[] = [];
  const short: string[] = [];
  let fewest = Infinity;
  let hits = 0;
  const threads = opts.source && opts.threads && opts.threads > 1 ? Math.min(opts.threads, topics.length) : 1;
  const now = opts.now ?? (() => performance.now());
  const w0 = now();
  let s0 = w0;
  const take = async (t: Topic, found: Hit[], ms: number, cut: boolean, gainedNoTerm: boolean | undefined) => {
    if (gainedNoTerm) noFeedback.push(t.id);
    const tied = applyTies(found, opts.ties);
    const res = opts.mapHits ? opts.mapHits(tied) : tied;
    // the cut at k left a hit out, and fewer were kept: the cut decided the list (a document ranked past them is missing)
    if (opts.mapHits && opts.mappedK !== undefined && cut && res.length < opts.mappedK) {
      short.push(t.id);
      fewest = Math.min(fewest, res.length);
    }
    times.push(ms);
    // A topic without hits has no line in the run file, so it is absent from the in-memory run too
    // (trec_eval then skips it unless -c / --complete) and listed in `empty`; `eval retrieval
    // --topics` (eval-index.ts) puts it back with nothing retrieved, so it scores 0 for every method.
    const docs = runDocsOfHits(res, digits);
    if (res.length === 0) empty.push(t.id);
    else if (keepRun) run.set(t.id, docs);
    opts.onTopic?.(t.id, docs);
    hits += res.length;
    await writer?.add(t.id, res);
    opts.onProgress?.(times.length, topics.length);
  };
  try {
    if (threads > 1)
      await searchOnWorkers(
        opts.source!,
        topics,
        { threads, k: opts.k, approx: opts.approx, ties: opts.ties, signal: opts.signal, onStarted: () => (s0 = now()) },
        (i, found, ms, cut, gainedNoTerm) => take(topics[i], found, ms, cut, gainedNoTerm),
      );
    else
      for (const t of topics) {
        opts.signal?.throwIfAborted();
        const t0 = now();
        // The top k as trec_eval ranks them, the first k of any deeper run (retrieval/top-k.ts).
        const { hits: found, cut } = await searchTopKCut(
          (depth) => retriever.search(t.text, { k: depth, ...(opts.approx ? { approx: opts.approx } : {}) }),
          opts.k,
          {
            ties: opts.ties,
            digits,
            who: `retriever ${retriever.method}, topic "${t.id}"`,
          },
        );
        const ms = now() - t0;
        await take(t, found, ms, cut, await gainedNoFeedbackTerm(retriever, t.text));
      }
  } catch (e) {
    // stopped (an error, Ctrl-C): no run file of part of the topics; an earlier one at that path stays
    await writer?.discard();
    throw e;
  }
  await writer?.close();
  // the queries the model read only in part: counted as searched here, or over the topics when worker threads searched them
  const queriesCut = queriesCutNote(retriever, threads > 1 ? topics.map((t) => t.text) : undefined);
  const querySource = querySourceNote(retriever);
  const rm3NoFeedback = noFeedbackNote(noFeedback, topics.length);
  const sorted = times.slice().sort((a, b) => a - b);
  const totalMs = times.reduce((s, x) => s + x, 0);
  return {
    method: String(retriever.method),
    tag,
    run,
    topics: topics.length,
    hits,
    empty,
    latency: {
      totalMs,
      meanMs: times.length ? totalMs / times.length : 0,
      p50Ms: sorted.length ? percentile(sorted, 0.5) : 0,
      p95Ms: sorted.length ? percentile(sorted, 0.95) : 0,
      wallMs: now() - s0,
      startMs: s0 - w0,
    },
    threads,
    ...(opts.runFile ? { runFile: opts.runFile } : {}),
    ...(queriesCut ? { queriesCut } : {}),
    ...(querySource ? { querySource } : {}),
    ...(rm3NoFeedback ? { rm3NoFeedback } : {}),
    ...(short.length ? { mappedShort: { count: short.length, examples: short.slice(0, 10), fewest } } : {}),
  };
}
