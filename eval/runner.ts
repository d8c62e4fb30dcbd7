/**
 * The experiment runner: runs an AgentSystem over items and leaves a run directory that a crashed
 * or interrupted run resumes from.
 *
 *   const { results } = await runExperiment({ runDir, system, items, gold: (q) => q.answer,
 *     makeContext: contextFrom({ tools, retrievers, llm, getPassage }),
 *     config: { system: 'case', dataset: 'barexam', split: 'val', k: 5 }, seed: 13 });
 *
 * Per item, in order: the system runs inside a usage scope (tokens of every model call, per item)
 * and a tool-recorder scope (every retrieval tool call); traces/<id>.json is written (redacted,
 * checked against the system's trace schema, atomically); then one line is appended to
 * results.jsonl. A system that throws or returns `error` is recorded as a failed item (prediction
 * null) and the run goes on; step failures inside an item (`outcome.stepFailures`) are recorded too,
 * and so are the numbers its structured replies held outside their schema's bounds and that were
 * clamped (`repairs`, by step and field: core/llm/bound-repair.ts; a warning at the end of the run).
 *
 * Resume: an item is done when results.jsonl holds a succeeded record for it; those are skipped.
 * Failed items are retried by default (`retryFailed: false` keeps them): a failed item's line stays
 * until its new record replaces it (results.jsonl rewritten atomically, the new line last), so the
 * file always holds one line per item and a retry interrupted, crashed or killed at any point leaves
 * each item its failed record or its new one, never neither. The new record keeps how many failed
 * attempts it replaced and the tokens they spent (`replacedAttempts`; report.md's Tokens section). A truncated last line from a crash is
 * dropped and that item is redone. An aborted item (signal) is not recorded (nor its trace or LLM
 * exchanges), so it is redone on resume. Stale temp files from a killed run are removed. An error from `makeContext` is a setup error: no more items start, and it is thrown
 * once running items end. A resume may grow the run (eval/run-grow.ts): a larger `limit`, or a
 * `split` that holds every recorded item, runs only the new items and records the change; its provenance
 * (items, dataset checksum) then describes the grown run. A resume whose items are not those
 * recorded (a recorded item it does not select, or one whose gold label differs now: another data
 * copy under the same config) is refused (eval/resume-items.ts). A field an older lexcase did not record (the
 * index's content, the whole LLM config) is not checked, with a warning (eval/resume-unrecorded.ts).
 *
 * LLM exchanges: every request a factory model answers inside an item is recorded (redacted) in
 * `<runDir>/llm/<item>.jsonl`, and the model's settings in `llm/model.json` (eval/llm-exchanges.ts).
 * Once an item's outcome is known its calls still in flight are cut off (recorded `abandoned`) and
 * waited for; its exchanges and its tokens are then taken together, so the one holds every call the
 * other counts.
 * When the items' model replays a recorded run (`createChatModel(cfg, { replayFrom })`), each item
 * is served from its recorded exchanges, its `ms` is the recorded one (a replay's own time says
 * nothing), results.jsonl keeps the recorded order, and a seed or config that differs from the
 * recording's, or a request it does not hold, stops the run: a replay reproduces results.jsonl
 * byte for byte or fails — except token counts the recording's lexcase read otherwise (a server
 * reporting only total_tokens, a content filter), which are this version's and warned about
 * (eval/replay-token-diff.ts).
 *
 * A write of the run dir that fails (a full disk: ENOSPC; EDQUOT, EROFS, EIO, EFBIG) stops the run:
 * no item starts after it, items in flight are aborted and not recorded (no LLM request is made
 * for them afterwards), the failed write leaves no temp file, and the run throws RUN_WRITE_FAILED,
 * one line naming the error and how many items are recorded. A resume finishes the run.
 *
 * A run that is refused or stops before it records any item (a replay with other flags, a setup
 * error, a deferred preflight that fails) leaves the run dir as it found it (`undoRunStart`): what it
 * created is removed, the files a resume rewrote (config.json, results.jsonl, llm/model.json, the
 * request journal under-way/) are put back byte for byte, so the corrected command is not refused for
 * its leftovers and the next resume still records what the earlier attempts left — but for the requests
 * its items sent, kept in under-way/, which the next run of the dir (a new one too) records as a killed
 * attempt's, so report.md counts them.
 */
import { existsSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { resolve } from 'node:path';
import pLimit from 'p-limit';
import { errors, errorText, isLexcaseError, withoutTroubleshootingUrl } from '../core/errors.js';
import { addUsage, emptyUsage, UsageMeter, withUsageScope, type TokenUsage } from '../core/llm/usage.js';
import { ExchangeLog, ItemEndedError, withExchangeLog, type Exchange } from '../core/llm/record-replay.js';
import { RepairTally, withRepairTally } from '../core/llm/bound-repair.js';
import { runDeferredPreflight } from '../core/llm/deferred-preflight.js';
import { DenseSearchTally, withDenseSearchTally } from '../retrieval/dense-query-cut.js';
import { ITEM_COUNTS } from './item-counts.js';
import { TEXT_OTHER_ANSWER_READING } from '../core/llm/text-beside-call.js';
import { REPLY_READING } from '../core/llm/reply-reading.js';
import { USAGE_READING } from '../core/llm/usage-reading.js';
import { replyFingerprints } from './reply-fingerprints.js';
import { cacheSources, cacheSourcesText } from './cache-sources.js';
import { replayTokenDiffText, tokenDiff } from './replay-token-diff.js';
import { orderLike } from './key-order.js';
import { replyModels } from './reply-models.js';
import {
  identityModel,
  itemsWithoutIdentity,
  newIdentities,
  serverIdentities,
  serverIdentitiesOf,
  serverIdentitiesText,
  swappedIdentities,
  swappedIdentitiesOf,
} from './server-identities.js';
import {
  assertReplaysRecording,
  modelSettingsPath,
  readExchanges,
  assertLineExchanges,
  readModelSettings,
  replayInfo,
  stageExchanges,
  writeModelSettings,
  type ReplayInfo,
  type StagedExchanges,
  undigestedText,
} from './llm-exchanges.js';
import { log } from '../core/log.js';
import { createProgress } from '../core/progress.js';
import { checkSeed, deriveSeed, SEED_DERIVATION } from '../core/rng.js';
import { ToolRecorder, withToolRecorder } from '../retrieval/tools/tool-recorder.js';
import { contentChecksum, itemChecksum, provenance, type Provenance } from './provenance.js';
import { resumeCodeNote } from './resume-code.js';
import { scopedLexcaseSystem } from './lexcase-system-scope.js';
import type { RunConfigFile } from './run-config-file.js';
import { firstIssue, resultRecordSchema, traceSchemaFor } from './records.js';
import { ITEM_DERIVED_KEYS, resultConfig } from './resume-config.js';
import { movedIndex } from './resume-index.js';
import { sayResumeChanges } from './resume-warnings.js';
import { compareRecordedConfig } from './resume-compare.js';
import { unrecordedText } from './resume-unrecorded.js';
import { assertSameDataFiles, assertSameItems } from './resume-items.js';
import { SYSTEMS, withCanonicalSystem } from './systems.js';
import { METRIC_KINDS, type MetricKinds } from './stats/metric-kinds.js';
import { assertGrows, describeGrowth, growChanges, narrows, withoutGrowKeys } from './run-grow.js';
import { checkRunDirOut, lockRunDir } from './run-dir-guard.js';
import {
  ResultsWriter,
  configPath,
  ensureRunDir,
  readConfig,
  readResults,
  removeStaleTemps,
  repairResults,
  describeCutTail,
  resultsPath,
  rewriteResults,
  writeJsonAtomic,
  writeTrace,
} from './run-dir.js';
import { makeRunDir, noteRunDir, removeCreatedDirs, undoRunStart } from './run-start-undo.js';
import { recordedStops, resumeSaysAnything, resumingText, runInterrupts, stoppedAttemptsCounted, unresumedInterrupts } from './run-counts.js';
import { noteItemUnderWay, noteRunDirOpened } from './results-writes.js';
import { dropEmptySentDir, dropSentJournal, killedAttempts, noteSentRequest } from './sent-journal.js';
import { takeKilledAttempt } from './killed-attempt.js';
import { checkShardResume, currentShard, selectShardItems, shardLabel } from './reproduce/shard.js';
import type { AgentSystem, ResultRecord, SystemContext, SystemOutcome } from './types.js';

export interface RunProgress {
  id: string;
  done: number;
  total: number;
  correct: number;
  failed: number;
}

export interface RunExperimentOptions<Item extends { id: string }> {
  runDir: string;
  system: AgentSystem<Item>;
  items: Item[];
  gold: (item: Item) => string;
  /**
   * What an item holds beyond its id and gold, when its id does not name its content (3-ply's
   * generated triples, `<mode>-NNN`): its checksum is recorded with each result (`itemChecksum`) and
   * in the dataset checksum, so a resume or a comparison does not take another item under the same id for it.
   */
  itemContent?: (item: Item) => unknown;
  /** Build the system context for one item; `seed` is derived from the run seed and the item id. */
  makeContext: (item: Item, info: { seed: number }) => Promise<SystemContext> | SystemContext;
  /** Resolved config (system, dataset, split, k, tools, model, index...); written to config.json, with `seedDerivation` (core/rng.ts SEED_DERIVATION). */
  config: Record<string, unknown>;
  seed: number;
  /**
   * The id of the lexcase system this run is of (agents/<system>/experiment.ts pass theirs; `lexcase
   * run <id>` scopes it for a plugin's `run()`): recorded in config.json as `provenance.lexcaseSystem`,
   * and only such a run gets that system's report section. A system of your own leaves it out (null
   * is recorded), so a name it shares with a lexcase system (`baseline`, `case`) gives it no section of theirs.
   */
  lexcaseSystem?: string;
  /**
   * What the system's per-item metrics (`metrics` of its outcomes) measure, by name
   * (eval/stats/metric-kinds.ts): `count` for a value that can exceed 1 (tool calls, citations —
   * its interval a mean's even when every item recorded 0 or 1), `share`, `proportion`, `graded`.
   * Recorded in config.json (`metricKinds`) for the report, merge and compare. A lexcase system's
   * run records its plugin's declaration when this is left out; a metric not named: its values decide.
   */
  metricKinds?: MetricKinds;
  /** Items run at once (default 1). */
  concurrency?: number;
  /** Run-level meter; per-item meters are forks of it. */
  usage?: UsageMeter;
  onProgress?: (p: RunProgress) => void;
  signal?: AbortSignal;
  /** Progress-bar label (default "run"). */
  label?: string;
  /** On resume, run again the items whose earlier attempt failed (default true). */
  retryFailed?: boolean;
  /**
   * Go on when the server describes the model otherwise during the run (eval/server-identities.ts),
   * recording the items answered under each (default: --allow-server-change; else the run stops).
   */
  allowServerChange?: boolean;
  /**
   * The recorded run this run, which has no model, replays (a retrieval or trec cell of `lexcase
   * reproduce --replay`): its seed and config are checked against the recording's before anything is
   * written, as a replay with a model is (llm-exchanges.ts), and recorded in config.json (`replayOf`).
   * Before, such a cell ran as a fresh run over whatever index or data it was given, a "replay" whose
   * figures need not be the recording's.
   */
  replayOf?: string;
  /**
   * What the caller writes into the run dir once the items have run (report.md / report.json, a
   * system's own report), done before the run dir's lock is released: a resume waiting for the lock
   * then sees this run's report, never the one before it. Before, callers wrote the report after
   * runExperiment returned, the lock already released. The lock is released also when it throws.
   */
  whileLocked?: (result: RunExperimentResult) => Promise<void>;
  /**
   * The models a system calls beside the item context's `llm`, by role (3-ply's Factor Distiller):
   * a switch of their structured-output mode is recorded in config.json too, naming the role.
   */
  roleModels?: Record<string, unknown>;
}

export interface RunExperimentResult {
  /** Every record in results.jsonl after this call (earlier ones first). */
  results: ResultRecord[];
  /** Items skipped because they were already done (succeeded, or failed with retryFailed false). */
  skipped: number;
  /** Of `skipped`, the items whose earlier attempt failed and stay failed (retryFailed false). */
  keptFailed: number;
  /** Failed items from an earlier call that this call ran again. */
  retried: number;
  /** Items run (recorded) by this call. */
  ran: number;
  failed: number;
  aborted: boolean;
}

export type { RunConfigFile } from './run-config-file.js';

/** `metricKinds` checked (each a METRIC_KINDS name), as config.json records it; undefined for none. */
function declaredMetricKinds(kinds: MetricKinds | undefined): Record<string, MetricKinds[string]> | undefined {
  if (kinds === undefined || Object.keys(kinds).length === 0) return undefined;
  for (const [k, v] of Object.entries(kinds))
    if (!(METRIC_KINDS as readonly string[]).includes(v)) throw errors.invalidInput(`metricKinds.${k}`, `"${v}" is not one of ${METRIC_KINDS.join(', ')}`);
  return { ...kinds };
}

/** What differs between the runs' item contexts: every part optional (SystemContext less the item's seed). */
export type ContextParts = Partial<Omit<SystemContext, 'seed'>>;

/**
 * `makeContext` from the parts a run has: each item gets them and its own seed; a part not given is
 * empty — no tools, no retrievers, no passages (`getPassage` finds none), no options, no LLM.
 */
export function contextFrom(parts: ContextParts = {}): (item: unknown, info: { seed: number }) => SystemContext {
  const make = (_item: unknown, { seed }: { seed: number }): SystemContext => ({
    tools: [],
    retrievers: {},
    getPassage: async () => undefined,
    options: {},
    ...parts,
    seed,
  });
  if (parts.llm) givesModel.set(make, parts.llm);
  return make;
}

/** The `makeContext`s contextFrom made with a model, and the model: their items' system is given it. */
const givesModel = new WeakMap<object, unknown>();

/**
 * An LLM run: its system is given a model (a `makeContext` of contextFrom's with `llm`, or `roleModels`), or its
 * config names one. Before, only a config naming its `model` counted: a library call given `llm` without the
 * `model` record (runMadExperiment, runAcal without `extraConfig.model`) recorded no `replyReading`, so a
 * resume of its run dir by a lexcase that reads replies otherwise was never warned.
 */
function isLlmRun(opts: Pick<RunExperimentOptions<never>, 'config' | 'makeContext' | 'roleModels'>): boolean {
  const named = opts.config.model !== undefined && opts.config.model !== null;
  return named || givesModel.has(opts.makeContext) || Object.values(opts.roleModels ?? {}).some((m) => m !== undefined && m !== null);
}

export async function runExperiment<Item extends { id: string }>(opts: RunExperimentOptions<Item>): Promise<RunExperimentResult> {
  const { runDir } = opts;
  checkSeed(opts.seed, 'seed'); // 1, 1.5 and 4294967297 drew the same
  if (opts.items.length === 0)
    throw errors.nothingToEvaluate(`no items to run in ${runDir} (the dataset split is empty)`, 'use a split or --limit that selects at least one item');
  // what the system's per-item metrics measure (its own declaration, or its plugin's), checked before the run dir is touched
  const writerId = opts.lexcaseSystem ?? scopedLexcaseSystem();
  const metricKinds = declaredMetricKinds(opts.metricKinds ?? (writerId ? SYSTEMS.find((s) => s.id === writerId)?.metricKinds : undefined));
  // Under `lexcase reproduce --shard i/n` only this shard's items run (eval/reproduce/shard.ts).
  const items = selectShardItems(runDir, opts.items);
  // a shard past the items (--shard 3/3 of 2 items): an empty run, recorded with an empty results.jsonl that merge joins
  const shardNow = currentShard();
  if (!items.length && shardNow)
    log.warn(
      `${opts.label ?? runDir}: shard ${shardLabel(shardNow)} has no items (${opts.items.length} item${opts.items.length === 1 ? '' : 's'}, ${shardNow.count} shards); ${runDir} records an empty run`,
    );
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.id)) throw errors.invalidInput('items', `duplicate item id "${it.id}"`);
    seen.add(it.id);
  }
  // The shared output-dir rule (a new/empty dir or a run to resume), then one writer at a time.
  checkRunDirOut(runDir);
  const before = await makeRunDir(runDir);
  let lock;
  try {
    lock = lockRunDir(runDir, `run ${String(opts.config?.system ?? opts.label ?? 'experiment')}`);
  } catch (e) {
    removeCreatedDirs(before);
    throw e;
  }
  noteRunDirOpened(runDir); // a signal from now on names the items it holds (src/cli/run-interrupt.ts)
  const state = { recorded: 0, done: 0, total: items.length };
  let undo = false;
  try {
    let result: RunExperimentResult;
    try {
      noteRunDir(before);
      await ensureRunDir(runDir);
      result = await runLocked({ ...opts, metricKinds }, items, seen, state);
    } catch (e) {
      // Refused or stopped before any item was recorded (a replay with other flags, a setup error):
      // put the dir back as it was, so the corrected command is not refused for what this one wrote.
      undo = state.recorded === 0;
      if (undo) await undoRunStart(before).catch(() => undefined);
      // A write of the run dir that failed (full disk, quota, read-only, I/O error): one line saying so.
      throw isWriteFailure(e) ? errors.runWriteFailed(runDir, e, state.done, state.total) : e;
    }
    // the caller's report, still under the lock (a failed report leaves the recorded items as they are)
    await opts.whileLocked?.(result);
    return result;
  } finally {
    lock.release();
    if (undo) removeCreatedDirs(before);
  }
}

