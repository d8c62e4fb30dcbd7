/**
 * runCaseExperiment: a CASE or baseline run over a dataset split on the experiment runner
 * (eval/runner.ts: results.jsonl + traces/<id>.json, resume), followed by the CASE metrics
 * (accuracy with CI, confidence strata, evidence recall, tool usage, tokens) and the run's
 * report.md / report.json (eval/report, including the CASE section). `lexcase run case|baseline` is this function.
 */
import { join, resolve } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { datasetsWithGold } from '../../corpora/catalog.js';
import { datasetFileRecord, datasetRunLabel, loadQuestionsLimited } from '../../corpora/registry.js';
import type { Question, Split } from '../../corpora/types.js';
import { writeReport } from '../../eval/report/write-report.js';
import { SEED } from '../../eval/stats/settings.js';
import { traceSchemaFor } from '../../eval/records.js';
import { readTraceFor } from '../../eval/run-dir.js';
import './trace-schema.js';
import { requestFingerprint } from '../../eval/request-fingerprint.js';
import { hybridTuningOverlapConfig } from '../../eval/hybrid-tuning-overlap.js';
import { contextFrom, runExperiment, type RunProgress } from '../../eval/runner.js';
import type { AgentSystem, ResultRecord } from '../../eval/types.js';
import { errors } from '../../core/errors.js';
import type { UsageMeter } from '../../core/llm/usage.js';
import { modelRecordOf } from '../../core/llm/model-record.js';
import { BASELINE_MODES, type BaselineMode } from './baselines/baseline-modes.js';
import { isRewriteTool, OFFLINE_LABEL, offlineMethods } from './advocate-offline.js';
import { chooseSelector, createCaseOfflineSystem, learnedApplies, type EvidenceMode } from './case-offline-system.js';
import { withGoldGuard } from '../common/gold-guard.js';
import { warnGoldMissing, withGoldInIndex } from '../common/gold-in-index.js';
import { assertSelectorHeldOut, selectorRecord } from './selector-training.js';
import { readRunUnderWay } from '../../eval/run-counts.js';
import { caseMetrics, caseMetricsMarkdown, type CaseMetrics } from './metrics.js';
import { indexContent, openCaseIndex } from '../../retrieval/open-index.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';
import { METHODS } from '../../retrieval/methods.js';
import { PRINTED_RUN_RANKING, PRINTED_SEARCH_RANKING, searchScoreDigits } from '../../retrieval/top-k.js';
import { denseQueryWordLimit } from '../../retrieval/dense-query.js';
import { denseQuerySource } from '../../retrieval/dense-query-source.js';
import { HYPOTHESIS_MAPPING } from './map-hypotheses.js';
import { JURY_TIE_RULE } from './majority-vote.js';
import { AGENT_DEFAULTS, CASE_PROMPT_LIMITS, casePromptLimitsConfig } from '../common/defaults.js';
import { OPTION_LETTER_READING } from '../common/option-letter.js';
import { PASSAGE_HANDLE_READING } from '../common/passage-handle-reading.js';

export interface CaseExperimentOptions {
  system: 'case' | 'baseline';
  /** Baseline mode (system "baseline"). */
  mode?: BaselineMode;
  dataset: string;
  split: Split;
  splitSeed?: number;
  /** Read the dataset's questions from this file (the bundled copy's format) instead of the bundled copy (`--dataset-file`). */
  datasetFile?: string;
  /** The index searched; not read (nor needed) by the llm-only baseline, which retrieves nothing. */
  index?: string;
  /** CASE: the offline heuristic (no LLM). */
  offline?: boolean;
  llm?: BaseChatModel;
  /** Public (redacted) model settings for config.json. */
  model?: Record<string, unknown>;
  usage?: UsageMeter;
  tools?: string[];
  /** Offline evidence selection: the learned selector (default, where it applies) or the query plan. */
  evidence?: EvidenceMode;
  jurors?: number;
  k?: number;
  seed?: number;
  limit?: number;
  hypotheses?: 'direct' | 'exploratory';
  maxSteps?: number;
  maxTokens?: number;
  /** Validity warnings (degenerate settings), recorded in config.json. */
  warnings?: string[];
  concurrency?: number;
  /** On resume, run again the items that failed before (default true; --no-retry-failed). */
  retryFailed?: boolean;
  runDir?: string;
  onProgress?: (p: RunProgress) => void;
  signal?: AbortSignal;
}

