/**
 * `lexcase run emar` after parsing (its flags: agents/emar/plugin.ts `cli`): EMAR's proponent/opponent
 * recursion with embedding convergence and a judge, over Bar Exam QA questions or LegalBench
 * hearsay examples, through the common experiment runner. The paper's benchmark (LFPBench, Chinese
 * civil cases) is not available, hence these datasets. Writes the run's report.md/json (common
 * format plus an EMAR section).
 */
import { join } from 'node:path';
import type { CliRunContext, CliRunResult } from '../../eval/cli-schema.js';
import type { LegalBenchFileRecord } from '../../corpora/legalbench.js';
import type { DatasetFileRecord } from '../../corpora/registry.js';
import type { Split } from '../../corpora/types.js';
import { parseSplit } from '../../corpora/split-spec.js';
import { errors } from '../../core/errors.js';
import { readRunUnderWay, runCountsText, runTokensText, runTokenTotal, runUncountedRequests } from '../../eval/run-counts.js';
import { runModelConfigFor } from '../../core/llm/resolved-llm.js';
import type { ConvergenceRule } from './convergence.js';
import type { EmarItem } from './experiment.js';
import { EMAR_DATASETS, EMAR_PAPER } from './paper.js';

/** The paper's sampling settings (paper.ts: EMAR, paper 004, "Baselines": temperature 0.1, top-p 0.9, max_tokens 2048). */
const PAPER = EMAR_PAPER;
const SAMPLING_KEYS = ['temperature', 'topP', 'maxTokens'];

interface EmarFlags {
  dataset: string;
  /** Undefined unless given: then the dataset's default split (DEFAULT_SPLIT). */
  split?: string;
  /** Bar Exam QA's split seed (hearsay: LegalBench's fixed split, none). */
  splitSeed: number;
  /** --dataset-file: Bar Exam QA's questions from this file instead of the bundled copy. */
  datasetFile?: string;
  limit?: number;
  seed: number;
  epsilon: number;
  maxDepth: number;
  convergence: ConvergenceRule;
  embedder: string;
  embedModel?: string;
  embedModelDir?: string;
  /** Undefined unless given: then llm.temperature, else the paper's. */
  temperature?: number;
  runDir?: string;
  concurrency: number;
  retryFailed?: boolean;
  offline?: boolean;
}

/**
 * The split a dataset runs on when --split is not given: Bar Exam QA's val (drawn with --split-seed,
 * as `run case`), hearsay's test, as `run acal` — LegalBench ships hearsay as train and test only, so
 * a shared "val" default made `run emar --dataset hearsay` fail on a split the user never asked for.
 */
export const DEFAULT_SPLIT: Record<(typeof EMAR_DATASETS)[number], Split> = { barexam: 'val', hearsay: 'test' };

