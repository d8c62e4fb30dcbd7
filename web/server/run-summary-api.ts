/**
 * Run summaries for the runs list and the run page — system, dataset, model, method, k, n, the
 * system's headline figures from the system registry (eval/systems.ts: Recall@k/MRR for a
 * retrieval run, hallucination accuracy … for 3-ply, macro-F1 and convergence for EMAR and ACAL,
 * accuracy for the rest; their 95% intervals, methods and printed text from eval/stats, as report.md
 * has them), failures, tokens, date — plus the run page's plots (reliability diagram when the
 * run has confidences; MAD's accuracy per round when its traces carry verdicts) as the same
 * Vega-Lite specs report.md renders, a `run mad --seeds` run's consistency across seeds (report.md's
 * line), and a run's table.json when present (written by
 * `lexcase reproduce` recipes). Files are read defensively: a missing or malformed config, trace or
 * table is reported as absent, never as a failure of the page.
 */
import {
  cacheHitsText,
  runCacheCounts,
  runCutOffCount,
  runInterrupts,
  runPromptCacheText,
  runRefusedCount,
  runRetriedCount,
  runTokenTotal,
  underWayText,
  underWayTokensText,
} from '../../eval/run-counts.js';
import { existsSync } from 'node:fs';
import { readRegularFile } from '../../core/read-regular.js';
import { join } from 'node:path';
import { headlineFigures, modelOf, recordedSystemSpec, systemSpec } from '../../eval/systems.js';
import { SMALL_N } from '../../eval/headline-metrics.js';
import { isFailedIn } from '../../eval/metrics/failures.js';
import { confidenceBins, unlabelledNote } from '../../eval/plots/confidence-bins.js';
import { madFinalRound, roundAccuracy } from '../../eval/plots/round-accuracy.js';
import { gridSpec, reliabilitySpec, roundAccuracySpec, runColours, type GridPoint, type PlotSpec } from '../../eval/plots/specs.js';
import { configPath, parseConfig, parseResults, readResults, resultsPath, runFileReadError, type ParsedResults } from '../../eval/run-dir.js';
import type { ResultRecord } from '../../eval/types.js';
import { publicRunConfig } from '../../serve/http/public-json.js';
import { recordedBootstrap } from '../../eval/report/recorded-bootstrap.js';
import { reproProvenance } from './repro-provenance.js';
import { reproTableNow } from './repro-table.js';
import { contentKey, readKeyed, type KeyedText } from './content-key.js';
import type { RunSummary } from '../common/run-summary-types.js';
import { plannedItems } from '../../eval/run-planned.js';
import { runResumes, uncheckedResumeLines } from '../../eval/run-resumes.js';
import { runWriter } from '../../eval/run-dir-guard.js';
import { resolvesInside, servable, type RunEntry } from './runs.js';
import { madSeedConsistency } from '../../agents/mad/report-section.js';

export const TABLE_FILE = 'table.json';

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The run's results, the last line of an id winning (as `lexcase report`). A results.jsonl that
 * cannot be read (a malformed line before the last) is the RUN_INVALID error `lexcase report` and
 * `lexcase compare` stop with, naming the line: never an empty run.
 */
export async function latestResults(run: RunEntry): Promise<ResultRecord[]> {
  return [...new Map((await readResults(run.dir)).records.map((r) => [r.id, r])).values()];
}

/**
 * The results a summary is over, and what the file said about them: `problem`, the error that
 * makes results.jsonl unreadable (its figures are then over no item, and the summary says why);
 * `droppedTail`, a truncated last line left out (as `lexcase report` warns).
 */
function summaryResults(run: RunEntry, read: KeyedText): { results: ResultRecord[]; problem: string | null; droppedTail: boolean } {
  try {
    const parsed = 'text' in read ? parseResults(read.text, resultsPath(run.dir)) : absentOrThrow(run, resultsPath(run.dir), read.error);
    return { results: [...new Map(parsed.records.map((r) => [r.id, r])).values()], problem: null, droppedTail: parsed.droppedTail };
  } catch (e) {
    return { results: [], problem: (e as Error).message, droppedTail: false };
  }
}

/** An absent results.jsonl is a run of no results yet (as readResults has it); any other failed read, its error (readRunFile's). */
function absentOrThrow(run: RunEntry, file: string, error: unknown): ParsedResults {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], validBytes: 0, droppedTail: false };
  throw runFileReadError(run.dir, file, error);
}

function configOf(run: RunEntry, read: KeyedText): Record<string, unknown> {
  try {
    return 'text' in read ? parseConfig(run.dir, read.text) : {};
  } catch {
    return {};
  }
}

/** Summaries by run dir, reused while results.jsonl, config.json and table.json hold the same bytes (content-key.ts). */
const cache = new Map<string, { key: string; summary: Promise<Omit<RunSummary, 'inProgress'>> }>();

