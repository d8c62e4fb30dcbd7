/**
 * `runAcal`: evaluate ACAL (or one of the paper's baselines) on a LegalBench task. Loads the task,
 * opens the retrieval index (hybrid RAG through the retrieval tools), runs the experiment runner
 * (resumable run dir, results.jsonl, traces), saves one argument graph per item under
 * <runDir>/acal/, and writes <runDir>/acal-report.md|json with accuracy, macro precision, macro
 * recall and macro-F1 with 95% bootstrap CIs (plus the generic report.md|json of eval/report).
 */
import { join } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { legalBenchFileRecord, loadLegalBenchTask, LEGALBENCH_TASKS, type LegalBenchFileRecord } from '../../corpora/legalbench.js';
import type { TaskExample } from '../../corpora/types.js';
import { firstItems } from '../../corpora/registry.js';
import { writeReport } from '../../eval/report/write-report.js';
import { writeAtomic } from '../../eval/run-dir.js';
import { methodsNoteFor, RESAMPLES, SEED } from '../../eval/stats/index.js';
import { BOOTSTRAP_KEY, recordBootstrap } from '../../eval/report/recorded-bootstrap.js';
import { table } from '../../eval/report/format.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import type { AgentSystem, ResultRecord } from '../../eval/types.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { modelRecordOf } from '../../core/llm/model-record.js';
import { checkSearchToolK } from '../../retrieval/tools/search-tool.js';
import { YES_NO_READING } from '../common/yes-no.js';
import { RELATIONS_READING } from './llm/identify-relations.js';
import { SCORES_READING } from './llm/score-arguments.js';
import { CLASH_WINNER_READING } from './clash-winner.js';
import type { UsageMeter } from '../../core/llm/usage.js';
import { createRetrievalTools, type ToolMethod } from '../../retrieval/tools/index.js';
import { PRINTED_SEARCH_RANKING, searchScoreDigits } from '../../retrieval/top-k.js';
import { denseQueryWordLimit } from '../../retrieval/dense-query.js';
import { denseQuerySource } from '../../retrieval/dense-query-source.js';
import type { Retriever } from '../../retrieval/types.js';
import { indexContent, openCaseIndex, type AgentIndex } from '../../retrieval/open-index.js';
import { createChainOfThoughtSystem, createSingleAgentRagSystem, createStandardPromptingSystem } from './baselines/index.js';
import { acalDir } from './graph/store.js';
import { decisionsLine, decisionStats } from './decision-stats.js';
import { acalMetrics, metricsTable, type AcalMetrics } from './metrics.js';
import { fewShotLines, fewShotSourceNote, loadFewShot } from './few-shot.js';
import type { SemanticsName } from './semantics/types.js';
import { createAcalSystem } from './system.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';
import { ACAL_SYSTEMS, type AcalSystemName } from './system-names.js';
import { acalTask } from './tasks.js';
import { DEFAULT_PASSAGE_CHARS } from './passage-chars.js';
import { requestFingerprint } from '../../eval/request-fingerprint.js';
import { PASSAGE_HANDLE_READING } from '../common/passage-handle-reading.js';
import { acalRequests } from './requests.js';

export { ACAL_SYSTEMS, type AcalSystemName };

