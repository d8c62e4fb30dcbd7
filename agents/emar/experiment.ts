/**
 * An EMAR experiment: Bar Exam QA questions or LegalBench hearsay examples through the EMAR system
 * (proponent/opponent recursion to convergence, judge) with the common runner, then
 * report.md/json with the EMAR section. `lexcase run emar` loads the items, parses flags and
 * calls this.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { LegalBenchFileRecord } from '../../corpora/legalbench.js';
import type { DatasetFileRecord } from '../../corpora/registry.js';
import type { Question, TaskExample } from '../../corpora/types.js';
import { writeReport } from '../../eval/report/write-report.js';
import { RESAMPLES, SEED } from '../../eval/stats/index.js';
import { contextFrom, runExperiment, type RunExperimentResult } from '../../eval/runner.js';
import type { AgentSystem } from '../../eval/types.js';
import type { UsageMeter } from '../../core/llm/usage.js';
import { itemLabels, letterToLabel, questionToCase, TASK_FRAMINGS, taskExampleToCase } from './cases.js';
import type { ConvergenceRule } from './convergence.js';
import { emarSummaryMarkdown, summarizeEmarRun } from './metrics.js';
import { createEmarSystem } from './system.js';
import { requestFingerprint } from '../../eval/request-fingerprint.js';
import { emarRequests } from './requests.js';
import { OPTION_LETTER_READING } from '../common/option-letter.js';
import type { ClaimEmbedder } from './types.js';

/** A Bar Exam QA question or a LegalBench hearsay example. */
export type EmarItem = (Question & { kind: 'question' }) | (TaskExample & { kind: 'task' });

export interface EmarExperimentOptions {
  runDir: string;
  dataset: string;
  split: string;
  /** Bar Exam QA's split seed, recorded in config.json (hearsay: LegalBench's fixed split, none). */
  splitSeed?: number;
  limit?: number;
  items: EmarItem[];
  model: BaseChatModel;
  embedder: ClaimEmbedder;
  epsilon: number;
  maxDepth: number;
  convergence: ConvergenceRule;
  seed: number;
  usage?: UsageMeter;
  concurrency?: number;
  /** On resume, run failed items again (default true). */
  retryFailed?: boolean;
  /** Recorded in config.json as `model`: the public (redacted) LLM settings the model is made with (resolved-llm.ts `runModelConfigFor`); without it, the model id. */
  modelConfig?: Record<string, unknown>;
  /** Recorded in config.json: model id and sampling. */
  llm: { model?: string; temperature?: number; topP?: number; maxTokens?: number; local?: Record<string, unknown> };
  /** Recorded in config.json: which sampling settings are the paper's, which were given, and the paper's source. */
  sampling?: { fromPaper: string[]; given: string[]; source: string };
  /**
   * Recorded in config.json: the files the items were read from, by split: hearsay's LegalBench file
   * (corpora/legalbench.ts legalBenchFileRecord), Bar Exam QA's (corpora/registry.ts datasetFileRecord).
   */
  dataFiles?: Record<string, LegalBenchFileRecord | DatasetFileRecord>;
}

export async function runEmarExperiment(
  o: EmarExperimentOptions,
): Promise<{ run: RunExperimentResult; summary: ReturnType<typeof summarizeEmarRun>; markdown: string }> {
  const framing = TASK_FRAMINGS.hearsay;
  const system = createEmarSystem<EmarItem>({
    embedder: o.embedder,
    epsilon: o.epsilon,
    maxDepth: o.maxDepth,
    convergence: o.convergence,
    toCase: (it) => (it.kind === 'question' ? questionToCase(it) : taskExampleToCase(it, framing)),
    toPrediction: (letter, it) => (it.kind === 'question' ? letter : letterToLabel(letter, framing)),
  }) as AgentSystem<EmarItem>;
  // macro-F1's label set: the options the items have (a question file with five options adds E), recorded so report.md, `lexcase report` and the explorer average over it
  const labels = itemLabels(o.items, framing);
  const run = await runExperiment({
    lexcaseSystem: 'emar',
    runDir: o.runDir,
    system,
    items: o.items,
    gold: (it) => (it.kind === 'question' ? it.answer : it.label),
    makeContext: contextFrom({ llm: o.model }),
    config: {
      system: 'emar',
      dataset: o.dataset,
      split: o.split,
      ...(o.splitSeed !== undefined ? { splitSeed: o.splitSeed } : {}),
      limit: o.limit ?? null,
      labels,
      ...(o.dataFiles ? { dataFiles: o.dataFiles } : {}),
      model: o.modelConfig ?? o.llm.model,
      temperature: o.llm.temperature,
      topP: o.llm.topP,
      maxTokens: o.llm.maxTokens,
      ...(o.llm.local ? { local: o.llm.local } : {}),
      ...(o.sampling ? { sampling: o.sampling } : {}),
      epsilon: o.epsilon,
      maxDepth: o.maxDepth,
      convergence: o.convergence,
      embedder: o.embedder.id,
      // what the roles send that decides the results: their prompts and reply schemas (requests.ts)
      prompts: requestFingerprint(emarRequests()),
      // how a party's or the judge's answer is read: "b", "(B)", "B. <text>" taken, "(A) or (D)" refused
      // (an older lexcase read a hedged reply as its first letter; resume-unrecorded.ts warns)
      optionLetterReading: OPTION_LETTER_READING,
    },
    seed: o.seed,
    usage: o.usage,
    concurrency: o.concurrency,
    retryFailed: o.retryFailed,
    label: `emar ${o.dataset}`,
    // report.md / report.json in the common format, with the EMAR section (report-section.ts), before the run dir is unlocked
    whileLocked: async () => {
      await writeReport(o.runDir);
    },
  });
  // the statistics module's bootstrap seed and resamples, not the run's seed: the macro-F1 interval this
  // summary prints is the one report.md, `lexcase report`, the explorer and /v1 compute (eval/stats/settings.ts)
  const summary = summarizeEmarRun(run.results, { labels, seed: SEED, iterations: RESAMPLES });
  return { run, summary, markdown: emarSummaryMarkdown(`${o.dataset}/${o.split}`, summary, { limit: o.limit }) };
}