/** A run's results.jsonl and config.json, each read once: what a summary is of and keyed by (content-key.ts readKeyed). */
interface RunFiles {
  results: KeyedText;
  config: KeyedText;
}

async function readRunFiles(run: RunEntry): Promise<RunFiles> {
  const [results, config] = await Promise.all([resultsPath(run.dir), configPath(run.dir)].map(readKeyed));
  return { results, config };
}

export async function runSummary(run: RunEntry): Promise<RunSummary> {
  return summaryOf(run, await readRunFiles(run));
}

/** The summary of the run's files as read (each once: the key is of the bytes a miss parses); the run page's plots are of the same read. */
async function summaryOf(run: RunEntry, { results, config }: RunFiles): Promise<RunSummary> {
  // table.json only where it may be served (the runs list checked the others): a link out of the runs root is not read
  const table = join(run.dir, TABLE_FILE);
  const key = [run.id, results.key, config.key, servable(run.root, table) ? await contentKey(table) : 'outside'].join('|');
  const hit = cache.get(run.dir);
  let summary = hit && hit.key === key ? hit.summary : undefined;
  if (!summary) {
    summary = computeSummary(run, results, config);
    const mine = summary;
    cache.set(run.dir, { key, summary: mine });
    mine.catch(() => {
      if (cache.get(run.dir)?.summary === mine) cache.delete(run.dir);
    });
  }
  const s = await summary;
  // asked on every request, never cached: a run that ends (or is killed) leaves its results as they are
  return { ...s, inProgress: s.partial && runWriter(run.dir) !== undefined };
}

async function computeSummary(run: RunEntry, resultsRead: KeyedText, configRead: KeyedText): Promise<Omit<RunSummary, 'inProgress'>> {
  const file = configOf(run, configRead);
  const cfg = (file.config ?? {}) as Record<string, unknown>;
  const { results, problem, droppedTail } = summaryResults(run, resultsRead);
  const prov = (file.provenance ?? {}) as Record<string, unknown>;
  const system = str(cfg.system) ?? (run.system === 'reproduce' ? 'reproduce' : null);
  // the figures of the system that wrote the run (recordedSystemSpec): a system of the user's own named "mad" gets accuracy, not MAD's
  const spec = str(cfg.system) ? recordedSystemSpec(file) : systemSpec(system);
  return {
    id: run.id,
    kind: run.kind,
    system,
    systemName: spec.name,
    // the items view by the system that wrote the run (recordedSystemSpec), not by its name: one of the user's own named "retrieval" shows its answers
    retrievalItems: spec.id === 'retrieval',
    dataset:
      [str(cfg.dataset) ?? str(cfg.task) ?? str(cfg.scenario) ?? (run.system === 'reproduce' ? (run.dataset ?? null) : null), str(cfg.split)]
        .filter(Boolean)
        .join(' ') || null,
    mode: str(cfg.mode),
    model: modelOf(cfg),
    method: spec.method(cfg),
    k: spec.k(cfg),
    n: results.length,
    // fewer results than config.json planned (a killed or interrupted run): its figures are over those only
    // an unreadable results.jsonl is not a run that stopped early: the problem says what it is
    ...(problem ? { planned: plannedItems(file, 0).planned, partial: false } : plannedItems(file, results.length)),
    resultsProblem: problem,
    droppedTail,
    resumeWarnings: uncheckedResumeLines(runResumes(file)),
    correct: results.filter((r) => r.correct).length,
    // the statistics module's seed and resamples (eval/stats), not the run's seed — or the resamples the run's own
    // report recorded (run acal --iterations): the same intervals as report.md
    figures: headlineFigures(spec, results, { config: cfg, ...recordedBootstrap(cfg, `${run.dir}/config.json`) }),
    smallN: results.length > 0 && results.length < SMALL_N,
    failures: results.filter(isFailedIn(!!spec.retrieval)).length, // the report's rule (eval/metrics/failures.ts): an error or no prediction; a retrieval run's: an error
    tokens: runTokenTotal(results),
    retriedTokens: results.reduce((s, r) => s + (r.replacedAttempts?.tokens.total ?? 0), 0),
    cutOff: runCutOffCount(results),
    refused: runRefusedCount(results),
    retried: runRetriedCount(results),
    ...interruptFigures(file),
    ...cacheFigures(results),
    promptCacheNote: runPromptCacheText(results),
    date: str(prov.createdAt),
    hasTable: existsSync(join(run.dir, TABLE_FILE)) && servable(run.root, join(run.dir, TABLE_FILE)),
    parent: run.parent ?? null,
  };
}

/** A run's table.json (any JSON), or null when absent, linked outside the runs root or malformed. */
export async function runTable(run: RunEntry): Promise<unknown> {
  const f = join(run.dir, TABLE_FILE);
  if (!existsSync(f) || !servable(run.root, f)) return null;
  try {
    return JSON.parse(await readRegularFile(f));
  } catch {
    return null;
  }
}

