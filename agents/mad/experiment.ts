/**
 * runMadExperiment: MAD or one of its baselines over a dataset split on the experiment runner
 * (results.jsonl + traces/<id>.json, resume), then the MAD metrics written next to the results as
 * mad-metrics.json / mad-metrics.md. runMadSeeds repeats a run for several seeds (one run dir per
 * seed) and adds consistency across seeds (consistency.json). `lexcase run mad` is these functions.
 */
import { join, resolve } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { datasetFileRecord, datasetRunLabel, loadQuestionsLimited } from '../../corpora/registry.js';
import type { Question, Split } from '../../corpora/types.js';
import { writeAtomic, writeJsonAtomic } from '../../eval/run-dir.js';
import { contextFrom, runExperiment, type RunProgress } from '../../eval/runner.js';
import { writeReport } from '../../eval/report/write-report.js';
import { createRetrievalTools, type ToolMethod } from '../../retrieval/tools/index.js';
import { PRINTED_SEARCH_RANKING, searchScoreDigits } from '../../retrieval/top-k.js';
import { denseQueryWordLimit } from '../../retrieval/dense-query.js';
import { denseQuerySource } from '../../retrieval/dense-query-source.js';
import { errors } from '../../core/errors.js';
import { checkSearchToolK } from '../../retrieval/tools/search-tool.js';
import { log } from '../../core/log.js';
import { UsageMeter, type TokenUsage } from '../../core/llm/usage.js';
import { modelRecordOf } from '../../core/llm/model-record.js';
import type { ResultRecord } from '../../eval/types.js';
import { indexContent, openCaseIndex } from '../../retrieval/open-index.js';
import { createMadSystem, MAD_SYSTEMS, type MadSystemName } from './system.js';
import { requestFingerprint } from '../../eval/request-fingerprint.js';
import { madRequests } from './requests.js';
import { madSettings } from './debate.js';
import { llmSeedIgnored, REQUEST_SEEDS } from './llm-call.js';
import { hybridTuningOverlapConfig } from '../../eval/hybrid-tuning-overlap.js';
import {
  checkSeeds,
  madMetrics,
  madMetricsMarkdown,
  predictionsOf,
  seedConsistency,
  seedConsistencyMarkdown,
  type MadMetrics,
  type SeedConsistency,
} from './metrics.js';
import type { MadSettings } from './types.js';
import { warnGoldMissing, withGoldInIndex } from '../common/gold-in-index.js';
import { OPTION_LETTER_READING } from '../common/option-letter.js';
import { PASSAGE_HANDLE_READING } from '../common/passage-handle-reading.js';

export interface MadExperimentOptions extends Partial<MadSettings> {
  system?: MadSystemName;
  /** Self-consistency samples. */
  samples?: number;
  /** Validity warnings (degenerate settings), recorded in config.json. */
  warnings?: string[];
  dataset: string;
  split: Split;
  splitSeed?: number;
  /** Read the dataset's questions from this file (the bundled copy's format) instead of the bundled copy (`--dataset-file`). */
  datasetFile?: string;
  index: string;
  llm?: BaseChatModel;
  /** Public (redacted) model settings for config.json. */
  model?: Record<string, unknown>;
  usage?: UsageMeter;
  seed?: number;
  limit?: number;
  concurrency?: number;
  /** On resume, run again the items that failed before (default true; --no-retry-failed). */
  retryFailed?: boolean;
  runDir?: string;
  onProgress?: (p: RunProgress) => void;
  signal?: AbortSignal;
}

export interface MadExperimentResult {
  runDir: string;
  ran: number;
  skipped: number;
  /** Of `skipped`, the earlier failures kept as failed (--no-retry-failed). */
  keptFailed: number;
  failed: number;
  metrics: MadMetrics;
  markdown: string;
  predictions: Map<string, string | null>;
  /** Every record in results.jsonl after this call (the whole run's tokens are summed from them). */
  results: ResultRecord[];
  /** The tokens this call spent on this run (0 after a full resume). */
  tokens: TokenUsage;
}

