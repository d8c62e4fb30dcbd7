/**
 * CLI flags for dense and hybrid retrieval, shared by `search` and `eval retrieval` (added to their
 * scorer options by src/cli/commands/retriever-options.ts).
 */
import type { Command } from 'commander';
import { intOpt, numOpt } from './numeric-options.js';
import { HYBRID_DEFAULTS, hybridDefaultsNote } from '../../retrieval/hybrid-defaults.js';
import { DENSE_QUERY_WORDS_HELP } from '../../retrieval/dense-query.js';

export interface DenseSearchFlags {
  fusion?: string;
  hybridMethods?: string;
  weights?: string;
  rrfK?: number;
  depth?: number;
  embedder?: string;
  model?: string;
  modelDir?: string;
  nprobes?: number;
  refineFactor?: number;
  ef?: number;
  exact?: boolean;
  denseQueryWords?: number;
}

const D = HYBRID_DEFAULTS;
const defaultWeights = D.weights
  ? Object.entries(D.weights)
      .map(([m, w]) => `${m}=${w}`)
      .join(',')
  : 'equal';

/** The hybrid help is written from HYBRID_DEFAULTS (retrieval/hybrid-defaults.ts), the values openRetriever uses. */
export function addDenseSearchOptions(cmd: Command): Command {
  return cmd
    .option(
      '--fusion <name>',
      `hybrid: rrf (reciprocal-rank fusion) | weighted (min-max-normalised scores); default ${D.fusion} (hybrid by default: ${hybridDefaultsNote()})`,
    )
    .option('--hybrid-methods <list>', `hybrid: methods to fuse, any of bm25,qld,dense,lancedb-fts (default ${D.methods.join(',')})`)
    .option(
      '--weights <list>',
      `hybrid: per-method weights, e.g. bm25=0.3,dense=0.7 (default ${defaultWeights} whenever the methods and fusion are the defaults, named or not; else equal). Given weights replace the defaults whole: a method not named gets 1 (rrf) or 1/n (weighted), not its default weight`,
    )
    .option('--rrf-k <n>', `hybrid: RRF constant (default ${D.rrfK})`, numOpt('rrf-k', { min: 0 }))
    .option('--depth <n>', `hybrid: hits fetched from each method before fusion (default ${D.depth})`, intOpt('depth', { min: 1 }))
    .option('--embedder <name>', 'dense: query embedder provider (default: the one recorded in the index)')
    .option('--model <id>', 'dense: query embedder model (must match the index)')
    .option('--model-dir <dir>', 'dense: local copy of the transformers model the index was built with')
    .option('--nprobes <n>', 'dense: IVF partitions probed per query (default from the index manifest)', intOpt('nprobes', { min: 1 }))
    .option('--refine-factor <n>', 'dense: re-rank k·N PQ candidates with exact vectors (default from the manifest)', intOpt('refine-factor', { min: 1 }))
    .option('--ef <n>', 'dense: HNSW beam width per probed partition (ivf_hnsw_sq indexes; default from the manifest)', intOpt('ef', { min: 1 }))
    .option('--exact', 'dense: exact flat search even when an ANN index exists')
    .option('--dense-query-words <n>', DENSE_QUERY_WORDS_HELP, intOpt('dense-query-words', { min: 0 }));
}

export function denseSearchOptions(flags: DenseSearchFlags): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => v !== undefined && (o[k] = v);
  set('fusion', flags.fusion);
  set('methods', flags.hybridMethods);
  set('weights', flags.weights);
  set('rrfK', flags.rrfK);
  set('depth', flags.depth);
  set('embedder', flags.embedder);
  set('model', flags.model);
  set('modelDir', flags.modelDir);
  set('nprobes', flags.nprobes);
  set('refineFactor', flags.refineFactor);
  set('ef', flags.ef);
  if (flags.exact) o.exact = true;
  set('queryWords', flags.denseQueryWords);
  return o;
}