/** A MAD run's accuracy of the verdict after each round over every item (report.md's rule), else []. */
export async function madRounds(run: RunEntry, summary: RunSummary, results: ResultRecord[], file?: Record<string, unknown>) {
  if (!summary.system?.startsWith('mad')) return [];
  const config = file ?? configOf(run, await readKeyed(configPath(run.dir)));
  return roundAccuracy(results, madFinalRound(config.config as Record<string, unknown> | undefined));
}

export async function runPage(run: RunEntry) {
  // the summary, the plots and the config shown are of one read of each file
  const files = await readRunFiles(run);
  const summary = await summaryOf(run, files);
  const { results } = summaryResults(run, files.results);
  const cfg = configOf(run, files.config);
  const plots: { id: string; title: string; spec: PlotSpec }[] = [];
  // every item, as report.md's "Accuracy by confidence": failed items count as wrong, items without a label have their bar
  const rel = confidenceBins(results, { iterations: 1000 });
  if (rel.bins.length)
    plots.push({
      id: 'reliability',
      title: `Accuracy by confidence (reliability; ${unlabelledNote(rel)})`,
      spec: reliabilitySpec(rel.bins, `Accuracy by confidence (n per bin, 95% CI)`, rel.unlabelled),
    });
  const rounds = await madRounds(run, summary, results, cfg);
  if (rounds.length) plots.push({ id: 'mad-rounds', title: 'Accuracy of the verdict after each round', spec: roundAccuracySpec(rounds) });
  const provenance = run.system === 'reproduce' ? await reproProvenance(run) : null;
  // a reproduction whose grid run changed since table.json was written: the table as its runs make it now, said
  const table = summary.hasTable ? await reproTableNow(run, await runTable(run)) : null;
  const grid = run.system === 'reproduce' ? gridPlot(table) : null;
  if (grid) plots.push(grid);
  // `run mad --seeds`: report.md's "Consistency across N seeds" line, over the seed runs as they are now
  // (a seed run is read only where it resolves inside the runs root, as every file the explorer serves)
  const seeds = summary.system?.startsWith('mad') ? await madSeedConsistency(run.dir, results, (f) => resolvesInside(run.root, f)) : null;
  return { summary, config: cfg.config ? publicRunConfig(cfg.config) : null, plots, table, provenance, seedConsistency: seeds?.line ?? null };
}

/** A reproduction's table.json as a metric-vs-configuration chart: its columns on x, one line per row (null when it has fewer than two columns or no value). */
export function gridPlot(t: unknown): { id: string; title: string; spec: PlotSpec } | null {
  const o = t as {
    table?: string;
    columns?: unknown;
    rows?: { label?: string; cells?: { column?: string; value?: number | null; ci?: [number, number] | null; paper?: number | null }[] }[];
    scale?: number;
  };
  if (!o || !Array.isArray(o.columns) || o.columns.length < 2 || !Array.isArray(o.rows)) return null;
  const columns = o.columns.map(String);
  const points: GridPoint[] = o.rows.flatMap((r) =>
    (r.cells ?? [])
      .filter((c) => columns.includes(String(c.column)))
      .map((c) => ({
        series: String(r.label ?? '?'),
        config: String(c.column),
        value: typeof c.value === 'number' ? c.value : null,
        lo: c.ci ? c.ci[0] : null,
        hi: c.ci ? c.ci[1] : null,
        paper: typeof c.paper === 'number' ? c.paper : null,
      })),
  );
  if (!points.some((p) => p.value !== null)) return null;
  const title = `${o.table ?? 'Table'}: each row across the columns (95% CI; ◇ the paper)`;
  const rows = [...new Set(points.map((p) => p.series))];
  return {
    id: 'grid',
    title,
    spec: gridSpec(points, columns, o.scale === 100 ? 'lexcase and paper (%)' : 'lexcase and paper (fraction)', title, runColours(rows)),
  };
}

/** The requests of the items under way at the run's interrupts (config.json), and report.md's wording of them. */
function interruptFigures(file: Record<string, unknown>): { interrupted: number; interruptedNote: string | null } {
  const u = runInterrupts(file);
  return {
    interrupted: u.requests,
    interruptedNote: u.requests ? `${underWayText(u)} (in no results.jsonl line: in no figure${u.tokens ? `; ${underWayTokensText(u.tokens)}` : ''})` : null,
  };
}

/** The run's cache hits and the one wording of them (a fully cached run's 0 tokens is not left unexplained). */
function cacheFigures(results: Parameters<typeof runCacheCounts>[0]): { cacheHits: number; cacheNote: string | null } {
  const c = runCacheCounts(results);
  return { cacheHits: c.hits, cacheNote: c.hits ? cacheHitsText(c.hits, c.earlierAttempts) : null };
}
