/**
 * The retrieval domain's defaults in one object: what a search uses when nobody says — k (the two
 * named k defaults of default-k.ts), BM25's k1 and b, QLD's μ and variant, and hybrid's fusion
 * (hybrid-defaults.ts). The retrievers (bm25.ts, qld.ts, wink.ts, open-sparse.ts, hybrid-open.ts)
 * and the CLI's help text (src/cli/commands/retriever-options.ts) read them from here, so the help
 * says what the code does. A small module: the CLI's help loads nothing heavy with it.
 */
import { DEFAULT_K, SEARCH_K } from './default-k.js';
import { HYBRID_DEFAULTS } from './hybrid-defaults.js';

export const RETRIEVAL_DEFAULTS = {
  /** Hits of a search a person reads (a Retriever's `search()` without k). */
  searchK: SEARCH_K,
  /** Passages of evidence an agent takes per search. */
  evidenceK: DEFAULT_K,
  /** BM25 (Robertson–Walker, Anserini's defaults). */
  bm25: { k1: 0.9, b: 0.4 },
  /** Query likelihood with Dirichlet smoothing (μ as in CASE). */
  qld: { mu: 2000, variant: 'textbook' },
  /** What `hybrid` fuses, and how, when the caller names nothing. */
  hybrid: HYBRID_DEFAULTS,
} as const;
