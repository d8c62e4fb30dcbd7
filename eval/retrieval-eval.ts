/**
 * Retrieval evaluation: run every question's query through a Retriever, find the rank of its gold
 * passage(s), and aggregate Recall@k (default k = 1, 10, 100, 1000), MRR@10 and nDCG@10 (binary
 * relevance), each with its 95% interval from the statistics module (eval/stats/): Recall@k with
 * one gold passage per question is a proportion (Wilson), with several a graded mean, as MRR and
 * nDCG are (seeded percentile bootstrap over questions, none below n = 10).
 *
 * The query text is the question's prompt (fact pattern) + "\n" + question, as in the Bar Exam QA
 * paper (corpora/barexam.ts `retrievalQuery`); answer choices are NOT part of the query. Questions
 * without gold passage ids are skipped and counted. Relevance is by passage id: a gold text that
 * also exists under another id (10 such pairs in Bar Exam QA) counts only under the gold id.
 *
 * Each query's hits are ranked as the TREC run file written from them is evaluated (trec_eval,
 * `lexcase eval run`, `eval retrieval --topics`): scores rounded as the run file writes them (6 decimals; a hybrid's 10 significant digits), ties
 * by docid descending (eval/trec/order.ts), so the report and its run file give one value per figure.
 */
import type { Question } from '../corpora/types.js';
import type { Hit, Retriever } from '../retrieval/types.js';
import { retrievalQuery } from '../corpora/barexam.js';
import type { BootstrapOptions } from './bootstrap.js';
import { LEVEL, perItemInterval, RESAMPLES, SEED, type Interval } from './stats/index.js';
import { firstRelevantRank, ndcgAtK, recallAtK, reciprocalRank } from './metrics/index.js';
import { percentile } from './bootstrap.js';
import { DEFAULT_KS } from './retrieval-ks.js';
import { trecRankedIds } from './trec/order.js';
import { cutoffsBeyondDepthWarning } from '../retrieval/ranking-depth.js';
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { parseDecimalInt } from '../core/decimal-number.js';
import { printedRun } from '../retrieval/top-k.js';
import { queriesCutNote } from '../retrieval/dense-query-cut.js';
import { gainedNoFeedbackTerm, noFeedbackNote } from '../retrieval/rm3-no-feedback.js';
import { querySourceNote } from '../retrieval/dense-query-source.js';

export { DEFAULT_KS };
export const MRR_K = 10;
export const NDCG_K = 10;

export interface QueryResult {
  id: string;
  goldIds: string[];
  /** 1-based rank of the first gold passage within the retrieved depth, or null. */
  firstRank: number | null;
  /** Recall@k per k. */
  recall: Record<number, number>;
  rr: number;
  ndcg: number;
  ms: number;
  /** 1-based ranks of every gold passage found within the retrieved depth (for Recall@k curves). */
  goldRanks?: number[];
}

export interface RetrievalEvalOptions extends Omit<BootstrapOptions, 'level'> {
  retriever: Retriever;
  questions: readonly Question[];
  ks?: number[];
  /** Called after each query with its result and hits (e.g. to write a TREC run file). */
  onQuery?: (result: QueryResult, hits: Hit[]) => void | Promise<void>;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Query text for a question (default: prompt + "\n" + question). */
  queryOf?: (q: Question) => string;
}

export interface RetrievalEvalResult {
  method: string;
  /** Questions evaluated (with at least one gold id). */
  n: number;
  /** Questions skipped because they have no gold passage ids. */
  skipped: number;
  ks: number[];
  /** Hits retrieved per query: max(ks, 10). */
  depth: number;
  /** "recall@1", …, "mrr@10", "ndcg@10" → mean with its 95% interval (eval/stats: Wilson or bootstrap). */
  metrics: Record<string, Interval>;
  /** Per-question search times; null with no scored question (no search timed: "–", never "0.0 ms"). */
  latency: { meanMs: number | null; p50Ms: number | null; p95Ms: number | null };
  perQuery: QueryResult[];
  bootstrap: { iterations: number; seed: number; level: number };
  /** The retriever's recorded config (Retriever.config: dense's query rule, hybrid's fusion), when it has one. */
  config?: Record<string, unknown>;
  /** What a reader must know to read the figures right (a cutoff beyond hybrid's depth); also logged as a warning. */
  warnings?: string[];
  /**
   * Questions (with gold ids) the search got no hit for: they score 0 and are in the mean, while a
   * run file of these hits has no line for them (`eval run` counts them only with --complete).
   */
  noHits: { count: number; examples: string[] };
}

/** Recall@k cutoffs, sorted and deduplicated; a bad one is INVALID_INPUT naming `field` (the library's `ks`, the CLI's `--k`) and the value as given. */
export function parseKs(s: string | number[], field = 'ks'): number[] {
  // each cutoff in decimal digits, named as typed: `--k 0x10` ran as Recall@16 and `--k 10abc` said got "NaN"
  const given = Array.isArray(s)
    ? s.map((k) => ({ text: String(k), k }))
    : s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .map((text) => ({ text, k: parseDecimalInt(text) }));
  for (const { text, k } of given)
    if (!Number.isInteger(k) || k < 1) throw errors.invalidInput(field, `each cutoff k must be a positive integer, got "${text}"`);
  const ks = given.map((g) => g.k);
  return [...new Set(ks)].sort((a, b) => a - b);
}