export interface CaseExperimentResult {
  runDir: string;
  ran: number;
  skipped: number;
  /** Failed items from an earlier call run again by this one (resume). */
  retried?: number;
  /** Of `skipped`, the earlier failures kept as failed (--no-retry-failed). */
  keptFailed?: number;
  failed: number;
  metrics: CaseMetrics;
  markdown: string;
}

export { DEFAULT_INDEX_DIR, ensureDefaultIndex } from '../../retrieval/default-index.js';

/** The run dir for these settings; `k` is the resolved k (runCaseExperiment applies DEFAULT_K once). */
export function defaultRunDir(
  o: Pick<CaseExperimentOptions, 'system' | 'mode' | 'offline' | 'dataset' | 'datasetFile' | 'split' | 'seed' | 'hypotheses' | 'limit'> & { k: number },
): string {
  const what = o.system === 'case' ? `case-${o.offline ? 'offline' : 'llm'}${o.hypotheses === 'exploratory' ? '-exploratory' : ''}` : `baseline-${o.mode}`;
  const k = o.system === 'baseline' && o.mode === 'llm-only' ? '' : `-k${o.k}`;
  return join('runs', `${what}-${datasetRunLabel(o.dataset, o.datasetFile)}-${o.split}${k}-s${o.seed ?? 13}${o.limit !== undefined ? `-n${o.limit}` : ''}`);
}