export interface RunAcalOptions {
  task: string;
  runDir: string;
  llm: BaseChatModel;
  system?: AcalSystemName;
  split?: 'test' | 'train';
  /** Directory with the task's data (needed for learned_hands_courts, which is not bundled). */
  dataDir?: string;
  limit?: number;
  semantics?: SemanticsName;
  clashResolution?: boolean;
  escalation?: boolean;
  /** Evidence passages per item (default 5). */
  k?: number;
  /** Characters of each evidence passage acal and rag show (default passage-chars.ts). */
  passageChars?: number;
  indexDir?: string;
  seed?: number;
  concurrency?: number;
  /** On resume, run again the items that failed before (default true; --no-retry-failed). */
  retryFailed?: boolean;
  /** Bootstrap resamples for the CIs (default 2000). */
  iterations?: number;
  usage?: UsageMeter;
  /** Extra provenance for config.json (model name, ...). */
  extraConfig?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface RunAcalResult {
  runDir: string;
  results: ResultRecord[];
  metrics: AcalMetrics;
  reportMd: string;
  reportJson: string;
  markdown: string;
  ran: number;
  skipped: number;
  /** Of `skipped`, the earlier failures kept as failed (--no-retry-failed). */
  keptFailed: number;
  /** Items this call ran that failed. */
  failed: number;
}

export async function runAcal(opts: RunAcalOptions): Promise<RunAcalResult> {
  const system = opts.system ?? 'acal';
  if (!ACAL_SYSTEMS.includes(system)) throw errors.usage(`unknown --system "${system}"`, `one of: ${ACAL_SYSTEMS.join(', ')}`);
  // k as `run acal -k` takes it (0: no retrieval, warned; negative or fractional: refused): before, a library
  // call's k -2 ran and recorded -2, and rag with k 0 showed no passage, where the CLI refused both
  const k = opts.k ?? DEFAULT_K;
  if (!Number.isInteger(k) || k < 0) throw errors.invalidInput('k', `must be 0 or a positive integer, got ${opts.k}`);
  if (k === 0 && system === 'rag')
    throw errors.usage('the RAG baseline retrieves its k passages an item: -k 0 retrieves none', 'give -k 1 or more, or run --system sp or cot');
  if (!opts.indexDir && system === 'rag') throw errors.usage('the RAG baseline needs an index: pass --index DIR');
  if (k === 0 && system === 'acal') log.warn('-k 0: no retrieved evidence; arguments are grounded in the case text only');
  // -k 0 searches nothing: no index is opened or recorded, with or without one given
  const idx = opts.indexDir && k > 0 ? await openCaseIndex(opts.indexDir) : undefined;
  try {
    return await runAcalWith(opts, system, idx, k);
  } finally {
    await idx?.docs.close?.(); // the doc store's file handles (the sparse index stays in the process's cache)
  }
}

async function runAcalWith(opts: RunAcalOptions, system: AcalSystemName, idx: AgentIndex | undefined, k: number): Promise<RunAcalResult> {
  const split = opts.split ?? 'test';
  // the files read, by split (--data, else $LEXCASE_LEGALBENCH_DIR, else the bundled copy): where, and their sha256, for config.json
  const dataFiles: Record<string, LegalBenchFileRecord> = { [split]: await legalBenchFileRecord(opts.task, { split, dir: opts.dataDir }) };
  const all = await loadLegalBenchTask(opts.task, { split, dir: opts.dataDir });
  // a limit the CLI refuses (0, -1, 2.5) is refused here too: -1 ran every item but the last
  const items = firstItems(all, opts.limit);
  // k (its default applied once, by runAcal, which checked it): the tools, the system and config.json get this k.
  // the evidence is k passages of one search through the retrieval tool: over its most, every item failed
  if (idx && (system === 'acal' || system === 'rag')) checkSearchToolK(k);
  const passageChars = opts.passageChars ?? DEFAULT_PASSAGE_CHARS;

  let retrievers: Partial<Record<string, Retriever>> = {};
  let getPassage: (id: string) => Promise<{ id: string; text: string; title?: string } | undefined> = async () => undefined;
  let tools: ReturnType<typeof createRetrievalTools> = [];
  if (idx) {
    retrievers = idx.retrievers;
    getPassage = idx.getPassage;
    tools = createRetrievalTools({ retrievers: idx.retrievers as Partial<Record<ToolMethod, Retriever>>, docs: idx.docs, defaultK: k });
  }

  // the whole split, not only the first --limit items: a later, larger --limit runs the rest with the same examples
  const { examples: fewShot, record: fewShotRecord } = await loadFewShot(opts.task, system, split, opts.dataDir, all, dataFiles[split].file);
  if (fewShotRecord) dataFiles.train = await legalBenchFileRecord(opts.task, { split: 'train', dir: opts.dataDir }); // sp/cot's examples
  // examples from another place than the items (--data without a train file): said, not only recorded
  const fewShotNote = fewShotSourceNote(dataFiles, split);
  if (fewShotNote) log.warn(`${system}: ${fewShotNote}`);
  const sys: AgentSystem<TaskExample> =
    system === 'acal'
      ? createAcalSystem({
          task: opts.task,
          k,
          passageChars,
          graphDir: opts.runDir,
          semantics: opts.semantics,
          clashResolution: opts.clashResolution,
          escalation: opts.escalation,
        })
      : system === 'sp'
        ? createStandardPromptingSystem({ task: opts.task, fewShot })
        : system === 'cot'
          ? createChainOfThoughtSystem({ task: opts.task, fewShot })
          : createSingleAgentRagSystem({ task: opts.task, k, passageChars });

  const config = {
    system: `acal/${system}`, // the one naming scheme (`<id>/<variant>`); runs before it recorded `acal` / `acal-<baseline>`
    task: opts.task,
    split,
    limit: opts.limit ?? null,
    dataFiles,
    k,
    index: idx ? opts.indexDir : null, // none searched with -k 0
    ...(idx ? { indexContent: indexContent(idx.manifest) } : {}),
    tools: tools.map((t) => t.name),
    // what acal and rag search with: the task's terms and the whole item text ({text})
    // and how much of each passage they show
    ...(system === 'acal' || system === 'rag' ? { evidenceQuery: acalTask(opts.task).query('{text}'), passageChars } : {}),
    // how its searches cut the top k: as `lexcase search -k` prints it (an older lexcase: index order at a tie; resume-unrecorded.ts warns)
    // and the digits it reads a hybrid's fused scores with there (its tools search every method the index has; an older lexcase: 6 decimals)
    ...(idx && (system === 'acal' || system === 'rag')
      ? {
          searchRanking: PRINTED_SEARCH_RANKING,
          ...searchScoreDigits(idx.retrievers),
          ...denseQueryWordLimit(idx.retrievers),
          ...denseQuerySource(idx.retrievers),
        }
      : {}),
    ...(fewShotRecord ? { fewShot: fewShotRecord } : {}), // the examples sp/cot showed every item (train rows, by id)
    ...(system === 'acal'
      ? {
          semantics: opts.semantics ?? 'quadratic',
          clashResolution: opts.clashResolution !== false,
          escalation: opts.escalation !== false,
          // how a clash's winner is read: "Argument A", "B." taken (an older lexcase: "A"/"B" exactly; resume-unrecorded.ts warns)
          clashWinnerReading: CLASH_WINNER_READING,
          // how a relations reply is read: a pair judged twice two ways refused (an older lexcase kept the first; resume-unrecorded.ts warns)
          relationsReading: RELATIONS_READING,
          // how a scores reply is read: an argument scored twice two ways refused (an older lexcase kept the first; resume-unrecorded.ts warns)
          scoresReading: SCORES_READING,
          // how an argument's cited handle is read: "(P3)", "P3.", "Passage 3" taken (an older lexcase: "P3", "[P3]" only; resume-unrecorded.ts warns)
          passageHandleReading: PASSAGE_HANDLE_READING,
        }
      : {}),
    // a library call given `llm` alone: the settings createChatModel made it with, as the command records its own (extraConfig)
    ...(modelRecordOf(opts.llm) ? { model: modelRecordOf(opts.llm) } : {}),
    ...(opts.extraConfig ?? {}),
    // how a Yes/No reply (the judge's decision, a baseline's answer) is read: "yes", "No." taken (an older lexcase: exact only; resume-unrecorded.ts warns)
    yesNoReading: YES_NO_READING,
    // what the system sends that decides its results: its prompts and reply schemas (requests.ts)
    prompts: requestFingerprint(acalRequests(system, { task: opts.task, passageChars })),
    // the resamples of the run's own reports, for `lexcase report`, the explorer and /v1 (eval/report/recorded-bootstrap.ts)
    [BOOTSTRAP_KEY]: { iterations: opts.iterations ?? RESAMPLES },
  };
  const seed = opts.seed ?? 13;
  // the statistics module's bootstrap seed, not the run's: the interval report.md prints is the one
  // `lexcase report`, the explorer and /v1 compute from the same results (eval/stats/settings.ts)
  const bootstrap = { iterations: opts.iterations ?? RESAMPLES, seed: SEED };
  const reportMd = join(opts.runDir, 'acal-report.md');
  const reportJson = join(opts.runDir, 'acal-report.json');
  /** The run's reports, written before the run dir is unlocked (a resume waiting for it sees these, not the earlier ones). */
  const writeReports = async (results: ResultRecord[]) => {
    await recordBootstrap(opts.runDir, config[BOOTSTRAP_KEY]); // a resume with another --iterations: config.json says the new one
    const metrics = acalMetrics(results, bootstrap);
    const markdown = renderReport({ task: opts.task, system, config, metrics, results, items, runDir: opts.runDir, bootstrap });
    // replaced whole (temp file + rename): a kill mid-write leaves the earlier report, never part of one
    await writeAtomic(reportMd, markdown);
    await writeAtomic(
      reportJson,
      JSON.stringify({ task: opts.task, system, config, seed, metrics, decisions: decisionStats(results), slices: sliceAccuracy(results, items) }, null, 2) +
        '\n',
    );
    // the generic run report (report.md|json: accuracy, confidence, failures, tokens, tool usage + the ACAL section)
    await writeReport(opts.runDir, bootstrap);
    return { metrics, markdown };
  };
  let reports: { metrics: ReturnType<typeof acalMetrics>; markdown: string } | undefined;
  const run = await runExperiment({
    lexcaseSystem: 'acal',
    runDir: opts.runDir,
    system: sys,
    items,
    gold: (x) => x.label,
    makeContext: contextFrom({ tools, retrievers, llm: opts.llm, getPassage, signal: opts.signal }),
    config,
    seed,
    concurrency: opts.concurrency,
    retryFailed: opts.retryFailed,
    usage: opts.usage,
    signal: opts.signal,
    label: `${system} ${opts.task}`,
    whileLocked: async (r) => {
      reports = await writeReports(r.results);
    },
  });
  const { metrics, markdown } = reports!;
  return {
    runDir: opts.runDir,
    results: run.results,
    metrics,
    reportMd,
    reportJson,
    markdown,
    ran: run.ran,
    skipped: run.skipped,
    keptFailed: run.keptFailed,
    failed: run.failed,
  };
}

function sliceAccuracy(results: ResultRecord[], items: TaskExample[]) {
  const slice = new Map(items.map((i) => [i.id, typeof i.meta?.slice === 'string' ? (i.meta.slice as string) : undefined]));
  const out: Record<string, { n: number; correct: number }> = {};
  for (const r of results) {
    const s = slice.get(r.id);
    if (!s) continue;
    out[s] ??= { n: 0, correct: 0 };
    out[s].n++;
    if (r.correct) out[s].correct++;
  }
  return out;
}

function renderReport(a: {
  task: string;
  system: string;
  config: Record<string, unknown>;
  metrics: AcalMetrics;
  results: ResultRecord[];
  items: TaskExample[];
  runDir: string;
  bootstrap: { iterations?: number; seed?: number };
}): string {
  const d = decisionStats(a.results);
  const slices = sliceAccuracy(a.results, a.items);
  const lines = [
    `# ${a.system.toUpperCase()} on LegalBench ${a.task}`,
    '',
    `Licence of the task data: ${LEGALBENCH_TASKS[a.task]?.licence ?? 'see the task README'}. Metrics in %; failed items count as wrong. ${methodsNoteFor(a.bootstrap)}`,
    '',
    metricsTable([{ name: a.system, m: a.metrics }], { limit: a.config.limit }),
    ...fewShotLines(a.config),
    '',
    `Config: \`${JSON.stringify(a.config)}\``,
  ];
  if (a.system === 'acal')
    lines.push(
      '',
      decisionsLine(d),
      `Argument graphs: \`${acalDir(a.runDir)}/<itemId>.graph.json\` — contest with \`lexcase acal contest ${a.runDir} --item <id> --action …\`.`,
    );
  if (Object.keys(slices).length)
    lines.push(
      '',
      table(
        ['slice', 'n', 'accuracy'],
        Object.entries(slices).map(([s, v]) => [s, v.n, ((100 * v.correct) / v.n).toFixed(1)]),
      ),
    );
  return lines.join('\n') + '\n';
}
