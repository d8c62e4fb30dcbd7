/**
 * Query likelihood with Dirichlet smoothing (μ = 2000 by default, as in CASE).
 *
 * textbook (default): score(d) = Σ_{t∈q} c(t,q)·ln((tf + μ·P(t|C)) / (dl + μ)), P(t|C) = cf/|C|, over
 * EVERY document (unmatched ones too). Computed exactly via the decomposition
 *   Σ c·ln(μP) − |q|·ln(dl+μ) + Σ_{t matched} c·ln(1 + tf/(μP)),
 * i.e. one sparse postings walk plus, for unmatched documents, the (length, index) order stored at
 * build time (shorter unmatched documents score higher).
 *
 * lucene: Lucene's LMDirichletSimilarity: per matched term max(0, ln(1 + tf/(μ·P)) + ln(μ/(dl+μ))) with
 * Lucene's collection model P = (cf+1)/(|C|+1); only matching documents are ranked.
 *
 * scorer 'lucene': that formula as Lucene 8 computes it — lengths through the 1-byte norm, each
 * term's score cast to float, the document's sum to float (retrieval/sparse/lucene-scorer.ts) — so
 * scores equal Lucene's and Anserini's `-qld`. It implies the lucene variant.
 */
import { errors } from '../core/errors.js';
import type { SparseIndex } from '../indexer/sparse/sparse-index.js';
import type { Explanation, Hit, SearchOptions } from './types.js';
import type { SparseRetriever } from './sparse-retriever.js';
import { termFrequency } from './sparse/term-frequency.js';
import { docIndexOf, toHits } from './sparse/hits.js';
import { queryTerms, type QueryTerms } from './sparse/query-terms.js';
import { scorerFor } from './sparse/query-pool.js';
import { collectionProb } from './sparse/score-core.js';
import { attachTexts } from './hit-text.js';
import { resolveSearch } from './search-options.js';
import { RETRIEVAL_DEFAULTS } from './defaults.js';
import type { SparseScorer } from './sparse/score-core.js';
import { intToByte4, luceneLength } from './sparse/lucene-scorer.js';
import { docScore } from './sparse/doc-score.js';

export { collectionProb };

export type QldVariant = 'textbook' | 'lucene';
export interface QldParams {
  mu: number;
  variant: QldVariant;
  /** 'lexcase' (default) or 'lucene' (Lucene's LMDirichletSimilarity arithmetic; the lucene variant). */
  scorer: SparseScorer;
  /** Query worker threads over doc ranges (0 or 1 = score on the calling thread). */
  threads: number;
  /** Byte budget of the decoded-list cache for the whole index, split over the threads (default: LEXCASE_CACHE_MIB or 1024 MiB; list-cache.ts). */
  cacheBytes: number;
}
export const QLD_DEFAULTS = RETRIEVAL_DEFAULTS.qld;

export function createQldRetriever(index: SparseIndex, params: Partial<QldParams> = {}): SparseRetriever {
  const lucene = params.scorer === 'lucene';
  if (lucene && params.variant === 'textbook')
    throw errors.invalidInput(
      'variant',
      "the lucene scorer is Lucene's LMDirichletSimilarity (the lucene variant); drop --variant textbook or the lucene scorer",
    );
  const { mu, variant } = { ...QLD_DEFAULTS, ...params, ...(lucene ? { variant: 'lucene' as const } : {}) };
  if (variant !== 'textbook' && variant !== 'lucene') throw errors.invalidInput('variant', `expected "textbook" or "lucene", got "${String(variant)}"`);
  const T = index.totalTokens;
  const scorer = scorerFor(index, index, index.view, params.threads ?? 0, params.cacheBytes);

  const searchTerms = async (q: QueryTerms, opts?: SearchOptions): Promise<Hit[]> => {
    const s = resolveSearch(opts, 'qld', { approx: true });
    const k = Math.min(s.k, index.N);
    const approx = s.approx;
    const hits = toHits(
      index,
      await scorer.score({
        method: 'qld',
        variant,
        mu,
        ids: q.ids,
        counts: q.counts,
        k,
        ...(lucene ? { scorer: 'lucene' as const } : {}),
        ...(approx ? { approx } : {}),
      }),
    );
    return s.withText ? attachTexts(hits, index.docs, 'qld') : hits;
  };

  // The ranking scores the passage itself (sparse/doc-score.ts): `score` is bit for bit the search's.
  const explainTerms = (q: QueryTerms, id: string): Explanation => {
    const doc = docIndexOf(index, id);
    const dl = index.doclen[doc];
    const tfs = q.ids.map((t) => termFrequency(index.view, t, doc));
    const r = docScore(index.view, { method: 'qld', variant, mu, ids: q.ids, counts: q.counts, k: 1, ...(lucene ? { scorer: 'lucene' as const } : {}) }, doc);
    if (lucene) {
      // each term's part is the float weight the ranking adds; the score is their float sum
      const terms = q.ids.map((t, i) => ({ term: q.terms[i], qtf: q.counts[i], tf: tfs[i], df: index.df[t], score: r.weights[i] }));
      return {
        id,
        method: 'qld',
        score: r.score,
        terms,
        detail: { scorer: 'lucene', mu, dl, norm: intToByte4(dl), normLength: luceneLength(dl), collectionTokens: T },
      };
    }
    if (variant === 'lucene') {
      const terms = q.ids.map((t, i) => ({ term: q.terms[i], qtf: q.counts[i], tf: tfs[i], df: index.df[t], score: r.weights[i] }));
      return { id, method: 'qld', score: r.score, terms, detail: { variant, mu, dl, collectionTokens: T } };
    }
    // textbook: each term's log-likelihood c·ln((tf + μP)/(dl + μ)); the ranking sums the same
    // quantity decomposed (Σ c·ln(μP) − |q|·ln(dl + μ) + Σ matched c·ln(1 + tf/(μP))), so the parts
    // add up to the score up to the last digits
    const terms = q.ids.map((t, i) => {
      const c = q.counts[i];
      const P = collectionProb(variant, index.cf[t], T);
      return { term: q.terms[i], qtf: c, tf: tfs[i], df: index.df[t], score: c * Math.log((tfs[i] + mu * P) / (dl + mu)) };
    });
    return { id, method: 'qld', score: r.score, terms, detail: { variant, mu, dl, collectionTokens: T } };
  };

  return {
    method: 'qld',
    // The scoring parameters runs and eval reports record.
    config: { mu, variant, ...(lucene ? { scorer: 'lucene' } : {}) },
    index,
    scoreKind: variant === 'textbook' ? 'log-likelihood' : 'sum',
    searchTerms,
    explainTerms,
    async search(query: string, opts?: SearchOptions): Promise<Hit[]> {
      return searchTerms(queryTerms(index, query), opts);
    },
    async explain(query: string, id: string): Promise<Explanation> {
      return explainTerms(queryTerms(index, query), id);
    },
  };
}