/** The model settings that change what a model answers (llm/model.json; structured-output mode and strictness are the provider's, and their switches are recorded apart). */
const ANSWER_SETTINGS = ['model', 'temperature', 'topP', 'maxTokens', 'seed'] as const;

/**
 * A resume whose chat model differs from the one llm/model.json recorded for the run's earlier items
 * (another model, temperature, top-p, token limit or seed) is refused, naming the setting, before
 * anything is written: the lexcase systems record their model in config.json, where a resume compares
 * it, but a system of your own whose `config` leaves it out went on with the new model and
 * model.json was overwritten with it, as if every item had been made with it.
 */
async function assertSameModel(runDir: string, settings: Record<string, unknown>): Promise<void> {
  const file = modelSettingsPath(runDir);
  if (!existsSync(file)) return;
  let before: Record<string, unknown>;
  try {
    before = await readModelSettings(runDir);
  } catch {
    return; // unreadable: the run's other checks (config.json) stand
  }
  for (const k of ANSWER_SETTINGS) {
    const [was, now] = [before[k], settings[k]].map((v) => JSON.stringify(v ?? null));
    if (was !== now)
      throw errors.runInvalid(
        runDir,
        `was started with another chat model (${k} ${was} recorded in ${file}, ${now} now); its earlier items were made with the recorded one: use a new run dir, or the recorded setting`,
      );
  }
}

/**
 * The endpoint preflights `run <system>` deferred (core/llm/deferred-preflight.ts) of the run's models
 * (the model of a contextFrom makeContext, its roleModels): made once the run dir has accepted the run
 * and before the run writes anything, so a resume refused for its config sent no request, and one
 * whose preflight fails or is stopped (Ctrl-C) there left the run dir untouched. A makeContext of the
 * caller's own gets its model's check with the first item (initLlm).
 */
async function deferredPreflights(opts: Pick<RunExperimentOptions<never>, 'makeContext' | 'roleModels'>): Promise<void> {
  for (const m of [givesModel.get(opts.makeContext), ...Object.values(opts.roleModels ?? {})]) await runDeferredPreflight(m);
}

/** System errors of a write that the run cannot go on after. */
const WRITE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EFBIG']);
const isWriteFailure = (e: unknown): boolean => !isLexcaseError(e) && WRITE_FAILURES.has((e as NodeJS.ErrnoException)?.code ?? '');

