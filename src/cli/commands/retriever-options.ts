/** Scorer parameters shared by `search` and `eval retrieval`: --k1, --b, --mu, --variant, --scorer, --rm3 … → openRetriever opts. */
import type { Command } from 'commander';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { methodsReading, unreadOptions, withoutUnreadOptions } from '../../../retrieval/method-options.js';
import { intOpt, numOpt } from '../numeric-options.js';
import { RM3_DEFAULTS, RM3_FB_MAX } from '../../../retrieval/rm3-params.js';
import { addDenseSearchOptions, denseSearchOptions, type DenseSearchFlags } from '../dense-search-options.js';
import { RETRIEVAL_DEFAULTS } from '../../../retrieval/defaults.js';
import { DEFAULT_CACHE_MIB } from '../../../retrieval/sparse/list-cache.js';

export interface RetrieverFlags extends DenseSearchFlags {
  k1?: number;
  b?: number;
  mu?: number;
  variant?: string;
  scorer?: string;
  rm3?: boolean;
  fbDocs?: number;
  fbTerms?: number;
  originalQueryWeight?: number;
  cacheMib?: number;
}

export function addRetrieverOptions(cmd: Command): Command {
  return addDenseSearchOptions(cmd)
    .option('--k1 <x>', `BM25 k1 (default ${RETRIEVAL_DEFAULTS.bm25.k1})`, numOpt('k1', { min: 0 }))
    .option('--b <x>', `BM25 b (default ${RETRIEVAL_DEFAULTS.bm25.b})`, numOpt('b', { min: 0, max: 1 }))
    .option('--mu <x>', `QLD Dirichlet μ (default ${RETRIEVAL_DEFAULTS.qld.mu})`, numOpt('mu', { gt: 0 }))
    .option(
      '--variant <name>',
      `QLD variant: textbook (Σ c(t,q)·ln((tf+μP)/(dl+μ))) | lucene (LMDirichlet, clamped); default ${RETRIEVAL_DEFAULTS.qld.variant}`,
    )
    .option(
      '--scorer <name>',
      "bm25/qld arithmetic: lexcase (default; exact lengths, double) | lucene (Lucene 8's BM25Similarity / LMDirichletSimilarity: 1-byte length norms, float32, no (k1+1) — scores equal Lucene's and Anserini's)",
    )
    .option(
      '--rm3',
      "bm25/qld: RM3 query expansion (pseudo-relevance feedback, as Anserini's -rm3): the query plus the top feedback documents' heaviest terms, searched again",
    )
    .option('--fb-docs <n>', `RM3: feedback documents (default ${RM3_DEFAULTS.fbDocs})`, intOpt('fb-docs', { min: 1, max: RM3_FB_MAX }))
    .option('--fb-terms <n>', `RM3: feedback terms (default ${RM3_DEFAULTS.fbTerms})`, intOpt('fb-terms', { min: 1, max: RM3_FB_MAX }))
    .option(
      '--original-query-weight <x>',
      `RM3: weight of the original query, 0-1 (default ${RM3_DEFAULTS.originalQueryWeight})`,
      numOpt('original-query-weight', { min: 0, max: 1 }),
    )
    .option(
      '--cache-mib <n>',
      `bm25/qld: memory for decoded posting lists, MiB, least recently used evicted (default LEXCASE_CACHE_MIB or ${DEFAULT_CACHE_MIB}; results do not change)`,
      numOpt('cache-mib', { min: 0 }),
    );
}

/** --rm3 and its parameters → the `rm3` retriever option (true: the defaults). */
function rm3Option(flags: RetrieverFlags): true | Record<string, number> | undefined {
  const given = (['fbDocs', 'fbTerms', 'originalQueryWeight'] as const).filter((k) => flags[k] !== undefined);
  if (!flags.rm3) {
    if (given.length)
      throw errors.usage(
        `${given.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} ${given.length > 1 ? 'are' : 'is'} RM3's: add --rm3`,
      );
    return undefined;
  }
  return given.length ? Object.fromEntries(given.map((k) => [k, flags[k]!])) : true;
}

/** The flag that sets an option key (--k1, --hybrid-methods, --dense-query-words, …). */
const FLAG_OF: Record<string, string> = { methods: 'hybrid-methods', queryWords: 'dense-query-words' };
const flagOf = (key: string) => `--${FLAG_OF[key] ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Warn (stderr) about each flag set that none of `methods` reads: it changes nothing, and is not dropped silently. */
function warnUnused(o: Record<string, unknown>, methods: readonly string[]): void {
  for (const key of unreadOptions(o, methods))
    log.warn(`${flagOf(key)} is ignored: it applies to ${methodsReading(key).join(', ')}, not to ${methods.join(', ')}`);
}

/**
 * Only the options the user set, so each retriever keeps its own defaults; a flag none of `methods`
 * reads is warned about here, by its flag, and left out (openRetriever would warn again by its key).
 */
export function retrieverOptions(flags: RetrieverFlags, methods: readonly string[]): Record<string, unknown> {
  const o: Record<string, unknown> = denseSearchOptions(flags);
  if (flags.k1 !== undefined) o.k1 = flags.k1;
  if (flags.b !== undefined) o.b = flags.b;
  if (flags.mu !== undefined) o.mu = flags.mu;
  if (flags.variant !== undefined) o.variant = flags.variant;
  if (flags.scorer !== undefined) o.scorer = flags.scorer;
  if (flags.cacheMib !== undefined) o.cacheMib = flags.cacheMib;
  const rm3 = rm3Option(flags);
  if (rm3 !== undefined) o.rm3 = rm3;
  warnUnused(o, methods);
  return withoutUnreadOptions(o, methods);
}
