/**
 * A sparse (bm25 / qld) Retriever with what query expansion (RM3, retrieval/rm3.ts) needs beyond
 * `search(text)`: its loaded index and a search over weighted terms, where a term's weight takes
 * the place of its query count c(t, q) (Lucene's boost) in the method's formula.
 */
import type { SparseIndex } from '../indexer/sparse/sparse-index.js';
import type { QueryTerms } from './sparse/query-terms.js';
import type { Explanation, Hit, Retriever, SearchOptions } from './types.js';

export interface SparseRetriever extends Retriever {
  readonly index: SparseIndex;
  /**
   * What a score is: 'sum' — a sum of non-negative term weights (BM25, Lucene's LMDirichlet) — or
   * 'log-likelihood' — log P(q | d) (textbook QLD: negative, only differences mean anything).
   */
  readonly scoreKind: 'sum' | 'log-likelihood';
  /** Rank by weighted terms (`counts` are the weights; any non-negative numbers). */
  searchTerms(q: QueryTerms, opts?: SearchOptions): Promise<Hit[]>;
  /** explain() of weighted terms. */
  explainTerms(q: QueryTerms, id: string): Explanation;
}

/** Whether a Retriever is a SparseRetriever. */
export const isSparseRetriever = (r: Retriever): r is SparseRetriever => typeof (r as Partial<SparseRetriever>).searchTerms === 'function';