export async function runCaseExperiment(o: CaseExperimentOptions): Promise<CaseExperimentResult> {
  // k's default, once for this route: the system, the tools, the run dir and config.json get this k.
  const k = o.k ?? DEFAULT_K;
  const seed = o.seed ?? 13;
  if (!Number.isInteger(k) || k < 1) throw errors.invalidInput('k', `must be a positive integer, got ${o.k}`);
  if (o.system === 'baseline') {
    if (!o.mode || !BASELINE_MODES.includes(o.mode)) throw errors.invalidInput('mode', `"${o.mode}"; expected one of ${BASELINE_MODES.join(', ')}`);
    if (o.offline) throw errors.usage('baselines need an LLM; --offline is only for `run case`');
  }
  const offline = o.system === 'case' && !!o.offline;
  if (!offline && !o.llm) throw errors.llmNotConfigured();
  const questions: Question[] = await loadQuestionsLimited(o.dataset, o.split, { seed: o.splitSeed, limit: o.limit, file: o.datasetFile });
  // The oracle's context is the gold passage(s): on a dataset without any (mmlu_pro_law) it ran as
  // llm-only under the oracle's name; refused, as `eval retrieval` refuses such a dataset.
  if (o.system === 'baseline' && o.mode === 'oracle' && !questions.some((q) => q.goldPassageIds.length > 0)) {
    throw errors.nothingToEvaluate(
      `--mode oracle puts each question's gold passage in the prompt, and dataset "${o.dataset}" has none: none of the ${questions.length} questions of split "${o.split}" names a gold passage id, so an oracle run would be llm-only under the oracle's name`,
      `datasets with gold passages: ${datasetsWithGold().join(', ')}; without gold passages, run --mode llm-only`,
    );
  }
  // llm-only retrieves nothing and shows no passage: no index is opened (nor the default one built), and
  // config.json records none (before, it opened the index and recorded it as if the run had searched it)
  const llmOnly = o.system === 'baseline' && o.mode === 'llm-only';
  if (!llmOnly && o.index === undefined)
    throw errors.invalidInput('index', `${o.system === 'case' ? 'CASE' : `the ${o.mode} baseline`} searches an index: give one`);
  const idx = llmOnly ? undefined : await openCaseIndex(o.index!);
  const retrievers = idx?.retrievers ?? {};
  try {
    // The LLM pipeline, its tools and the baselines (LangChain) are loaded only by the runs that use them:
    // `run case --offline` starts without them (tests/cli/run-offline-modules.test.ts).
    const baselines = o.system === 'baseline' ? await import('./baselines/baseline-system.js') : undefined;
    const llmCase = !offline && o.system === 'case' ? await import('./llm-case.js') : undefined;
    const rag = baselines?.ragMethod(o.mode!);
    if (rag && !retrievers[rag]) throw errors.methodUnavailable(rag, o.index!, Object.keys(retrievers));
    const tools = llmCase
      ? llmCase.createRetrievalTools({
          retrievers,
          docs: idx!.docs,
          llm: o.llm,
          defaultK: k,
          snippetChars: CASE_PROMPT_LIMITS.searchSnippetChars,
        })
      : [];
    // Fail before the run starts (not once per item) on settings the index or mode cannot serve.
    if (offline && o.hypotheses === 'exploratory')
      throw errors.usage('--hypotheses exploratory needs an LLM; the offline heuristic uses the options as hypotheses');
    // the learned selector on its own training questions (another split seed, --split train|all): refused
    await assertSelectorHeldOut({
      ...o,
      ...(o.datasetFile !== undefined
        ? {
            dataset: `${o.dataset} (${o.datasetFile})`,
            hint: 'pass --evidence plan (the query plan, trained on nothing), or leave those questions out of the file',
          }
        : {}),
      offline,
      retrievers,
      questions,
    });
    // the methods CASE's searches use: the offline advocates' (the learned selector's bm25 and qld are among them), else
    // those of its search tools (after --tools), by the registry's tool name of each method (retrieval/methods.ts)
    const toolNames = llmCase && !offline ? new Set(llmCase.selectTools(tools, o.tools).map((t) => t.name)) : undefined;
    // offline: a --tools name the index lacks (bm26, dense on a sparse index) is refused here, before the run (it ran the
    // others alone, config.json recording the list as given); rewrite is skipped with a warning (no LLM to rewrite with)
    // (said once, by the offline system at its first item: the tools it is given keep rewrite, as config.json records them)
    const searched = offline
      ? offlineMethods(
          retrievers,
          o.tools?.filter((t) => !isRewriteTool(t)),
        )
      : METHODS.filter((m) => m.agents && toolNames?.has(m.agents.tool)).map((m) => m.name);
    const system: AgentSystem<Question> = offline
      ? withGoldGuard(createCaseOfflineSystem({ k, tools: o.tools, evidence: o.evidence }))
      : llmCase
        ? llmCase.createCase({
            offline,
            k,
            jurors: o.jurors,
            hypotheses: o.hypotheses,
            tools: o.tools,
            maxSteps: o.maxSteps,
            maxTokens: o.maxTokens,
            evidence: o.evidence,
          })
        : baselines!.createBaseline(o.mode!, { k });
    const runDir = o.runDir ?? defaultRunDir({ ...o, k, seed });
    // what the roles send that decides the results: their prompts, reply schemas and tools (requests.ts; the offline CASE sends nothing)
    const requests = offline ? undefined : await import('./requests.js');
    const prompts = requests
      ? requestFingerprint(o.system === 'case' ? requests.caseRequests({ k, tools, hypotheses: o.hypotheses ?? 'direct' }) : requests.baselineRequests(o.mode!))
      : undefined;
    const config: Record<string, unknown> = {
      // the one naming scheme: a baseline is a variant (`baseline/<mode>`; runs before it recorded `baseline`), `mode` kept for readers
      system: o.system === 'case' ? 'case' : `baseline/${o.mode}`,
      ...(o.system === 'case'
        ? {
            mode: offline ? OFFLINE_LABEL : 'llm',
            hypotheses: o.hypotheses ?? 'direct',
            // exploratory hypotheses → options: a tie maps to none (an older lexcase gave it the lowest letter; resume-unrecorded.ts refuses its run dirs)
            ...(!offline && o.hypotheses === 'exploratory' ? { hypothesisMapping: HYPOTHESIS_MAPPING } : {}),
            jurors: offline ? 0 : (o.jurors ?? AGENT_DEFAULTS.jurors),
            // how a tied jury vote is decided: evidence scores at 10 significant digits, then a seeded draw
            // (an older lexcase compared the float sums exactly; resume-unrecorded.ts warns)
            ...(offline ? {} : { juryTieRule: JURY_TIE_RULE }),
            tools: o.tools ?? 'all',
            // the offline advocates fuse each retriever's printed run (an older lexcase: its internal tie order; resume-unrecorded.ts refuses its run dirs)
            // the evidence selection that runs: the learned selector only where it applies (no --tools, bm25 and qld in the
            // index), else the query plan (an older lexcase recorded "learned" there; resume-unrecorded.ts takes its word back)
            // and, where the learned selector runs, which fit (features, training split, weights digest): another fit
            // refuses the resume, a run dir an older lexcase wrote (none recorded) resumes with a warning (resume-unrecorded.ts)
            ...(offline
              ? learnedApplies({ evidence: o.evidence }, o.tools, retrievers)
                ? {
                    evidence: 'learned',
                    selector: selectorRecord(chooseSelector(undefined, retrievers, idx!.getPassage).model),
                    componentRanking: PRINTED_RUN_RANKING,
                  }
                : { evidence: 'plan', componentRanking: PRINTED_RUN_RANKING }
              : {}),
            maxSteps: o.maxSteps ?? AGENT_DEFAULTS.maxSteps,
            maxTokens: o.maxTokens ?? AGENT_DEFAULTS.maxTokens,
            // how much of each passage, note and candidate the prompts show (the offline heuristic has no prompts)
            ...(offline ? {} : casePromptLimitsConfig()),
          }
        : { mode: o.mode, ...(o.mode === 'llm-only' ? {} : { passageChars: CASE_PROMPT_LIMITS.baselinePassageChars }) }),
      // how its searches (search tools, RAG context, the IR solver's pool) cut the top k: as `lexcase search -k` prints it
      // (an older lexcase kept the retriever's index order at a tie; resume-unrecorded.ts warns)
      // and the digits it reads a hybrid's fused scores with there (CASE: the methods its tools or offline advocates search,
      // so a hybrid left out by --tools records none; a RAG baseline: its own)
      ...(o.system === 'case' || rag
        ? {
            searchRanking: PRINTED_SEARCH_RANKING,
            ...searchScoreDigits(rag ? { [rag]: retrievers[rag] } : Object.fromEntries(searched.map((m) => [m, retrievers[m]]))),
            // the word limit its dense queries are embedded in pieces of, where the index sets it (resume-unrecorded.ts warns on an older dir)
            ...denseQueryWordLimit(rag ? { [rag]: retrievers[rag] } : Object.fromEntries(searched.map((m) => [m, retrievers[m]]))),
            // queries embedded by another endpoint or model folder than the index's passages: report.md says it
            ...denseQuerySource(rag ? { [rag]: retrievers[rag] } : Object.fromEntries(searched.map((m) => [m, retrievers[m]]))),
          }
        : {}),
      k: o.system === 'baseline' && o.mode === 'llm-only' ? 0 : k,
      dataset: o.dataset,
      split: o.split,
      splitSeed: o.splitSeed ?? 13,
      limit: o.limit ?? null,
      // the questions' file and its sha256, as LegalBench runs record theirs (eval/resume-items.ts checks it on resume)
      dataFiles: { [o.split]: await datasetFileRecord(o.dataset, o.split, { file: o.datasetFile }) },
      // the index searched, where one is (llm-only: none)
      ...(idx ? { index: resolve(o.index!), indexContent: indexContent(idx.manifest), retrievers: Object.keys(retrievers) } : {}),
      // a library call given `llm` alone: the settings createChatModel made it with, as the command records its own
      model: offline ? null : (o.model ?? modelRecordOf(o.llm) ?? null),
      ...(prompts ? { prompts } : {}),
      // how a juror's vote or a baseline's answer is read: "b", "(B)", "B. <text>" taken, "(A) or (D)" refused
      // (an older lexcase read a hedged reply as its first letter; resume-unrecorded.ts warns)
      ...(prompts ? { optionLetterReading: OPTION_LETTER_READING } : {}),
      // how an advocate's cited handle is read: "(P3)", "P3.", "Passage 3" taken (an older lexcase: "P3", "[P3]" only; resume-unrecorded.ts warns)
      ...(prompts && o.system === 'case' ? { passageHandleReading: PASSAGE_HANDLE_READING } : {}),
      ...(o.warnings?.length ? { warnings: o.warnings } : {}),
      // a default hybrid searched over questions its settings were tuned on (Bar Exam QA train, split seed 13)
      ...(await hybridTuningOverlapConfig(retrievers, rag ? [rag] : o.system === 'case' ? searched : [], questions)),
    };
    // CASE and the RAG baselines report gold-evidence figures: say which questions can only miss them
    const goldFigures = o.system === 'case' || !!rag;
    if (goldFigures && idx) warnGoldMissing(idx.docs, questions, o.index!, idx.manifest.corpus.name);
    let reported: Awaited<ReturnType<typeof caseMetricsOfRun>> | undefined;
    const r = await runExperiment({
      runDir,
      system: goldFigures && idx ? withGoldInIndex(system, idx.docs) : system,
      items: questions,
      gold: (q) => q.answer,
      makeContext: contextFrom({ tools, retrievers, llm: offline ? undefined : o.llm, ...(idx ? { getPassage: idx.getPassage } : {}) }),
      config,
      lexcaseSystem: o.system === 'case' ? 'case' : 'baseline',
      seed,
      usage: o.usage,
      concurrency: o.concurrency,
      retryFailed: o.retryFailed,
      onProgress: o.onProgress,
      signal: o.signal,
      label: o.system === 'case' ? 'case' : o.mode,
      // the metrics and report.md, before the run dir is unlocked (a resume waiting for it sees this report, not the earlier one)
      whileLocked: async (done) => {
        reported = await caseMetricsOfRun(runDir, done.results);
      },
    });
    const { metrics, markdown } = reported!;
    return { runDir, ran: r.ran, skipped: r.skipped, retried: r.retried, keptFailed: r.keptFailed, failed: r.failed, metrics, markdown };
  } finally {
    await idx?.docs.close?.();
  }
}

/**
 * CASE metrics of a run (for the command's own output) and the run's full report
 * (report.md + report.json via eval/report: generic sections + the CASE section), with the statistics
 * module's bootstrap seed, not the run's: the intervals `lexcase report`, the explorer and /v1 compute.
 */
export async function caseMetricsOfRun(runDir: string, results: ResultRecord[]): Promise<{ metrics: CaseMetrics; markdown: string }> {
  const traces = new Map<string, Record<string, unknown>>();
  for (const rec of results) {
    // as the report reads them: a trace of another attempt than the item's line is left out
    const t = (await readTraceFor(runDir, rec, traceSchemaFor('case'))).trace;
    if (t) traces.set(rec.id, t);
  }
  // the requests of items under way at an interrupt (config.json `interrupts`): in no results.jsonl line, said on the Tokens line
  const metrics = caseMetrics(results, traces, SEED, await readRunUnderWay(runDir));
  await writeReport(runDir);
  return { metrics, markdown: caseMetricsMarkdown(metrics) };
}
