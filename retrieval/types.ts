/** The single Retriever seam: bm25, qld, dense, hybrid and rewrite are all Retrievers. */

/** A method of the registry (retrieval/methods.ts: METHOD_NAMES); any string there is checked when opened. */
export type MethodName = string;

export interface SearchOptions {
  /** Number of hits to return (default SEARCH_K, retrieval/default-k.ts). */
  k?: number;
  /** Also return each hit's passage text (and title, when it has one), read from the index's doc store. */
  withText?: boolean;
  /**
   * Opt-in approximate scoring (bm25 and qld only; every other method refuses it). Absent: exact.
   * See ApproxOptions and docs/index-format.md "Approximate mode".
   */
  approx?: ApproxOptions;
}

/**
 * A posting budget for one query: terms are taken in the scorer's fixed order (terms in fewer than
 * half the docs first, each group by decreasing weight at tf = 1) and the longest prefix whose
 * postings (document frequencies) fit the budget is scored exactly — at least the first term; the
 * rest are skipped ("quit", Moffat & Zobel 1996). Textbook QLD keeps every query term's length
 * penalty and drops only the skipped terms' matched part. Give one or both; with both the smaller
 * budget applies. `{ postingShare: 1 }` is exact scoring, bit for bit.
 */
export interface ApproxOptions {
  /** Budget as a share of the query's total postings, 0 < share ≤ 1. */
  postingShare?: number;
  /** Budget as a number of postings, an integer ≥ 1. */
  maxPostings?: number;
}

export interface Hit {
  id: string;
  score: number;
  /** 1-based rank. */
  rank: number;
  /** Passage text; set when searched with `withText: true`. */
  text?: string;
  /** Passage title, when it has one and the search asked for `withText`. */
  title?: string;
}

/** A hit searched with `withText: true`. */
export type TextHit = Hit & { text: string };

/** Per-term contribution of one document's score (for `--explain`). */
export interface TermContribution {
  term: string;
  /** Query-term count c(t, q). */
  qtf: number;
  /** Term frequency in the document (0 when unmatched). */
  tf: number;
  df: number;
  score: number;
}

export interface Explanation {
  id: string;
  method: MethodName | string;
  score: number;
  /** Score part shared by every document (e.g. QLD's document-length and unmatched-term mass). */
  base?: number;
  terms: TermContribution[];
  /** Free-form notes, e.g. fusion components for hybrid. */
  detail?: Record<string, unknown>;
}

/** How many distinct queries a dense retriever (or hybrid's dense component) embedded, and how many of them only in part. */
export interface QueriesReadInPart {
  provider: string;
  maxTokens: number;
  /** Distinct queries embedded. */
  of: number;
  /** Of them, longer than maxTokens. */
  cut: number;
}

export interface Retriever {
  readonly method: MethodName | string;
  /**
   * What the retriever does to a query that a run must record to be read right (dense: its query
   * rule, retrieval/dense-query.ts; hybrid: its fusion and its components' configs). Runs copy it
   * into their config (eval retrieval's report, a reproduction's retrieval run).
   */
  readonly config?: Record<string, unknown>;
  search(query: string, opts?: SearchOptions): Promise<Hit[]>;
  /**
   * How deep the retriever ranks, the same for every k: a search of any k returns the first k of
   * one ranking, every passage scored alike. Absent: the whole index (each passage is scored alone:
   * bm25, qld, dense). Hybrid: its depth — it fuses each component's top `depth` hits, so a search of
   * more hits gets at most the fused union of those lists, without the passages a component ranks
   * below depth (retrieval/ranking-depth.ts: the note saying so). A filtered search
   * (retrieval/filtered-search.ts) looks no deeper than this; retrieval/top-k.ts searches past a tie
   * at any cut, past this too (the fused ranking is the same for every k).
   */
  readonly rankingDepth?: number;
  /**
   * Significant digits a run file keeps of its scores, where 6 decimals keep fewer
   * (retrieval/top-k.ts scoreText; the printed order, every cut and evaluation read the scores so
   * rounded). Absent: 6 decimals (bm25, qld, dense). Hybrid: 10 — its fused scores are small and,
   * past a few hundred ranks, closer than 1e-6.
   */
  readonly scoreDigits?: number;
  explain?(query: string, id: string): Promise<Explanation>;
  /** explain() for many passages, the query analysed once (same results). */
  explainMany?(query: string, ids: readonly string[]): Promise<Explanation[]>;
  /**
   * Dense (and hybrid, of its dense component): how many of the distinct queries searched so far the
   * model read only in part (longer than its token limit: embedded from their first maxTokens
   * tokens); undefined where the limit is unknown (retrieval/dense-query-cut.ts queriesCutNote says
   * it). `queries`: checked first, as searched (a batch searched on worker threads).
   */
  queriesReadInPart?(queries?: readonly string[]): QueriesReadInPart | undefined;
  /** Dense (and hybrid, of its dense component): the model's limit when it reads `query` only in part, else undefined (nothing counted). */
  queryReadInPart?(query: string): { provider: string; maxTokens: number } | undefined;
}

/** Fetches passage text by id from an index's doc store (defined by the indexer, which writes it). */
export type { Embedder } from '../indexer/embed/types.js';
export type { DocStore } from '../indexer/docstore.js';
