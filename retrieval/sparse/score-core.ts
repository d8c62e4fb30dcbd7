/**
 * Exact top-k for one scoring request over one ScoringView (a doc range). Used in-process and by
 * each query worker; per-range results merge into the global top-k (see query-pool.ts).
 *
 * BM25: Σ c·idf·tf·(k1+1)/(tf + k1·(1 − b + b·dl/avgdl)) over matching docs.
 * QLD textbook: Σ c·ln(μP) − |q|·ln(dl+μ) + Σ_{matched} c·ln(1 + tf/(μP)) over ALL docs; unmatched
 *   docs are taken in (length, index) order, so only k of them are ever looked at.
 * QLD lucene: Σ_{matched} c·max(0, ln(1 + tf/(μP')) + ln(μ/(dl+μ))), P' = (cf+1)/(|C|+1).
 * scorer 'lucene' (bm25, qld): Lucene's own float32 arithmetic on 1-byte norms (lucene-scorer.ts).
 * Scoring itself (term-at-a-time with exact MaxScore pruning) lives in max-score.ts.
 * With `req.approx` (opt-in) only a prefix of the term plan is scored (approx.ts); textbook QLD
 * keeps the length penalty and Σ c·ln(μP) of every query term, so a skipped term counts as
 * matched in no document.
 */
import { Mode } from './accumulator.js';
import { modeFacts } from './mode-facts.js';
import { bm25Norms, logLengths, logRatios, luceneLogRatios, luceneNormInverses } from './doc-arrays.js';
import { luceneBm25TermWeight, luceneCollectionProb, luceneMu } from './lucene-scorer.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { maxScoreTopK, type MaxScoreInput, type TermPlan } from './max-score.js';
import { blockedTopK, DENSE_MIN_SHARE } from './blocked-taat.js';
import { blockMaxTopK } from './block-max.js';
import type { TopK } from './top-k.js';
import { approxPrefix, type ApproxOptions } from './approx.js';
import { beginQuery } from './decoded-postings.js';

/** `approx` absent: exact top-k. Present: the posting budget of approx.ts (checked by the caller). */
export type ScoreRequest = { ids: number[]; counts: number[]; k: number; approx?: ApproxOptions } & (
  | { method: 'bm25'; k1: number; b: number; scorer?: SparseScorer }
  | { method: 'qld'; variant: 'textbook' | 'lucene'; mu: number; scorer?: SparseScorer }
);

/**
 * How bm25 and qld compute their weights: 'lexcase' (default; exact document lengths, double
 * precision, BM25 with the (k1 + 1) factor) or 'lucene' (Lucene 8's BM25Similarity and
 * LMDirichletSimilarity on 1-byte norms in float32: lucene-scorer.ts). The lucene scorer's QLD is
 * LMDirichlet whatever the variant.
 */
export type SparseScorer = 'lexcase' | 'lucene';
export const SPARSE_SCORER_NAMES: readonly SparseScorer[] = ['lexcase', 'lucene'];

/** Ranked hits best first: parallel arrays of internal doc index and score. */
export interface Ranked {
  docs: number[];
  scores: number[];
}

export const bm25Idf = (N: number, df: number) => Math.log(1 + (N - df + 0.5) / (df + 0.5));

/** P(t|C) of each QLD variant. */
export const collectionProb = (variant: 'textbook' | 'lucene', cf: number, total: number) => (variant === 'lucene' ? (cf + 1) / (total + 1) : cf / total);

/**
 * The query's terms with their scorer constants, in processing order: terms in fewer than the
 * dense share of all N docs first, then the others (the lists blocked-taat.ts walks densely, which
 * it then adds in one fused pass per doc); within each group decreasing weight at tf = 1, ties by
 * term id. Every key is range-independent, so every doc range adds the same weights in the same
 * order.
 */
export function termPlan(view: ScoringView, req: ScoreRequest): TermPlan[] {
  const plan: TermPlan[] = [];
  const denseDf = DENSE_MIN_SHARE * view.N;
  for (let i = 0; i < req.ids.length; i++) {
    const id = req.ids[i];
    const c = req.counts[i];
    const df = view.df[id];
    if (req.scorer === 'lucene') {
      if (req.method === 'bm25') {
        const w = luceneBm25TermWeight(view, df, c);
        plan.push({ id, p1: w, p2: 0, key: w, df });
      } else {
        const muP = luceneMu(req.mu) * luceneCollectionProb(view.cf[id], view.totalTokens);
        plan.push({ id, p1: c, p2: muP, key: c * Math.log1p(1 / muP), df });
      }
    } else if (req.method === 'bm25') {
      const p1 = c * bm25Idf(view.N, df) * (req.k1 + 1);
      plan.push({ id, p1, p2: 0, key: p1, df });
    } else {
      const muP = req.mu * collectionProb(req.variant, view.cf[id], view.totalTokens);
      plan.push({ id, p1: c, p2: muP, key: c * Math.log1p(1 / muP), df });
    }
  }
  const late = (t: TermPlan) => (t.df >= denseDf ? 1 : 0);
  return plan.sort((a, b) => late(a) - late(b) || b.key - a.key || a.id - b.id);
}

/**
 * How to score: 'auto' picks cache-blocked TAAT (blocked-taat.ts) for queries whose postings
 * number at least 1 % of the range's docs, else TAAT with MaxScore pruning (max-score.ts);
 * 'blockmax' (opt-in; BM25 and textbook QLD) is block-max MaxScore over doc windows (block-max.ts);
 * 'exhaustive' is plain TAAT (the reference the others are tested against).
 */
export type Strategy = 'auto' | 'blocked' | 'maxscore' | 'blockmax' | 'exhaustive';

