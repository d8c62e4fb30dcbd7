/** `lexcase index build` flags for the dense index (added by src/cli/commands/index-cmd.ts). */
import type { Command } from 'commander';
import { intOpt } from './numeric-options.js';
import { errors } from '../../core/errors.js';
import { parseEmbedderSpec } from '../../indexer/embed/create-embedder.js';
import type { AddDenseOptions } from '../../indexer/dense/add-dense.js';
import { PREBUILT_DENSE_SPEC } from '../../indexer/dense/prebuilt-spec.js';
import { ANN_TYPES, type AnnParams, type AnnType } from '../../indexer/dense/ann-params.js';

export interface DenseBuildFlags {
  embedder?: string;
  model?: string;
  modelDir?: string;
  denseUri?: string;
  denseTable?: string;
  embedBatch?: number | string;
  embedTimeout?: number | string;
  maxWords?: number | string;
  annThreshold?: number | string;
  annType?: string;
  annPartitions?: number | string;
}

export function addDenseBuildOptions(cmd: Command): Command {
  return cmd
    .option(
      '--embedder <name>',
      'dense: use-lite (bundled, offline; default) | transformers (needs the optional package @xenova/transformers; default model Xenova/bge-small-en-v1.5) | openai (any OpenAI-compatible endpoint: LEXCASE_EMBED_BASE_URL / _MODEL / _API_KEY)',
    )
    .option('--model <id>', 'dense: embedding model id (transformers: hub id; openai: model name)')
    .option('--model-dir <dir>', 'dense: local copy of a transformers model (config.json, tokenizer.json, onnx/model.onnx); implies offline')
    .option('--dense-uri <uri>', 'dense: LanceDB location (default <out>/dense; an absolute path or s3://bucket/prefix also work)')
    .option(
      '--dense-table <name>',
      "dense: LanceDB table name (default passages inside the index dir, passages-<owner> at a --dense-uri outside it; never another index's table)",
    )
    .option(
      '--embed-timeout <s>',
      'dense, openai embedder: seconds one embedding request may take (headers and body) before it is retried (default 120, or LEXCASE_EMBED_TIMEOUT_MS)',
      intOpt('embed-timeout', { min: 1 }),
    )
    .option('--embed-batch <n>', 'dense: passages per embed+append batch, the resume granularity (default 256)', intOpt('embed-batch', { min: 1 }))
    .option(
      '--max-words <n>',
      `dense: truncate passages to N words before embedding (use-lite default 256; without an embedder flag a bundled corpus with shipped vectors loads those, made with use-lite and ${PREBUILT_DENSE_SPEC.maxWords} words, instead of embedding)`,
      intOpt('max-words', { min: 1 }),
    )
    .option(
      '--ann-threshold <n>',
      'dense: build the ANN index (--ann-type) at or above N vectors, flat exact search below (default 50000)',
      intOpt('ann-threshold', { min: 0 }),
    )
    .option('--ann-type <type>', 'dense: ANN index type, ivf_flat (default; exact distances in the probed partitions) | ivf_hnsw_sq | ivf_pq')
    .option('--ann-partitions <n>', 'dense: IVF partitions (default ≈ √N)', intOpt('ann-partitions', { min: 1 }));
}

const int = (name: string, v?: number | string) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw errors.invalidInput(`--${name}`, `expected a non-negative integer, got "${v}"`);
  return n;
};

/** The flags that only the dense method reads. */
const DENSE_FLAGS: readonly (keyof DenseBuildFlags)[] = [
  'embedder',
  'model',
  'modelDir',
  'denseUri',
  'denseTable',
  'embedBatch',
  'embedTimeout',
  'maxWords',
  'annThreshold',
  'annType',
  'annPartitions',
];

/**
 * True when the user set any dense flag (so `dense` should be among the methods, and a rebuild
 * embeds with the flags given, not with the settings the index recorded). Before, only --embedder and
 * --model-dir counted: a rebuild given --max-words 8 or --ann-threshold 2 re-embedded "as before"
 * and a fresh build without --methods dense ignored them, exit 0.
 */
export function wantsDense(flags: DenseBuildFlags): boolean {
  return DENSE_FLAGS.some((k) => flags[k] !== undefined);
}

export function denseBuildOptions(flags: DenseBuildFlags): AddDenseOptions {
  const provider = flags.embedder ?? (flags.modelDir ? 'transformers' : 'use-lite');
  const spec = parseEmbedderSpec(provider, {
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.modelDir ? { modelDir: flags.modelDir } : {}),
    ...(flags.maxWords !== undefined ? { maxWords: int('max-words', flags.maxWords) } : {}),
  });
  if (flags.embedTimeout !== undefined) {
    if (spec.provider !== 'openai')
      throw errors.usage(`--embed-timeout is for the openai embedder (it bounds each request to the endpoint); ${spec.provider} runs locally`);
    spec.timeoutMs = int('embed-timeout', flags.embedTimeout)! * 1000;
  }
  const ann: Partial<AnnParams> = {};
  if (flags.annType !== undefined) {
    if (!(ANN_TYPES as readonly string[]).includes(flags.annType))
      throw errors.invalidInput('--ann-type', `expected one of ${ANN_TYPES.join(', ')}, got "${flags.annType}"`);
    ann.type = flags.annType as AnnType;
  }
  if (flags.annPartitions !== undefined) ann.numPartitions = int('ann-partitions', flags.annPartitions);
  return {
    embedder: spec,
    ...(Object.keys(ann).length ? { ann } : {}),
    ...(flags.denseUri ? { uri: flags.denseUri } : {}),
    ...(flags.denseTable ? { table: flags.denseTable } : {}),
    ...(flags.embedBatch !== undefined ? { batchSize: int('embed-batch', flags.embedBatch) } : {}),
    ...(flags.annThreshold !== undefined ? { annThreshold: int('ann-threshold', flags.annThreshold) } : {}),
  };
}