async function runLocked<Item extends { id: string }>(
  opts: RunExperimentOptions<Item>,
  items: Item[],
  seen: Set<string>,
  state: { recorded: number; done: number },
): Promise<RunExperimentResult> {
  const { runDir, seed, metricKinds } = opts;
  const stale = await removeStaleTemps(runDir);
  if (stale) log.info(`${runDir}: removed ${stale} temp file(s) left by an interrupted run`);
  // JSON round-trip so the comparison sees what config.json holds (no undefined, no functions); with
  // how the items' seeds follow from the run seed, which every seeded draw depends on (core/rng.ts).
  // A shard's run dir records its shard (reproduce --shard): resumed outside it, it would take other shards' items.
  const shard = currentShard();
  // An LLM run (its system is given a model, or its config names one) records how its replies and their token usage are read
  // (core/llm/reply-reading.ts, core/llm/usage-reading.ts).
  const replyReading = isLlmRun(opts) ? { replyReading: REPLY_READING, usageReading: USAGE_READING, textOtherAnswerReading: TEXT_OTHER_ANSWER_READING } : {};
  const config = JSON.parse(
    JSON.stringify({ ...opts.config, seedDerivation: SEED_DERIVATION, itemCounts: ITEM_COUNTS, ...replyReading, ...(shard ? { shard } : {}) }),
  ) as Record<string, unknown>;
  const contentOf = opts.itemContent;
  const checksumOf = contentOf ? (item: Item) => itemChecksum(contentOf(item)) : undefined;
  const prov: Provenance = {
    ...provenance(items, opts.gold as (item: never) => string, checksumOf as ((item: never) => string) | undefined),
    lexcaseSystem: opts.lexcaseSystem ?? scopedLexcaseSystem() ?? null,
  };

  // a run with no model replaying a recording: checked now, and its items' lines take the recording's times and order, as a replay with a model's do
  let offlineReplay: ReplayInfo | undefined;
  if (opts.replayOf !== undefined) {
    if (resolve(opts.replayOf) === resolve(runDir)) throw errors.runInvalid(runDir, 'is the run being replayed; give the replay a new --run-dir');
    await assertReplaysRecording(opts.replayOf, config, seed, { lexcaseSystem: prov.lexcaseSystem ?? null });
    const { records } = await readResults(opts.replayOf);
    offlineReplay = { dir: opts.replayOf, recorded: new Map(records.map((r) => [r.id, r])), order: records.map((r) => r.id), undigested: [] };
  }
  const existing = (await readConfig(runDir)) as RunConfigFile | undefined;
  // cache hits on replies written since the run started and before this attempt: an earlier (killed) attempt paid for them
  // a run dir an attempt stopped before its first record (a full disk: its config.json undone, its journal kept) starts at
  // that attempt's first request, so the replies it got are paid by an earlier attempt here too (before: counted as no tokens)
  const journalFrom = existing ? undefined : killedAttempts(runDir)?.from;
  const createdAt = existing?.provenance?.createdAt ?? prov.createdAt;
  const runStart = journalFrom !== undefined && journalFrom < createdAt ? journalFrom : createdAt;
  const attemptWindow = { runStart, attemptStart: prov.createdAt, countedAtStop: stoppedAttemptsCounted(existing, runStart) };
  const retryFailed = opts.retryFailed ?? true;
  // read as it is: its cut-off last line is cut once the resume is accepted and its record written (below)
  const { records: repaired, cut } = await repairResults(runDir, { write: false });
  // One final record per item: a later line supersedes an earlier one (files from older versions).
  const byId = new Map(repaired.map((r) => [r.id, r]));
  const retryIds = new Set(retryFailed ? [...byId.values()].filter((r) => r.error !== undefined && seen.has(r.id)).map((r) => r.id) : []);
  const doneIds = new Set([...byId.keys()].filter((id) => !retryIds.has(id)));
  const todo = items.filter((it) => !doneIds.has(it.id));
  const skipped = items.length - todo.length;
  state.done = skipped;
  const retried = retryIds.size;
  const keptFailed = retryFailed ? 0 : items.filter((it) => byId.get(it.id)?.error !== undefined).length;
  // the schema of the system this attempt runs: a system of the caller's own (no lexcaseSystem) never gets lexcase's CASE schema by its name
  const traceSchema = traceSchemaFor(opts.config?.system, prov.lexcaseSystem ?? null);

  if (existing) {
    checkShardResume(runDir, existing.config ?? {}, shard);
    // a shard dir written before config.json recorded its shard (its shard.json says the same one)
    if (shard && existing.config && existing.config.shard === undefined) existing.config = { ...existing.config, shard };
    if (existing.seed !== seed) throw errors.runInvalid(runDir, `was started with seed ${existing.seed}, not ${seed}; use a new run dir to change the seed`);
    // Fields an older lexcase did not record (the index's content, the whole LLM config) cannot be checked: see resume-unrecorded.ts.
    // Only fields that change results must match; retries, timeouts, concurrency and the cache may change (the comparison a merge makes too).
    // lexcase's own fields (those an older lexcase did not record, `dataFiles` by checksum) are read only in a run of a
    // lexcase system: as the run dir records its writer, else (a dir from before that record) as this resume's
    const writer = existing.provenance && 'lexcaseSystem' in existing.provenance ? existing.provenance.lexcaseSystem : prov.lexcaseSystem;
    const lexcaseFields = writer !== null && writer !== undefined;
    // the same index at another path (moved, copied, rebuilt in a clone elsewhere): compared by what it holds (resume-index.ts)
    const { recorded: atPath, move: indexMove } = lexcaseFields
      ? movedIndex(existing.config ?? {}, config)
      : { recorded: existing.config ?? {}, move: undefined };
    const { recorded, unrecorded, difference } = compareRecordedConfig(
      atPath,
      config,
      (c) => withoutGrowKeys(resultConfig(withCanonicalSystem(c), { lexcaseFields })),
      undefined,
      { lexcaseFields },
    );
    // the data files read (LegalBench's: the bundled copy or $LEXCASE_LEGALBENCH_DIR's), by checksum, naming both files (resume-items.ts)
    const movedData = lexcaseFields ? assertSameDataFiles(runDir, recorded.dataFiles, config.dataFiles) : {};
    if (difference) throw errors.runInvalid(runDir, `was started with a different config (${difference}); use a new run dir`);
    if (unrecorded.length) {
      log.warn(
        `${runDir}/config.json was written by an older lexcase and ${unrecordedText(unrecorded)}: this resume cannot check that the run's earlier items were made with the same; config.json records them from now on (resumes[].unchecked)`,
      );
      // the path the run started with stays recorded: the move is the resume's own (resumes[].changed.index)
      existing.config = indexMove ? { ...recorded, index: indexMove.from } : recorded;
    }
    // A larger --limit (or a split that holds the recorded items): the run grows, only the new items run.
    const grown = growChanges(existing.config ?? {}, config);
    if (Object.keys(grown).length) assertGrows(runDir, grown, byId.keys(), seen);
    // what is read from the items (ITEM_DERIVED_KEYS: EMAR's macro-F1 label set) follows them: recorded and said with
    // the growth — before, report.md averaged over the first items' labels while the command's own table used the
    // grown run's (macro-F1 87.5% in one, 70.0% in the other)
    for (const key of ITEM_DERIVED_KEYS)
      if (config[key] !== undefined && JSON.stringify(existing.config?.[key] ?? null) !== JSON.stringify(config[key]))
        grown[key] = { from: existing.config?.[key] ?? null, to: config[key] };
    // the same config over other items (another data copy, reordered or relabelled rows): refused
    // (and, where results.jsonl records it, the text a model is shown: a dataset edited under the same ids and labels)
    const uncheckedText = assertSameItems(
      runDir,
      byId.values(),
      new Map(items.map((it) => [it.id, { gold: opts.gold(it), itemChecksum: checksumOf?.(it), contentChecksum: contentChecksum(it) }])),
    );
    if (uncheckedText)
      log.warn(
        `${runDir}: ${uncheckedText} recorded item${uncheckedText === 1 ? '' : 's'} (written by an older lexcase) record${uncheckedText === 1 ? 's' : ''} no content checksum: this resume cannot check that ${uncheckedText === 1 ? 'its' : 'their'} question text is the one the command reads now (only ids and gold labels are checked)`,
      );
    // every recorded item's text checked (or none recorded): the provenance describes the items as they are now
    if (existing.provenance?.contentChecksum && prov.contentChecksum) existing.provenance = { ...existing.provenance, contentChecksum: prov.contentChecksum };
    let provenanceBefore: { items: number; datasetChecksum: string } | undefined;
    if (Object.keys(grown).length) {
      existing.config = { ...existing.config, ...Object.fromEntries(Object.keys(grown).map((k) => [k, config[k] ?? null])) };
      // the data files as read for the grown split (the same bytes: assertSameDataFiles), so config.json describes the grown run
      if (grown.split && config.dataFiles !== undefined) existing.config.dataFiles = config.dataFiles;
      // the provenance describes the grown run's items, as a fresh run of the same selection records them
      if (existing.provenance) {
        provenanceBefore = { items: existing.provenance.items, datasetChecksum: existing.provenance.datasetChecksum };
        existing.provenance = { ...existing.provenance, items: prov.items, datasetChecksum: prov.datasetChecksum };
      }
    }
    // said once the resume is accepted and its endpoint preflight passed (below): a preflight that fails leaves the run dir as it was
    // a smaller limit that still holds every recorded item (a run stopped before it reached its limit) narrows the run:
    // not "growing" it (before: "growing runs/x: limit 8 → 6")
    const growingLine = Object.keys(grown).length
      ? `${narrows(grown) ? 'narrowing' : 'growing'} ${runDir}: ${describeGrowth(grown)}${narrows(grown) ? ` (every recorded item is in the new selection; ${items.length} items planned)` : ''}, ${grownText(todo.length - retried, retried)}`
      : undefined;
    // other lexcase code than the run's: said now, not only in report.md afterwards (resume-code.ts)
    const otherCode = resumeCodeNote(runDir, existing.provenance, prov);
    if (otherCode) log.warn(otherCode);
    // a run dir written before the field: who runs it now (its config is the same), so its report knows its system
    if (existing.provenance && !('lexcaseSystem' in existing.provenance)) existing.provenance = { ...existing.provenance, lexcaseSystem: prov.lexcaseSystem };
    // what changed since the latest attempt, said once: operational changes, another Unicode version, endpoint query, index moved
    const changed = sayResumeChanges(runDir, { existing, config, movedData, indexMove });
    // the interrupt that stopped the attempt before this one (config.json `interrupts`), recorded with this resume, so
    // resumes[] counts the requests the resuming line and report.md count; before, no resume entry held them
    // (a merged run dir's: every shard's interrupt not resumed by a later resume of its shard or of the merged dir)
    // an attempt that ended without its signal handler (kill -9, out of memory, a crash): the requests its items under
    // way had sent are in under-way/ (sent-journal.ts), recorded now as an interrupt; before, they were in no count
    // items done (a line without an error): a sent-requests file of theirs is left from the attempt that wrote the line (a
    // failed line's may be a later retry's, not recorded)
    const killedTaken = takeKilledAttempt(
      runDir,
      existing,
      [...byId.values()].filter((r) => r.error === undefined).map((r) => r.id),
    );
    const interrupted = unresumedInterrupts(existing);
    existing.resumes = [
      ...(existing.resumes ?? []),
      {
        at: prov.createdAt,
        gitSha: prov.gitSha,
        datasetChecksum: prov.datasetChecksum,
        ...(prov.contentChecksum ? { contentChecksum: prov.contentChecksum } : {}),
        items: items.length,
        skipped,
        ...(retried ? { retried } : {}),
        ...(keptFailed ? { keptFailed } : {}),
        ...(Object.keys(changed).length ? { changed } : {}),
        ...(Object.keys(grown).length ? { grown } : {}),
        ...(provenanceBefore ? { provenanceBefore } : {}),
        ...(unrecorded.length ? { unchecked: unrecorded.map((u) => u.key) } : {}),
        ...(cut ? { cutTail: cut } : {}),
        ...(interrupted.items || interrupted.requests ? { underWay: interrupted } : {}),
      },
    ];
    // the system's declaration now (a run dir from before the record gets it)
    if (metricKinds) existing.metricKinds = metricKinds;
    await deferredPreflights(opts);
    await writeJsonAtomic(configPath(runDir), existing);
    if (growingLine) log.info(growingLine);
    killedTaken(); // the journal goes once config.json holds its entry (killed-attempt.ts)
    // with the requests of items under way at the run's earlier interrupts (config.json `interrupts`), as the end line counts them
    const underWay = runInterrupts(existing);
    if (resumeSaysAnything({ skipped, retried }, underWay)) log.info(resumingText(runDir, { items: items.length, skipped, keptFailed, retried }, underWay));
  } else {
    const file: RunConfigFile = { seed, config, provenance: prov, ...(metricKinds ? { metricKinds } : {}) };
    await deferredPreflights(opts);
    // the requests of an attempt that stopped before it recorded an item (its config.json undone, its journal kept:
    // run-start-undo.ts), recorded as a resume records a killed attempt's
    const killedTaken = takeKilledAttempt(runDir, file);
    await writeJsonAtomic(configPath(runDir), opts.replayOf !== undefined ? { ...file, replayOf: opts.replayOf } : file);
    killedTaken();
  }
  // a write stopped midway (kill -9, full disk, file-size limit): the item is not done; cut off, and said, only now that the
  // resume is accepted and config.json records the cut (before, a refused resume cut the line off and said "cut off … runs
  // again" of an item it did not run; a resume that fails later puts it back: run-start-undo.ts)
  await repairResults(runDir);
  if (cut)
    log.warn(
      `${runDir}/results.jsonl ended in ${describeCutTail(cut)}: a write stopped midway (the process killed, the disk or a file-size limit reached); cut off, the item is not counted as done and runs again`,
    );
  // Only once the resume is accepted (same seed and config): collapse superseded lines (a file from an
  // older version). The failed lines of items about to be retried stay until each one's new line
  // replaces it (ResultsWriter), so an interrupted retry leaves every item its old or its new record.
  if (byId.size !== repaired.length) await rewriteResults(runDir, [...byId.values()]);
  else if (!items.length && !existsSync(resultsPath(runDir))) await rewriteResults(runDir, []); // an empty shard's run
  const resultsFile = new ResultsWriter(runDir, [...byId.values()], (id) => dropSentJournal(runDir, id));

  // in results.jsonl's order: a retried item's new record replaces its failed one (and goes last)
  const results: ResultRecord[] = [...byId.values()].filter((r) => seen.has(r.id));
  let ran = 0;
  let failed = 0;
  let correct = results.filter((r) => r.correct).length;
  let aborted = false;
  const progress = createProgress(opts.label ?? 'run', { unit: 'items' });
  progress.start(items.length);
  progress.update(skipped);
  // the count says how many of its items failed: those kept failed from an earlier attempt, then this call's
  if (keptFailed) progress.fail(keptFailed);
  // Appends are serialised so lines never interleave.
  let appendChain: Promise<void> = Promise.resolve();

  let setupError: unknown;
  // values clamped into their schema's bounds, by step and field, over the items this call ran
  const repairedTotal = new Map<string, number>();
  // replies this attempt's items got that named a model other than the one asked (eval/reply-models.ts)
  const replyModelTotal = new Map<string, number>();
  const fingerprintTotal = new Map<string, number>();
  // replies this attempt's items got from the response cache, by who wrote them (eval/cache-sources.ts), and its LLM calls
  const cacheSourceTotal = new Map<string, number>();
  let callsTotal = 0;
  // the server identities this run dir's replies were answered under (eval/server-identities.ts): its earlier lines', then this attempt's
  const identitiesHeard = new Set([...byId.values()].flatMap((r) => Object.keys(r.serverIdentities ?? {})));
  const earlierWithoutIdentity = itemsWithoutIdentity([...byId.values()]);
  let warnedIdentityGap = false;
  // the server-identity module, once the run has a live model: each item hears the identity again
  let identity: typeof import('../core/llm/server-identity.js') | undefined;
  // a replay: the items whose token counts differ from the recording's (eval/replay-token-diff.ts), and how many were replayed
  const replayTokenDiffs = new Map<string, string>();
  let replayedItems = 0;
  // The first write of the run dir that failed: the run stops (no item starts after it; items in flight are aborted).
  let writeError: unknown;
  // Stops the run from inside (a setup error, a failed write); items get it with the caller's signal.
  const stop = new AbortController();
  const runSignal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  setMaxListeners(0, runSignal); // one listener per request in flight, each removed when it settles (core/llm/deadline.ts)
  /** The signal an item runs under: the run's, joined with the item context's own when it has another. */
  const itemSignal = (own: AbortSignal | undefined): AbortSignal => {
    if (!own || own === opts.signal) return runSignal;
    const both = AbortSignal.any([own, runSignal]);
    setMaxListeners(0, both);
    return both;
  };
  const fail = (e: unknown) => {
    setupError ??= e;
    stop.abort();
  };
  const failWrite = (e: unknown) => {
    writeError ??= e;
    stop.abort();
  };
  // set up once, from the first item's model: the settings file of a recording, or the replay's checks
  let llmInit: Promise<ReplayInfo | undefined> | undefined;
  // the structured-output mode each model (the context's, then opts.roleModels) started with, and the factory that reads it (LLM runs only)
  let readMode: ((llm: unknown) => unknown) | undefined;
  // role undefined: the item context's model (read from each item's context)
  const modeAtStart: { mode: unknown; role?: string; model?: unknown; switched?: boolean }[] = [];
  // config.json's switches are written one after another (two models can switch in one item)
  let modeSwitch: Promise<void> = Promise.resolve();
  const initLlm = (llm: unknown): Promise<ReplayInfo | undefined> =>
    (llmInit ??= (async () => {
      // the factory (and LangChain's OpenAI client) only for a run with a model: an offline run starts without it
      const factory = llm ? await import('../core/llm/factory.js') : undefined;
      const from = factory?.replaySourceOf(llm);
      const settings = factory?.recordedModelSettings(llm);
      if (factory && settings) {
        const read = (m: unknown) => factory.recordedModelSettings(m)?.structuredOutput;
        readMode = read;
        modeAtStart.push({ mode: settings.structuredOutput });
        for (const [role, m] of Object.entries(opts.roleModels ?? {}))
          if (m !== llm && read(m) !== undefined) modeAtStart.push({ mode: read(m), role, model: m });
      }
      if (from && resolve(from) === resolve(runDir)) throw errors.runInvalid(runDir, 'is the run being replayed; give the replay a new --run-dir');
      // a replay is checked against its recording before anything of it is written
      // lexcase's own fields are read only in a recording of a lexcase system (as a resume reads them)
      const info = from ? await replayInfo(from, config, seed, { lexcaseSystem: prov.lexcaseSystem ?? null }) : undefined;
      // a resume's model against the one its earlier items were made with (llm/model.json): a run whose
      // config does not record the model (a system of your own) would go on with another one unseen
      if (settings && !from && byId.size) await assertSameModel(runDir, settings);
      // the endpoint's preflight a `run <system>` deferred (core/llm/deferred-preflight.ts), when it was not made before
      // config.json was written (deferredPreflights: a makeContext of the caller's own); its error stops the run before any item's request
      await runDeferredPreflight(llm);
      if (settings) await writeModelSettings(runDir, settings);
      if (llm && !from) {
        identity = await import('../core/llm/server-identity.js');
        identity.hearForEveryModel();
      }
      if (!from || !info) return undefined;
      const cfgFile = (await readConfig(runDir)) as RunConfigFile | undefined;
      // a recording without exchange digests (an older lexcase's): checked by the lines' counts only, said once here and in report.md
      const undigested = info.undigested.length ? undigestedText(from, info.undigested, info.order.length) : undefined;
      if (undigested) log.warn(undigested);
      // the recording's interrupts (the requests of items under way at a stop, in no line) and the resumes that ran those
      // items again are its history, which the replay's report says as the recording's did (before: dropped, with the
      // tokens they spent)
      const history = await recordedStops(from);
      if (cfgFile)
        await writeJsonAtomic(configPath(runDir), { ...cfgFile, replayOf: from, ...history, ...(undigested ? { replayWarnings: [undigested] } : {}) });
      return info;
    })());
  /**
   * A switch of a model's structured-output mode (the endpoint refused it) is recorded in config.json,
   * once per model and process; a role model's (opts.roleModels) names its role.
   */
  const noteModeSwitches = (llm: unknown, itemId: string): Promise<void> => {
    if (!readMode) return modeSwitch;
    for (const start of modeAtStart) {
      if (start.switched) continue;
      const now = readMode(start.role ? start.model : llm);
      if (now === undefined || now === start.mode) continue;
      start.switched = true;
      const entry = { from: String(start.mode), to: String(now), item: itemId, at: new Date().toISOString(), ...(start.role ? { model: start.role } : {}) };
      modeSwitch = modeSwitch.then(async () => {
        const cfgFile = (await readConfig(runDir)) as RunConfigFile | undefined;
        if (cfgFile) await writeJsonAtomic(configPath(runDir), { ...cfgFile, structuredOutputSwitches: [...(cfgFile.structuredOutputSwitches ?? []), entry] });
      });
    }
    return modeSwitch;
  };
  const runOne = async (item: Item): Promise<void> => {
    if (setupError || writeError) return;
    if (opts.signal?.aborted) {
      aborted = true;
      return;
    }
    const itemSeed = deriveSeed(seed, item.id);
    const meter = opts.usage ? opts.usage.fork() : new UsageMeter();
    meter.window = retryIds.has(item.id) ? { ...attemptWindow, paidByReplaced: await paidByReplaced(item.id) } : attemptWindow;
    const recorder = new ToolRecorder();
    const tally = new RepairTally();
    const dense = new DenseSearchTally();
    const gold = opts.gold(item);
    const t0 = performance.now();
    let outcome: SystemOutcome;
    let ctx: SystemContext;
    try {
      ctx = await opts.makeContext(item, { seed: itemSeed });
    } catch (e) {
      // A context that cannot be built (index missing, bad option) is a setup error: stop the run.
      fail(e);
      return;
    }
    let replay: ReplayInfo | undefined;
    let xlog: ExchangeLog;
    try {
      replay = ctx.llm ? await initLlm(ctx.llm) : offlineReplay;
      const recorded = replay ? await readExchanges(replay.dir, item.id) : undefined;
      // the recording's exchanges of the item must be those of its line (a kill between the two writes leaves another attempt's)
      const line = replay?.recorded.get(item.id);
      if (recorded && line) assertLineExchanges(replay!.dir, line, recorded);
      xlog = new ExchangeLog(item.id, replay ? { dir: replay.dir, exchanges: recorded ?? [] } : undefined);
    } catch (e) {
      fail(e);
      return;
    }
    // the server's identity is heard again for this item (one GET /models, shared by the items in flight)
    identity?.hearAgain();
    // its requests are in no line until its line is written: a signal's handler counts them (src/cli/run-interrupt.ts),
    // and each is kept on disk as it is sent, for a resume after a kill that no handler saw (sent-journal.ts)
    if (!replay) xlog.onSent = () => noteSentRequest(runDir, item.id);
    // and the tokens its answered requests reported so far: a signal's handler records them beside the requests
    const leave = noteItemUnderWay(runDir, item.id, {
      get sent() {
        return xlog.sent;
      },
      get tokens() {
        return meter.snapshot().total;
      },
    });
    try {
      // ends the item's calls still in flight once its outcome is known (a sibling call failed it)
      const itemEnd = new AbortController();
      const signal = AbortSignal.any([itemSignal(ctx.signal), itemEnd.signal]);
      setMaxListeners(0, signal);
      try {
        outcome = await withExchangeLog(xlog, () =>
          withUsageScope(meter, () =>
            withToolRecorder(recorder, () =>
              withRepairTally(tally, () => withDenseSearchTally(dense, () => opts.system(item, { ...ctx, seed: ctx.seed ?? itemSeed, signal }))),
            ),
          ),
        );
      } catch (e) {
        if (runSignal.aborted) {
          if (opts.signal?.aborted) aborted = true;
          return;
        }
        if (isLexcaseError(e) && e.code === 'LLM_REPLAY_MISMATCH') {
          fail(e);
          return;
        }
        outcome = { prediction: null, trace: {}, error: errorText(e) };
      }
      // One cut of what the item's calls spent: those still in flight are cut off (recorded `abandoned`)
      // and waited for, then the exchanges and the tokens are taken together, so llm/<item>.jsonl holds
      // every call the totals count (before: calls finishing while the exchanges were written were
      // counted but not written, later ones counted nowhere).
      itemEnd.abort(new ItemEndedError(item.id));
      await xlog.settled();
      // the requests cut off, and those answered with an error after their retries (HTTP 400, …), are
      // counted beside the tokens: neither is in `calls`, and what they spent is in no total
      // in the order of the item's steps (concurrent calls by branch, record-replay.ts inCallBranches), not of their replies
      const exchanges = xlog.ordered();
      // cut off: sent and not answered; one that never got its concurrency slot (`unsent`) reached no server
      const abandoned = exchanges.filter((x) => x.abandoned && !x.unsent).length;
      const refused = exchanges.filter((x) => x.error && !x.abandoned).length;
      // failed attempts sent again (429, 5xx, a timeout, …): sent, yet in no call count or total; written
      // when 0 too, so a line without it is one an older lexcase wrote (the report says so: runRetriesUnrecorded)
      const retried = exchanges.reduce((n, x) => n + (x.retries ?? 0), 0);
      const cut = {
        exchanges,
        tokens: { ...meter.snapshot(), ...(abandoned ? { abandoned } : {}), ...(refused ? { refused } : {}), retried },
      };
      if (xlog.mismatch) {
        fail(xlog.mismatch);
        return;
      }
      if (runSignal.aborted && outcome.error) {
        if (opts.signal?.aborted) aborted = true;
        return;
      }
      if (writeError) return; // the run dir cannot be written: record nothing more
      // replies under another server identity than the run's earlier ones: two models' figures in one run, refused unless allowed
      const heardNow = replay ? undefined : serverIdentities(exchanges);
      const fresh = newIdentities(heardNow, identitiesHeard);
      // a resume of items that record no identity (an older lexcase): this attempt's cannot be checked against theirs, said once
      if (fresh.length && !identitiesHeard.size && earlierWithoutIdentity && !warnedIdentityGap) {
        warnedIdentityGap = true;
        log.warn(
          `${runDir}: the ${earlierWithoutIdentity} earlier item${earlierWithoutIdentity === 1 ? '' : 's'} that asked the LLM record no server identity (written by an older lexcase, or the server listed no model then): this attempt's replies, under ${fresh.join(', ')}, cannot be checked against theirs — a model swapped behind the same name since would not be seen`,
        );
      }
      // a name described another way than before (or two ways now); identities of other names are other models asked for (an evaluator model)
      const swapped = new Set(swappedIdentities([...identitiesHeard, ...fresh]));
      const changed = fresh.filter((f) => swapped.has(f));
      if (changed.length && !(opts.allowServerChange ?? identity?.serverChangeAllowed())) {
        fail(errors.serverChanged(runDir, serverChangeText(item.id, changed)));
        return;
      }
      for (const f of fresh) identitiesHeard.add(f);
      const staged: { exchanges?: StagedExchanges } = {};
      try {
        if (ctx.llm) await noteModeSwitches(ctx.llm, item.id);
        await recordItem(item, outcome, cut, replay, recorder, tally, dense, gold, itemSeed, t0, (s) => (staged.exchanges = s));
      } catch (e) {
        staged.exchanges?.drop(); // its exchanges never replace the earlier attempt's
        failWrite(e);
      }
    } finally {
      leave();
    }
  };

  /**
   * The requests the failed attempt a retry of `id` replaces got a reply to (its llm/<id>.jsonl, not
   * yet overwritten): their tokens are in `replacedAttempts`, so the retry's cache hits on them are
   * not an earlier attempt's too (core/llm/usage.ts `AttemptWindow`). None when the file is
   * unreadable: the hits then count as before.
   */
  const paidByReplaced = async (id: string): Promise<Set<string>> => {
    try {
      return new Set((await readExchanges(runDir, id)).filter((x) => x.reply).map((x) => x.key));
    } catch {
      return new Set();
    }
  };

  /** The failed attempts a retry of `id` replaces (its line and those it replaced), so their tokens stay in the run. */
  const replacedBy = (id: string): ResultRecord['replacedAttempts'] => {
    const failed = retryIds.has(id) ? byId.get(id) : undefined;
    if (!failed) return undefined;
    const before = failed.replacedAttempts;
    return { attempts: (before?.attempts ?? 0) + 1, tokens: addUsage(before?.tokens ?? emptyUsage(), failed.tokens ?? emptyUsage()) };
  };

  const recordItem = async (
    item: Item,
    outcome: SystemOutcome,
    cut: { exchanges: Exchange[]; tokens: TokenUsage },
    replay: ReplayInfo | undefined,
    recorder: ToolRecorder,
    tally: RepairTally,
    dense: DenseSearchTally,
    gold: string,
    itemSeed: number,
    t0: number,
    onStaged: (staged: StagedExchanges | undefined) => void,
  ): Promise<void> => {
    const ms = replay?.recorded.get(item.id)?.ms ?? Math.round(performance.now() - t0);
    // a replay is served the recorded replies, never the cache: what a killed attempt of the recording paid for its
    // cache hits (tokens.earlierAttempts) is the recording's, taken from its line as replacedAttempts is (below) —
    // before, the replay dropped it and said the recording had read usage otherwise
    const recordedTokens = replay?.recorded.get(item.id)?.tokens;
    const tokens =
      recordedTokens?.earlierAttempts && cut.tokens && !cut.tokens.earlierAttempts
        ? orderLike(recordedTokens, { ...cut.tokens, earlierAttempts: recordedTokens.earlierAttempts })
        : cut.tokens;
    if (replay?.recorded.has(item.id)) {
      replayedItems++;
      const diff = tokenDiff(replay.recorded.get(item.id)?.tokens, tokens);
      if (diff) replayTokenDiffs.set(item.id, diff);
    }
    // in place only with the item's line (below): a retry stopped before it keeps the earlier attempt's llm/<item>.jsonl;
    // removed by the caller when the record is not written (runOne)
    const staged = cut.exchanges.length ? await stageExchanges(runDir, item.id, cut.exchanges) : undefined;
    onStaged(staged);
    const error = outcome.error ? withoutTroubleshootingUrl(outcome.error) : undefined;
    const prediction = outcome.error ? (outcome.prediction ?? null) : outcome.prediction;
    const stepFailures = outcome.stepFailures && Object.keys(outcome.stepFailures).length ? outcome.stepFailures : undefined;
    const repairs = tally.toRecord();
    const denseSearches = dense.toRecord();
    const replacedAttempts = replay ? replay.recorded.get(item.id)?.replacedAttempts : replacedBy(item.id);
    if (repairs) for (const [field, n] of Object.entries(repairs)) repairedTotal.set(field, (repairedTotal.get(field) ?? 0) + n);
    const checksum = checksumOf?.(item);
    const shown = contentChecksum(item);
    const answeredBy = replyModels(cut.exchanges);
    if (answeredBy) for (const [m, n] of Object.entries(answeredBy)) replyModelTotal.set(m, (replyModelTotal.get(m) ?? 0) + n);
    const fingerprints = replyFingerprints(cut.exchanges);
    if (fingerprints) for (const [f, n] of Object.entries(fingerprints)) fingerprintTotal.set(f, (fingerprintTotal.get(f) ?? 0) + n);
    const fromCache = cacheSources(cut.exchanges);
    if (fromCache) for (const [c, n] of Object.entries(fromCache)) cacheSourceTotal.set(c, (cacheSourceTotal.get(c) ?? 0) + n);
    const answeredUnder = serverIdentities(cut.exchanges);
    callsTotal += tokens?.calls ?? 0;
    const record: ResultRecord = {
      id: item.id,
      prediction,
      gold,
      ...(checksum ? { itemChecksum: checksum } : {}),
      contentChecksum: shown,
      correct: !outcome.error && prediction !== null && prediction === gold, // the one rule (eval/metrics/failures.ts): failed = wrong
      ...(outcome.confidence !== undefined ? { confidence: outcome.confidence } : {}),
      ...(outcome.metrics ? { metrics: outcome.metrics } : {}),
      tokens,
      ms,
      ...(error ? { error } : {}),
      ...(stepFailures ? { stepFailures } : {}),
      ...(repairs ? { repairs } : {}),
      ...(denseSearches ? { denseSearches } : {}),
      ...(answeredBy ? { replyModels: answeredBy } : {}),
      ...(fingerprints ? { replyFingerprints: fingerprints } : {}),
      ...(fromCache ? { cacheSources: fromCache } : {}),
      ...(answeredUnder ? { serverIdentities: answeredUnder } : {}),
      // the exchanges written with this line (llm/<id>.jsonl, put in place with it): a replay refuses another attempt's
      ...(staged ? { exchangesSha256: staged.digest } : {}),
      ...(replacedAttempts ? { replacedAttempts } : {}),
    };
    // What the system returned, as results.jsonl's schema reads it back: a number where a string goes
    // (a confidence of 0.8, a prediction of 2), a metric that is NaN, Infinity or a string (JSON writes
    // the first two as null, which every report reads as "not applicable" and leaves out of the metric's
    // n) fails this item naming the field, as a trace of the wrong shape does. Before, such a metric was
    // left out of its n without a word, and a numeric confidence stopped the run with "cannot write the
    // run dir … free space or fix the disk".
    const checked = resultRecordSchema.safeParse(record);
    if (!checked.success) {
      record.error = errorText(
        errors.runInvalid(
          resultsPath(runDir),
          `the result of item "${item.id}" does not match its schema: ${firstIssue(checked.error)} (the system's outcome: prediction a string or null, confidence a string, metrics finite numbers, booleans or null)`,
        ),
      );
      record.prediction = null;
      record.correct = false;
      delete record.confidence;
      delete record.metrics;
    }
    const trace = {
      ...(outcome.trace ?? {}),
      id: item.id,
      runner: {
        prediction: record.prediction,
        gold,
        correct: record.correct,
        confidence: record.confidence,
        error: record.error,
        seed: itemSeed,
        ms,
        tokens,
        // the item's retrieval-tool calls in completion order (parallel calls in timing order); each
        // system's own trace keeps the model's order
        toolCalls: recorder.calls,
        ...(stepFailures ? { stepFailures } : {}),
        ...(repairs ? { repairs } : {}),
      },
    };
    try {
      await writeTrace(runDir, item.id, trace, traceSchema);
    } catch (e) {
      if (!isLexcaseError(e) || e.code !== 'RUN_INVALID') throw e; // a failed write stops the run
      // A trace of the wrong shape is this item's failure (kept readable: the runner's block only).
      record.error = errorText(e);
      record.prediction = null;
      record.correct = false;
      await writeTrace(runDir, item.id, {
        id: item.id,
        system: opts.config?.system,
        traceError: record.error,
        runner: { ...trace.runner, prediction: null, correct: false, error: record.error },
      });
    }
    appendChain = appendChain.then(() => resultsFile.write(record, staged?.commit));
    await appendChain;
    state.recorded++;
    state.done++;
    const earlier = results.findIndex((r) => r.id === item.id);
    if (earlier >= 0) results.splice(earlier, 1);
    results.push(record);
    ran++;
    if (record.error) failed++;
    if (record.correct) correct++;
    if (record.error) progress.fail();
    progress.increment();
    opts.onProgress?.({ id: item.id, done: skipped + ran, total: items.length, correct, failed });
  };

  /** The stop's sentence: what the server says now, under what the run's recorded items were answered. */
  const serverChangeText = (itemId: string, now: string[]): string => {
    const { items } = serverIdentitiesOf(results);
    const names = new Set(now.map(identityModel));
    const earlier = [...identitiesHeard]
      .filter((s) => names.has(identityModel(s)))
      .map((s) => `${s} (${(items.get(s) ?? 0).toLocaleString('en-US')} items recorded)`);
    return `the LLM server described the model otherwise during the run: item ${itemId} was answered under ${now.join(' and ')}${
      earlier.length ? `, the run's earlier replies under ${earlier.join(', ')}` : ''
    } (GET /models, heard again for each item: another model behind the same name?); the run stopped rather than mix two models' replies in one figure: item ${itemId} and the items in flight are not recorded`;
  };

  const limit = pLimit(Math.max(1, opts.concurrency ?? 1));
  try {
    await Promise.all(todo.map((it) => limit(() => runOne(it))));
  } finally {
    progress.stop();
    dropEmptySentDir(runDir);
  }
  if (writeError) throw errors.runWriteFailed(runDir, writeError, state.done, items.length);
  if (setupError) throw setupError;
  if (replyModelTotal.size)
    log.warn(
      `replies named a model other than the one asked (${String((config.model as { model?: unknown } | undefined)?.model ?? config.model)}): ${[
        ...replyModelTotal,
      ]
        .sort(([a], [b]) => a.localeCompare(b, 'en'))
        .map(([m, n]) => `${m} ×${n}`)
        .join(
          ', ',
        )} — a proxy or router answered with another model (or the provider named its snapshot); counted in results.jsonl ("replyModels") and report.md`,
    );
  // every run that got replies from the cache says how many and who wrote them (a model swapped behind one name is not that model)
  if (cacheSourceTotal.size)
    log.warn(
      cacheSourcesText(
        [...cacheSourceTotal].sort(([a], [b]) => a.localeCompare(b, 'en')),
        callsTotal,
      ),
    );
  // replies under more than one server identity (--allow-server-change): the run's figures came from two models
  const spans = serverIdentitiesText(results);
  if (spans)
    log.warn(
      `the server described the model otherwise during the run: replies were answered under ${swappedIdentitiesOf(results)} GET /models identities: ${spans} — another model behind the same name; counted in results.jsonl ("serverIdentities") and report.md`,
    );
  if (fingerprintTotal.size > 1)
    log.warn(
      `replies carried ${fingerprintTotal.size} system_fingerprints: ${[...fingerprintTotal]
        .sort(([a], [b]) => a.localeCompare(b, 'en'))
        .map(([f, n]) => `${f} ×${n}`)
        .join(
          ', ',
        )} — the endpoint's backend configuration changed during the run (a seed may not reproduce its replies); counted in results.jsonl ("replyFingerprints") and report.md`,
    );
  if (repairedTotal.size) {
    const n = [...repairedTotal.values()].reduce((a, b) => a + b, 0);
    log.warn(
      `values repaired: ${n} (${[...repairedTotal]
        .sort(([a], [b]) => a.localeCompare(b, 'en'))
        .map(([f, c]) => `${f}: ${c}`)
        .join(
          ', ',
        )}) — the model wrote numbers outside the schema's bounds (the server does not enforce minimum/maximum); each was clamped to its bound and is counted in results.jsonl ("repairs") and report.md`,
    );
  }
  const replayed = llmInit ? await llmInit : offlineReplay;
  if (replayed && replayTokenDiffs.size) log.warn(replayTokenDiffText(replayTokenDiffs, replayedItems, replayed.dir));
  if (replayed) {
    // the recorded order (items run concurrently finish in any order)
    const pos = new Map(replayed.order.map((id, i) => [id, i]));
    const byPos = (r: ResultRecord) => pos.get(r.id) ?? Number.MAX_SAFE_INTEGER;
    const all = (await repairResults(runDir)).records.sort((a, b) => byPos(a) - byPos(b));
    await rewriteResults(runDir, all);
    results.sort((a, b) => byPos(a) - byPos(b));
  }
  return { results, skipped, keptFailed, retried, ran, failed, aborted };
}

/**
 * The growing line's count: the items the grown selection adds, and apart from them the run's failed items run
 * again (before, "4 new items to run" counted 3 failed items retried among 1 new one).
 */
function grownText(added: number, retried: number): string {
  const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
  return `${added} new item${added === 1 ? '' : 's'} to run${retried ? `, and ${items(retried)} that failed earlier run again` : ''}`;
}
