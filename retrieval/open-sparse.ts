/**
 * The sparse methods' opener: bm25 and qld share one loaded SparseIndex per dir (cached; reloaded
 * when the manifest changes), scored on worker threads for large indexes.
 */
import { availableParallelism } from 'node:os';
import { errors } from '../core/errors.js';
import type { Manifest } from '../indexer/manifest.js';
import { loadSparseIndex, type SparseIndex } from '../indexer/sparse/sparse-index.js';
import type { Retriever } from './types.js';
import { createBm25Retriever } from './bm25.js';
import { createQldRetriever, type QldVariant } from './qld.js';
import { numberOption } from './sparse/hits.js';
import { SPARSE_SCORER_NAMES, type SparseScorer } from './sparse/score-core.js';
import { closeScorers } from './sparse/query-pool.js';
import { closeTextStores } from './hit-text.js';
import { manifestKeyedCache } from './manifest-keyed-cache.js';
import { rm3Params } from './rm3-params.js';
import { RETRIEVAL_DEFAULTS } from './defaults.js';
import { cacheBudgetBytes } from './sparse/list-cache.js';

/** Indexes at least this large score queries on min(2, cores) worker threads by default. */
export const QUERY_THREADS_MIN_DOCS = 50_000;

const cache = manifestKeyedCache(loadSparseIndex, (i: SparseIndex) => Promise.all([i.docs.close(), closeScorers(i).then(() => i.closePostings())]));

/** Load (once per dir and manifest version) the sparse index shared by bm25 and qld. */
export function openSparseIndex(dir: string): Promise<SparseIndex> {
  return cache.get(dir);
}

/** Drop cached indexes (all, or one dir), closing their doc store files. */
export async function closeSparseIndexes(dir?: string): Promise<void> {
  await closeTextStores(dir);
  await cache.close(dir);
}

/** A bm25 or qld Retriever over the dir's shared sparse index; with `opts.rm3`, its RM3 expansion (rm3.ts). */
export async function openSparseMethod(dir: string, manifest: Manifest, method: 'bm25' | 'qld', opts: Record<string, unknown>): Promise<Retriever> {
  if (!manifest.methods.includes(method)) throw errors.methodUnavailable(method, dir, manifest.methods);
  const index = await openSparseIndex(dir);
  const dfltThreads = index.N >= QUERY_THREADS_MIN_DOCS ? Math.min(2, availableParallelism()) : 0;
  const threads = Math.floor(numberOption(opts, 'threads', dfltThreads, 0, 64));
  const scorer = (opts.scorer ?? 'lexcase') as SparseScorer;
  if (!SPARSE_SCORER_NAMES.includes(scorer))
    throw errors.invalidInput('scorer', `expected one of ${SPARSE_SCORER_NAMES.join(', ')}, got "${String(opts.scorer)}"`);
  const cacheMib = opts.cacheMib === undefined || opts.cacheMib === null ? undefined : numberOption(opts, 'cacheMib', 0, 0);
  const cacheBytes = cacheBudgetBytes(cacheMib);
  const rm3 = rm3Params(opts);
  const variant = opts.variant as QldVariant | undefined;
  const base =
    method === 'bm25'
      ? createBm25Retriever(index, {
          k1: numberOption(opts, 'k1', RETRIEVAL_DEFAULTS.bm25.k1, 0),
          b: numberOption(opts, 'b', RETRIEVAL_DEFAULTS.bm25.b, 0, 1),
          threads,
          scorer,
          cacheBytes,
        })
      : createQldRetriever(index, {
          mu: numberOption(opts, 'mu', RETRIEVAL_DEFAULTS.qld.mu, Number.MIN_VALUE),
          ...(variant !== undefined ? { variant } : {}),
          threads,
          scorer,
          cacheBytes,
        });
  return rm3 ? (await import('./rm3.js')).createRm3Retriever(base, rm3) : base;
}