export async function evalRetrieval(opts: RetrievalEvalOptions): Promise<RetrievalEvalResult> {
  const ks = parseKs(opts.ks ?? DEFAULT_KS);
  if (ks.length === 0) throw new RangeError('at least one k is needed');
  const depth = Math.max(...ks, MRR_K, NDCG_K);
  // MRR@10 and nDCG@10 are always reported: a depth below 10 cuts them too, whatever --k says
  const beyond = cutoffsBeyondDepthWarning(
    opts.retriever,
    [...new Set([...ks, MRR_K, NDCG_K])].sort((a, b) => a - b),
  );
  if (beyond) log.warn(`eval retrieval ${opts.retriever.method}: ${beyond}`);
  const queryOf = opts.queryOf ?? retrievalQuery;
  const perQuery: QueryResult[] = [];
  const noHits: string[] = [];
  const noFeedback: string[] = [];
  let skipped = 0;
  const total = opts.questions.length;
  let done = 0;
  for (const q of opts.questions) {
    opts.signal?.throwIfAborted();
    done++;
    if (q.goldPassageIds.length === 0) {
      skipped++;
      opts.onProgress?.(done, total);
      continue;
    }
    const t0 = performance.now();
    // The top `depth` as trec_eval ranks them, the first `depth` of any deeper run (retrieval/top-k.ts).
    const hits = await printedRun(opts.retriever, queryOf(q), depth, { of: `question "${q.id}"` });
    const ms = performance.now() - t0;
    if (hits.length === 0) noHits.push(q.id);
    // RM3: the question's expansion (the one just searched) added no feedback term
    if (await gainedNoFeedbackTerm(opts.retriever, queryOf(q))) noFeedback.push(q.id);
    // Ranked exactly as the run file of these hits is evaluated (trec_eval, `lexcase eval run`, the
    // --topics path): scores rounded as the run file writes them, ties by docid descending.
    const ranked = trecRankedIds(hits, opts.retriever.scoreDigits);
    const gold = q.goldPassageIds;
    const recall: Record<number, number> = {};
    for (const k of ks) recall[k] = recallAtK(ranked, gold, k);
    const goldSet = new Set(gold);
    const goldRanks = ranked.flatMap((id, i) => (goldSet.has(id) ? [i + 1] : []));
    const r: QueryResult = {
      id: q.id,
      goldIds: gold.slice(),
      firstRank: firstRelevantRank(ranked, gold),
      recall,
      rr: reciprocalRank(ranked, gold, MRR_K),
      ndcg: ndcgAtK(ranked, gold, NDCG_K),
      ms,
      goldRanks,
    };
    perQuery.push(r);
    await opts.onQuery?.(r, hits);
    opts.onProgress?.(done, total);
  }
  // dense, hybrid: the queries the model read only in part (retrieval/dense-query-cut.ts)
  const cut = queriesCutNote(opts.retriever);
  if (cut) log.warn(`eval retrieval ${opts.retriever.method}: ${cut}`);
  // dense, hybrid: queries embedded by another source than the passages (warned on stderr as the index opened)
  const source = querySourceNote(opts.retriever);
  // RM3: questions whose expansion added no feedback term (their ranking is the base method's)
  const rm3 = noFeedbackNote(noFeedback, perQuery.length, 'questions');
  if (rm3) log.warn(`eval retrieval ${opts.retriever.method}: ${rm3}`);
  const warnings = [...(beyond ? [beyond] : []), ...(cut ? [cut] : []), ...(source ? [source] : []), ...(rm3 ? [rm3] : [])];
  const b = { iterations: opts.iterations ?? RESAMPLES, seed: opts.seed ?? SEED, level: LEVEL };
  const metrics: Record<string, Interval> = {};
  for (const k of ks)
    metrics[`recall@${k}`] = perItemInterval(
      perQuery.map((r) => r.recall[k]),
      b,
    );
  // One rule for every per-query mean, as `lexcase eval run` applies it to the same values: 0/1 on
  // every query (each gold first or not in the top 10) → Wilson, else bootstrap.
  metrics[`mrr@${MRR_K}`] = perItemInterval(
    perQuery.map((r) => r.rr),
    b,
  );
  metrics[`ndcg@${NDCG_K}`] = perItemInterval(
    perQuery.map((r) => r.ndcg),
    b,
  );
  const times = perQuery.map((r) => r.ms).sort((x, y) => x - y);
  const latency = {
    meanMs: times.length ? times.reduce((s, t) => s + t, 0) / times.length : null,
    p50Ms: times.length ? percentile(times, 0.5) : null,
    p95Ms: times.length ? percentile(times, 0.95) : null,
  };
  return {
    method: opts.retriever.method,
    n: perQuery.length,
    skipped,
    ks,
    depth,
    metrics,
    latency,
    perQuery,
    bootstrap: b,
    ...(opts.retriever.config ? { config: opts.retriever.config } : {}),
    ...(warnings.length ? { warnings } : {}),
    noHits: { count: noHits.length, examples: noHits.slice(0, 10) },
  };
}
