/**
 * How many worker threads a batch search (`search --topics`, `eval retrieval --topics`) uses when
 * not told (`--threads`): one per core, at most BATCH_THREADS_MAX, for batches of at least
 * BATCH_THREADS_MIN_TOPICS topics — each worker opens the index itself (seconds on a large index),
 * which a handful of topics does not repay — else 1 (the calling thread). A light module (the CLI's help reads it).
 */
import { availableParallelism } from 'node:os';

export const BATCH_THREADS_MAX = 8;
export const BATCH_THREADS_MIN_TOPICS = 50;

export function defaultBatchThreads(topics: number, cores = availableParallelism()): number {
  return topics >= BATCH_THREADS_MIN_TOPICS ? Math.max(1, Math.min(cores, BATCH_THREADS_MAX)) : 1;
}

export const BATCH_THREADS_HELP = `worker threads, each searching topics over its own read-only open of the index (run file identical for any N); default: one per core (at most ${BATCH_THREADS_MAX}) for ${BATCH_THREADS_MIN_TOPICS}+ topics, else 1`;