/** The items of the split (`dev` / `validation` read as val, as everywhere: corpora/split-spec.ts); Bar Exam QA's split is drawn with --split-seed, hearsay's is LegalBench's own. */
async function loadItems(o: EmarFlags, split: Split): Promise<{ items: EmarItem[]; dataFiles?: Record<string, LegalBenchFileRecord | DatasetFileRecord> }> {
  let items: EmarItem[];
  let dataFiles: Record<string, LegalBenchFileRecord | DatasetFileRecord> | undefined;
  if (o.dataset === 'barexam') {
    const { datasetFileRecord, loadQuestions } = await import('../../corpora/registry.js');
    // the questions' file and its sha256, as CASE and MAD record theirs (eval/resume-items.ts checks it on resume)
    dataFiles = { [split]: await datasetFileRecord('barexam', split, { file: o.datasetFile }) };
    items = (await loadQuestions('barexam', split, { seed: o.splitSeed, file: o.datasetFile })).map((q) => ({ ...q, kind: 'question' as const }));
  } else if (o.dataset === 'hearsay') {
    if (o.datasetFile !== undefined)
      throw errors.usage(
        '--dataset-file reads Bar Exam QA questions; hearsay is read from LegalBench',
        'set LEXCASE_LEGALBENCH_DIR to a folder holding hearsay/ to read your copy',
      );
    // LegalBench ships hearsay as train (5) and test (94); there is no val split.
    if (split !== 'train' && split !== 'test')
      throw errors.usage(`--split for hearsay must be train or test (LegalBench has no val split), got "${o.split ?? split}"`);
    const { legalBenchFileRecord, loadLegalBenchTask } = await import('../../corpora/legalbench.js');
    // which copy was read ($LEXCASE_LEGALBENCH_DIR before the bundled one) and its sha256, for config.json
    dataFiles = { [split]: await legalBenchFileRecord('hearsay', { split }) };
    items = (await loadLegalBenchTask('hearsay', { split })).map((t) => ({ ...t, kind: 'task' as const }));
  } else throw errors.datasetUnknown(o.dataset, [...EMAR_DATASETS]);
  return { items: o.limit !== undefined ? items.slice(0, o.limit) : items, dataFiles };
}

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const o = ctx.flags as unknown as EmarFlags;
  if (o.offline) throw errors.usage('run emar needs an LLM; it has no offline path', 'drop --offline and configure an endpoint');
  if (o.limit !== undefined && o.limit < 1) throw errors.usage(`--limit must be a positive integer, got ${o.limit}`);
  if (!(o.epsilon > -1 && o.epsilon <= 1)) throw errors.usage(`--epsilon must be a cosine similarity in (-1, 1], got ${o.epsilon}`);
  if (!(o.maxDepth >= 1)) throw errors.usage(`--max-depth must be at least 1, got ${o.maxDepth}`);
  const split =
    o.split !== undefined ? parseSplit(o.split) : Object.hasOwn(DEFAULT_SPLIT, o.dataset) ? DEFAULT_SPLIT[o.dataset as keyof typeof DEFAULT_SPLIT] : 'val';
  if (o.dataset === 'hearsay' && ctx.given('split-seed'))
    throw errors.usage('--split-seed applies to barexam only: LegalBench hearsay has its own fixed train/test split', 'drop --split-seed');
  const { items, dataFiles } = await loadItems(o, split);
  // the paper's sampling where neither --temperature nor the config file or environment sets a value (docs/llm.md)
  const temperatureGiven = ctx.given('temperature');
  const llm = await ctx.resolveLlm({ paper: 'emar', sampling: temperatureGiven ? { temperature: o.temperature } : {}, samplingFlags: ['temperature'] });
  const { config, usage } = llm;
  const [{ runEmarExperiment }, { createEmbedder, parseEmbedderSpec }, { datasetRunLabel }] = await Promise.all([
    import('./experiment.js'),
    import('../../retrieval/embedder.js'),
    import('../../corpora/registry.js'),
  ]);
  const llmCfg = config.llm;
  const fromPaper = llm.paperDefaults?.fromPaper ?? [];
  const givenBy = (k: string) => (k === 'temperature' && temperatureGiven ? '--temperature' : llm.replayFrom ? 'the replayed run' : `llm.${k}`);
  const model = llm.makeModel(llmCfg);

  const embedder = await createEmbedder(parseEmbedderSpec(o.embedder, { model: o.embedModel, modelDir: o.embedModelDir }));
  const runDir = o.runDir ?? join('runs', `emar-${datasetRunLabel(o.dataset, o.datasetFile)}-${split}-s${o.seed}`);
  try {
    const {
      run,
      summary,
      markdown: md,
    } = await runEmarExperiment({
      runDir,
      dataset: o.dataset,
      split,
      ...(o.dataset === 'barexam' ? { splitSeed: o.splitSeed } : {}),
      limit: o.limit,
      items,
      ...(dataFiles ? { dataFiles } : {}),
      model,
      embedder,
      epsilon: o.epsilon,
      maxDepth: o.maxDepth,
      convergence: o.convergence,
      seed: o.seed,
      usage,
      concurrency: o.concurrency,
      retryFailed: o.retryFailed,
      modelConfig: runModelConfigFor(llm, llmCfg),
      llm: {
        model: config.llm.model,
        temperature: llmCfg.temperature,
        topP: llmCfg.topP,
        maxTokens: llmCfg.maxTokens,
        ...(llm.local ? { local: llm.local } : {}),
      },
      sampling: {
        fromPaper,
        given: SAMPLING_KEYS.filter((k) => !fromPaper.includes(k)).map((k) => `${k} (${givenBy(k)})`),
        source: PAPER.source,
      },
    });
    // the requests of items under way at an interrupt (config.json `interrupts`): in no results.jsonl line, said on the counts line
    const underWay = await readRunUnderWay(runDir);
    return {
      json: {
        runDir,
        ran: run.ran,
        skipped: run.skipped,
        keptFailed: run.keptFailed,
        runTokens: runTokenTotal(run.results),
        tokens: usage.snapshot(),
        requests: runUncountedRequests(run.results, underWay),
        // this call's failed items, as every run summary counts them (ran, skipped, failed: this call's); the
        // whole run's figures, its failed items among them, under metrics (as `run mad --json`). Before, the
        // summary's fields were spread here and its run-wide `failed` replaced this call's: a resume that ran
        // nothing read "ran 0, skipped 8, failed 6" in --json where the text said "failed 0"
        failed: run.failed,
        metrics: summary,
      },
      human: () => `${md}\n\nrun dir: ${runDir}: ${runCountsText(run)}; ${runTokensText(run.results, usage.snapshot().total, underWay)}`,
      runDirs: [runDir],
    };
  } finally {
    await embedder.close?.();
  }
}
