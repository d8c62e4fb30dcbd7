/** Scorer parameters shared by `search` and `eval retrieval`: --k1, --b, --mu, --variant, --scorer → openRetriever opts. */
import type { Command } from 'commander';
import { numOpt } from '../numeric-options.js';
import { addDenseSearchOptions, denseSearchOptions, type DenseSearchFlags } from '../dense-search-options.js';
import { RETRIEVAL_DEFAULTS } from '../../../retrieval/defaults.js';

export interface RetrieverFlags extends DenseSearchFlags {
  k1?: number;
  b?: number;
  mu?: number;
  variant?: string;
  scorer?: string;
}

export function addRetrieverOptions(cmd: Command): Command {
  return addDenseSearchOptions(cmd)
    .option('--k1 <x>', `BM25 k1 (default ${RETRIEVAL_DEFAULTS.bm25.k1})`, numOpt('k1', { min: 0 }))
    .option('--b <x>', `BM25 b (default ${RETRIEVAL_DEFAULTS.bm25.b})`, numOpt('b', { min: 0, max: 1 }))
    .option('--mu <x>', `QLD Dirichlet μ (default ${RETRIEVAL_DEFAULTS.qld.mu})`, numOpt('mu', { gt: 0 }))
    .option('--variant <name>', `QLD variant: textbook (Σ c(t,q)·ln((tf+μP)/(dl+μ))) | lucene (LMDirichlet, clamped); default ${RETRIEVAL_DEFAULTS.qld.variant}`)
    .option('--scorer <name>', "bm25/qld arithmetic: lexcase (default; exact lengths, double) | lucene (Lucene 8's BM25Similarity / LMDirichletSimilarity: 1-byte length norms, float32, no (k1+1) — scores equal Lucene's and Anserini's)");
}

/** Only the options the user set, so each retriever keeps its own defaults. */
export function retrieverOptions(flags: RetrieverFlags): Record<string, unknown> {
  const o: Record<string, unknown> = denseSearchOptions(flags);
  if (flags.k1 !== undefined) o.k1 = flags.k1;
  if (flags.b !== undefined) o.b = flags.b;
  if (flags.mu !== undefined) o.mu = flags.mu;
  if (flags.variant !== undefined) o.variant = flags.variant;
  if (flags.scorer !== undefined) o.scorer = flags.scorer;
  return o;
}
