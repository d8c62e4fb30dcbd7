/**
 * The run options every dataset-split command shares (eval/cli-schema.ts RUN_OPTIONS: --dataset,
 * --split, --split-seed, --dataset-file, --index, -k, --seed, --limit, --run-dir, --concurrency, --no-retry-failed)
 * as parsed, and the part of an experiment's options they make — the same for `run case`,
 * `run baseline` and `run mad` (agents/<x>/cli-run.ts), written once.
 */
import { runModelConfig, type ResolvedLlm } from '../../core/llm/resolved-llm.js';
import { log } from '../../core/log.js';

/** The shared run options as parsed. */
export interface RunOptionFlags {
  dataset: string;
  split: string;
  splitSeed: number;
  /** --dataset-file: the questions read from this file instead of the bundled copy. */
  datasetFile?: string;
  index?: string;
  k: number;
  seed: number;
  limit?: number;
  runDir?: string;
  concurrency: number;
  /** --no-retry-failed sets retryFailed=false. */
  retryFailed?: boolean;
  offline?: boolean;
}

/** The experiment options the shared flags and the resolved LLM give; without --index the bundled default index (built if absent). */
export async function runOptions(flags: RunOptionFlags, llm: ResolvedLlm) {
  const { ensureDefaultIndex } = await import('../../retrieval/default-index.js');
  return { ...(await runOptionsWithoutIndex(flags, llm)), index: flags.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l))) };
}

/**
 * The same for a run that searches no index (`run baseline --mode llm-only`): none is built, opened
 * or recorded, and a given --index is not read.
 */
export async function runOptionsWithoutIndex(flags: RunOptionFlags, llm: ResolvedLlm) {
  const { parseSplit } = await import('../../corpora/splits.js');
  return {
    dataset: flags.dataset,
    split: parseSplit(flags.split),
    splitSeed: flags.splitSeed,
    ...(flags.datasetFile !== undefined ? { datasetFile: flags.datasetFile } : {}),
    llm: llm.model,
    model: runModelConfig(llm),
    usage: llm.usage,
    k: flags.k,
    seed: flags.seed,
    limit: flags.limit,
    concurrency: flags.concurrency,
    retryFailed: flags.retryFailed,
    runDir: flags.runDir,
  };
}