/**
 * Postings per doc of the range above which 'auto' uses blocked TAAT. Measured by
 * bench/strategy-crossover.ts on kept 856,835-passage scale indexes (bench and zipf corpora, agent
 * queries and their prefixes, k 10; docs/notes/2026-11-26-auto-crossover.md): blocked TAAT costs
 * ~1 ms of CPU per query whatever its postings (a scan of the range's blocks), MaxScore's JavaScript
 * walk ~200–300 ns per posting, so blocked wins from a density of ~0.01 on both corpora and both
 * scorers (0.25 before: queries of density 0.01–0.25 took 3–20× longer than they needed).
 */
export const BLOCKED_MIN_DENSITY = 0.01;

/** The plan's terms scored for a request: all of them, or the budget's prefix with `approx`. */
export function scoredPlan(fullPlan: TermPlan[], req: Pick<ScoreRequest, 'approx'>): TermPlan[] {
  if (!req.approx) return fullPlan;
  return fullPlan.slice(
    0,
    approxPrefix(
      fullPlan.map((t) => t.df),
      req.approx,
    ),
  );
}

/** Exact top-k of one request over one doc range (of the budget's terms only, with `approx`). */
export function scoreTopK(view: ScoringView, req: ScoreRequest, strategy: Strategy = 'auto', blockDocs?: number, windowBits?: number): Ranked {
  const k = Math.min(req.k, view.hi - view.lo);
  if (req.ids.length === 0 || k <= 0) return { docs: [], scores: [] };
  // The decoded-list cache may evict what the previous query touched, never what this one does (list-cache.ts).
  beginQuery(view);
  const fullPlan = termPlan(view, req);
  const plan = scoredPlan(fullPlan, req);
  let postings = 0;
  for (const t of plan) postings += t.df;
  const blocked = strategy === 'blocked' || (strategy === 'auto' && postings >= BLOCKED_MIN_DENSITY * (view.hi - view.lo));
  const inp = scoringInput(view, req, plan, fullPlan, k, strategy === 'exhaustive');
  // Block-max MaxScore over doc windows (block-max.ts) takes BM25 and textbook QLD.
  const bmx = modeFacts(inp.mode).kernel;
  if (strategy === 'blockmax' && !bmx) throw new Error("strategy 'blockmax' takes bm25 and textbook qld (lexcase scorer) only");
  // Opt-in only: 'auto' does not take it (it lost to blocked TAAT on fresh agent queries in
  // bench/prune-ab.ts: docs/notes/2026-11-26-block-max.md).
  if (strategy === 'blockmax') return ranked(blockMaxTopK(view, inp, windowBits));
  return ranked(blocked ? blockedTopK(view, inp, blockDocs) : maxScoreTopK(view, inp));
}

/**
 * What the walks take for one request (once per query, never per doc): its scorer mode, the plan's
 * terms to score (`plan`), the per-doc array of accumulate() and, for textbook QLD, the part every
 * document shares, over every query term (`fullPlan`: also those an approximate request skips, whose
 * matched part only is dropped). The per-doc arrays are indexed by global doc index, so an input
 * made on the whole index serves a view of any of its doc ranges (sparse/doc-score.ts).
 */
export function scoringInput(view: ScoringView, req: ScoreRequest, plan: TermPlan[], fullPlan: TermPlan[], k: number, exhaustive: boolean): MaxScoreInput {
  if (req.scorer === 'lucene') {
    if (req.method === 'bm25')
      return { mode: Mode.LuceneBm25, plan, k, arr: luceneNormInverses(view, req.k1, req.b), paramKey: `lbm25:${req.k1}:${req.b}`, exhaustive };
    return { mode: Mode.LuceneLmd, plan, k, arr: luceneLogRatios(view, req.mu), paramKey: `llmd:${req.mu}`, exhaustive };
  }
  if (req.method === 'bm25') {
    const arr = bm25Norms(view, req.k1, req.b);
    return {
      mode: Mode.Bm25,
      plan,
      k,
      arr,
      paramKey: `bm25:${req.k1}:${req.b}`,
      exhaustive,
      bm25Positive: req.k1 > 0 && req.b < 1,
      bm25: { k1: req.k1, b: req.b },
    };
  }
  if (req.variant === 'lucene') {
    const arr = logRatios(view, req.mu);
    return { mode: Mode.LuceneQld, plan, k, arr, paramKey: `lucene:${req.mu}`, exhaustive };
  }
  let base = 0;
  let qlen = 0;
  for (const t of fullPlan) {
    base += t.p1 * Math.log(t.p2);
    qlen += t.p1;
  }
  const lnl = logLengths(view, req.mu);
  return { mode: Mode.Qld, plan, k, arr: undefined, paramKey: `qld:${req.mu}`, qld: { base, qlen, lnl }, exhaustive };
}

function ranked(top: TopK): Ranked {
  return top.bestFirst();
}

/** Merge per-range rankings into the global top-k (score desc, then doc index asc). */
export function mergeRanked(parts: Ranked[], k: number): Ranked {
  const out: Ranked = { docs: [], scores: [] };
  const pos = parts.map(() => 0);
  while (out.docs.length < k) {
    let best = -1;
    for (let p = 0; p < parts.length; p++) {
      const i = pos[p];
      if (i >= parts[p].docs.length) continue;
      if (best < 0) best = p;
      else {
        const s = parts[p].scores[i];
        const bs = parts[best].scores[pos[best]];
        if (s > bs || (s === bs && parts[p].docs[i] < parts[best].docs[pos[best]])) best = p;
      }
    }
    if (best < 0) break;
    out.docs.push(parts[best].docs[pos[best]]);
    out.scores.push(parts[best].scores[pos[best]++]);
  }
  return out;
}
