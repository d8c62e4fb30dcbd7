/**
 * BM25 with Lucene's formula (as in Pyserini): Σ_{t∈q} c(t,q) · idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)),
 * idf = ln(1 + (N − df + 0.5)/(df + 0.5)); k1 = 0.9, b = 0.4 by default. Only documents that match
 * at least one query term are ranked. Exact doc lengths are used (Lucene stores them lossily).
 *
 * scorer 'lucene': Lucene 8's BM25Similarity itself — no (k1+1) factor, 1-byte length norms, float32,
 * idf and avgdl over the documents with at least one term (retrieval/sparse/lucene-scorer.ts), so
 * scores equal Lucene's and Anserini's.
 */
import type { SparseIndex } from '../indexer/sparse/sparse-index.js';
import type { Explanation, Hit, SearchOptions } from './types.js';
import type { SparseRetriever } from './sparse-retriever.js';
import { termFrequency } from './sparse/term-frequency.js';
import { docIndexOf, toHits } from './sparse/hits.js';
import { queryTerms, type QueryTerms } from './sparse/query-terms.js';
import { scorerFor } from './sparse/query-pool.js';
import { bm25Idf } from './sparse/score-core.js';
import { docScore } from './sparse/doc-score.js';
import { attachTexts } from './hit-text.js';
import { resolveSearch } from './search-options.js';
import { RETRIEVAL_DEFAULTS } from './defaults.js';
import type { SparseScorer } from './sparse/score-core.js';
import { docCount, luceneAvgdl, luceneIdf, intToByte4, luceneLength } from './sparse/lucene-scorer.js';

export { bm25Idf };

export interface Bm25Params {
  k1: number;
  b: number;
  /** 'lexcase' (default) or 'lucene' (Lucene's BM25Similarity arithmetic). */
  scorer: SparseScorer;
  /** Query worker threads over doc ranges (0 or 1 = score on the calling thread). */
  threads: number;
  /** Byte budget of the decoded-list cache for the whole index, split over the threads (default: LEXCASE_CACHE_MIB or 1024 MiB; list-cache.ts). */
  cacheBytes: number;
}
export const BM25_DEFAULTS = RETRIEVAL_DEFAULTS.bm25;

export function createBm25Retriever(index: SparseIndex, params: Partial<Bm25Params> = {}): SparseRetriever {
  const { k1, b } = { ...BM25_DEFAULTS, ...params };
  const lucene = params.scorer === 'lucene';
  const scorer = scorerFor(index, index, index.view, params.threads ?? 0, params.cacheBytes);
  // The ranking scores the passage itself (sparse/doc-score.ts): term parts are the weights it adds,
  // `score` the search's bit for bit.
  const ranked = (q: QueryTerms, doc: number) =>
    docScore(index.view, { method: 'bm25', k1, b, ids: q.ids, counts: q.counts, k: 1, ...(lucene ? { scorer: 'lucene' as const } : {}) }, doc);
  const explainLucene = (q: QueryTerms, id: string): Explanation => {
    const doc = docIndexOf(index, id);
    const dl = index.doclen[doc];
    const norm = intToByte4(dl);
    const r = ranked(q, doc);
    const terms = q.ids.map((t, i) => ({ term: q.terms[i], qtf: q.counts[i], tf: termFrequency(index.view, t, doc), df: index.df[t], score: r.weights[i] }));
    const docs = docCount(index.view);
    return {
      id,
      method: 'bm25',
      score: r.score,
      terms,
      detail: {
        scorer: 'lucene',
        k1,
        b,
        dl,
        norm,
        normLength: luceneLength(dl),
        avgdl: luceneAvgdl(index.view),
        docCount: docs,
        idf: Object.fromEntries(q.ids.map((t, i) => [q.terms[i], luceneIdf(docs, index.df[t])])),
      },
    };
  };
  const explainDoc = (q: QueryTerms, id: string): Explanation => {
    if (lucene) return explainLucene(q, id);
    const doc = docIndexOf(index, id);
    const dl = index.doclen[doc];
    const r = ranked(q, doc);
    const terms = q.ids.map((t, i) => ({ term: q.terms[i], qtf: q.counts[i], tf: termFrequency(index.view, t, doc), df: index.df[t], score: r.weights[i] }));
    return { id, method: 'bm25', score: r.score, terms, detail: { k1, b, dl, avgdl: index.avgdl, N: index.N } };
  };
  const searchTerms = async (q: QueryTerms, opts?: SearchOptions): Promise<Hit[]> => {
    const s = resolveSearch(opts, 'bm25', { approx: true });
    const k = Math.min(s.k, index.N);
    const approx = s.approx;
    const r = await scorer.score({
      method: 'bm25',
      k1,
      b,
      ids: q.ids,
      counts: q.counts,
      k,
      ...(lucene ? { scorer: 'lucene' as const } : {}),
      ...(approx ? { approx } : {}),
    });
    const hits = toHits(index, r);
    return s.withText ? attachTexts(hits, index.docs, 'bm25') : hits;
  };
  return {
    method: 'bm25',
    // The scoring parameters runs and eval reports record (a run at k1 1.2 must not read as one at 0.9).
    config: { k1, b, ...(lucene ? { scorer: 'lucene' } : {}) },
    index,
    scoreKind: 'sum',
    searchTerms,
    explainTerms: explainDoc,
    async search(query: string, opts?: SearchOptions): Promise<Hit[]> {
      return searchTerms(queryTerms(index, query), opts);
    },
    async explain(query: string, id: string): Promise<Explanation> {
      return explainDoc(queryTerms(index, query), id);
    },
    async explainMany(query: string, ids: readonly string[]): Promise<Explanation[]> {
      const q = queryTerms(index, query);
      return ids.map((id) => explainDoc(q, id));
    },
  };
}