export function madRunName(o: Pick<MadExperimentOptions, 'system' | 'samples' | 'dataset' | 'datasetFile' | 'split' | 'seed'> & MadSettings): string {
  const sys = o.system ?? 'mad';
  const what =
    sys === 'mad'
      ? `mad-${o.topology}-r${o.rounds}${o.crossExaminer ? '-x' : ''}${o.judgeEachRound ? '-je' : ''}`
      : sys === 'self-consistency'
        ? `mad-sc${o.samples ?? 5}`
        : 'mad-single-rag';
  return `${what}-${datasetRunLabel(o.dataset, o.datasetFile)}-${o.split}-${o.method}-k${o.k}-s${o.seed ?? 13}`;
}

export async function runMadExperiment(o: MadExperimentOptions): Promise<MadExperimentResult> {
  const system = o.system ?? 'mad';
  if (!MAD_SYSTEMS.includes(system)) throw errors.invalidInput('system', `"${system}"; expected one of ${MAD_SYSTEMS.join(', ')}`);
  const s = madSettings(o);
  // the pool searches k passages a query through the retrieval tool: over its most, every item failed
  checkSearchToolK(s.k);
  const seed = o.seed ?? 13;
  if (!o.llm) throw errors.llmNotConfigured();
  const questions: Question[] = await loadQuestionsLimited(o.dataset, o.split, { seed: o.splitSeed, limit: o.limit, file: o.datasetFile });
  const idx = await openCaseIndex(o.index);
  try {
    if (!idx.retrievers[s.method]) throw errors.methodUnavailable(s.method, o.index, Object.keys(idx.retrievers));
    // one shared retriever, through the retrieval tools
    const tools = createRetrievalTools({
      retrievers: { [s.method]: idx.retrievers[s.method] } as Partial<Record<ToolMethod, never>>,
      docs: idx.docs,
      defaultK: s.k,
    });
    const runDir = o.runDir ?? join('runs', madRunName({ ...o, ...s, system, seed }));
    // a library call given `llm` alone: the settings createChatModel made it with, as the command records its own
    const model = o.model ?? modelRecordOf(o.llm);
    const seedWarning = llmSeedIgnored(model, seed);
    if (seedWarning) log.warn(seedWarning);
    const warnings = [...(o.warnings ?? []), ...(seedWarning ? [seedWarning] : [])];
    const config: Record<string, unknown> = {
      system: `mad/${system}`,
      ...(system === 'mad' ? { rounds: s.rounds, topology: s.topology, crossExaminer: s.crossExaminer, judgeEachRound: s.judgeEachRound } : {}),
      ...(system === 'self-consistency' ? { samples: o.samples ?? 5 } : {}),
      k: s.k,
      method: s.method,
      // how its searches cut the top k: as `lexcase search -k` prints it (an older lexcase: index order at a tie; resume-unrecorded.ts warns)
      searchRanking: PRINTED_SEARCH_RANKING,
      // and the digits it reads a hybrid's fused scores with there (--method hybrid: 10; an older lexcase: 6 decimals; resume-unrecorded.ts warns)
      ...searchScoreDigits({ [s.method]: idx.retrievers[s.method] }),
      // the word limit its dense queries are embedded in pieces of, where the index sets it (an older lexcase: 64-word pieces, cut; resume-unrecorded.ts warns)
      ...denseQueryWordLimit({ [s.method]: idx.retrievers[s.method] }),
      // queries embedded by another endpoint or model folder than the index's passages: report.md says it
      ...denseQuerySource({ [s.method]: idx.retrievers[s.method] }),
      passageChars: s.passageChars,
      dataset: o.dataset,
      split: o.split,
      splitSeed: o.splitSeed ?? 13,
      limit: o.limit ?? null,
      // the questions' file and its sha256, as LegalBench runs record theirs (eval/resume-items.ts checks it on resume)
      dataFiles: { [o.split]: await datasetFileRecord(o.dataset, o.split, { file: o.datasetFile }) },
      index: resolve(o.index),
      indexContent: indexContent(idx.manifest),
      model: model ?? null,
      // what the roles send that decides the results: their prompts, reply schemas and tools (requests.ts)
      prompts: requestFingerprint(madRequests(system, { passageChars: s.passageChars, tools })),
      requestSeeds: REQUEST_SEEDS,
      // how a verdict, an answer or a cross-examined letter is read: "b", "(B)", "B. <text>" taken, "(A) or (D)" refused
      // (an older lexcase read a hedged reply as its first letter; resume-unrecorded.ts warns)
      optionLetterReading: OPTION_LETTER_READING,
      // how a cited handle is read: "(P3)", "P3.", "Passage 3" taken (an older lexcase: "P3", "[P3]" only; resume-unrecorded.ts warns)
      passageHandleReading: PASSAGE_HANDLE_READING,
      ...(warnings.length ? { warnings } : {}),
      // --method hybrid (its defaults) over questions its settings were tuned on (Bar Exam QA train, split seed 13)
      ...(await hybridTuningOverlapConfig(idx.retrievers, [s.method], questions)),
    };
    // this run's own meter (a fork reaches o.usage too): with --seeds each run reports its own tokens
    const meter = o.usage ? o.usage.fork() : new UsageMeter();
    warnGoldMissing(idx.docs, questions, o.index, idx.manifest.corpus.name);
    const r = await runExperiment({
      lexcaseSystem: 'mad',
      runDir,
      system: withGoldInIndex(createMadSystem(system, { ...s, samples: o.samples }), idx.docs),
      items: questions,
      gold: (q) => q.answer,
      makeContext: contextFrom({ tools, retrievers: idx.retrievers, llm: o.llm, getPassage: idx.getPassage }),
      config,
      seed,
      usage: meter,
      concurrency: o.concurrency,
      retryFailed: o.retryFailed,
      onProgress: o.onProgress,
      signal: o.signal,
      label: system,
      // report.md / report.json from the run dir's whole results, before the run dir is unlocked, as every
      // other system's run writes them: before, `run mad` wrote none, so a report.md `lexcase report` had
      // written stayed as it was after a resume that added items (n = 2 read beside 5 items in results.jsonl)
      whileLocked: async () => {
        await writeReport(runDir);
      },
    });
    const metrics = madMetrics(r.results, seed);
    const markdown = madMetricsMarkdown(
      metrics,
      `${system === 'mad' ? `MAD (${s.topology}, ${s.rounds} round${s.rounds > 1 ? 's' : ''}${s.crossExaminer ? ', cross-examiner' : ''})` : system} — ${o.dataset} ${o.split}`,
      { crossExaminer: system === 'mad' && s.crossExaminer },
    );
    await writeAtomic(join(runDir, 'mad-metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
    await writeAtomic(join(runDir, 'mad-metrics.md'), markdown + '\n');
    return {
      runDir,
      ran: r.ran,
      skipped: r.skipped,
      keptFailed: r.keptFailed,
      failed: r.failed,
      metrics,
      markdown,
      predictions: predictionsOf(r.results),
      results: r.results,
      tokens: meter.snapshot(),
    };
  } finally {
    await idx.docs.close?.();
  }
}

export interface MadSeedsResult {
  runs: MadExperimentResult[];
  consistency: SeedConsistency;
  markdown: string;
}

/** The same run for each seed (run dirs <base>-s<seed>), plus consistency across seeds (written into each run dir). */
export async function runMadSeeds(o: MadExperimentOptions, seeds: number[]): Promise<MadSeedsResult> {
  checkSeeds(seeds);
  const runs: MadExperimentResult[] = [];
  for (const seed of seeds) runs.push(await runMadExperiment({ ...o, seed, runDir: o.runDir ? `${o.runDir}-s${seed}` : undefined }));
  const consistency = seedConsistency(runs.map((r) => r.predictions));
  const payload = { seeds, runDirs: runs.map((r) => r.runDir), ...consistency };
  for (const r of runs) await writeJsonAtomic(join(r.runDir, 'consistency.json'), payload);
  // each seed run's report again, now that consistency.json is there: written under its run's lock
  // before it existed, report.md had no "Consistency across seeds" line (or, on a resume, last call's)
  for (const r of runs) await writeReport(r.runDir);
  return { runs, consistency, markdown: seedConsistencyMarkdown(consistency) };
}
