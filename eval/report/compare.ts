/**
 * compareRuns(a, b): two runs on the item ids both share, every difference B − A (second run minus
 * first; the one sign convention of every comparison lexcase prints), from the statistics module
 * (eval/stats/paired.ts): the paired percentile bootstrap interval of the difference (none below
 * n = 10) and the p-value of an exact paired test (McNemar for 0/1 outcomes, sign-flip for graded
 * values — never a bootstrap p-value).
 *
 * What is compared follows the system list (eval/systems.ts): retrieval runs by their retrieval
 * measures (Recall@k for each k both recorded, MRR from the first gold rank, a TREC run's measures),
 * never by "accuracy" (gold at rank 1); every other run by the headline metrics both runs' systems
 * name that declare a paired statistic (HeadlineMetric `paired`: macro-F1 for EMAR and ACAL, with the
 * paired swap test's p), then accuracy and each boolean per-item metric both report (e.g. CASE evidence
 * recall) — a metric both declare an outcome of every item (MAD's correctAfterRound<r>) over every
 * shared item, one that did not record it 0, as report.md's per-item table (eval/stats metricValueOf),
 * its row's `over` saying so. The first measure is the primary one: the 2×2 agreement table counts
 * the first per-item measure's items when it is 0/1.
 *
 * Items are paired by id where both runs recorded the same item (the same gold label and, where
 * recorded, content checksum: compare-pairs.ts); an id the runs hold for different items is left
 * out and counted in `pairingLines`, which every surface prints.
 *
 * Every surface (text, --json, the explorer) says how many of the shared items each run failed (an
 * error or no prediction; eval/metrics/failures.ts) and how they count: in accuracy as wrong, so a
 * run that failed most items shows it beside its difference; a retrieval run's failed item has no
 * measure and is left out of each n.
 */
import { errors } from '../../core/errors.js';
import { correctFlags, isFailed, isFailedIn } from '../metrics/failures.js';
import {
  diffIntervalText,
  diffText,
  disagreementNotes,
  metricValueOf,
  outcomeDeclarations,
  PAIRED_METHODS_NOTE,
  pairedDifference,
  pText,
  readableKinds,
  RESAMPLES,
  SEED,
  TEST_LABEL,
  testText,
  unrecordedCount,
  valueText,
  type MetricKinds,
  type PairedDifference,
  type Unit,
} from '../stats/index.js';
import { measureLabel, recallKs, type HeadlineMetric } from '../headline-metrics.js';
import { recordedMetricKinds, recordedSystemSpec, taskLabels, type SystemSpec } from '../systems.js';
import type { ResultRecord } from '../types.js';
import { codeSpan, table } from './format.js';
import { pairRecords, type Pair } from './compare-pairs.js';
import { readRun } from './read-run.js';
import type { RunData } from './types.js';
import { plannedItems, type RunWriter } from '../run-planned.js';
import { runWriter } from '../run-dir-guard.js';
import { runResumes, uncheckedResumeLines } from '../run-resumes.js';
import { serverPairingLine, serverSpanLine } from '../server-identities.js';
import { replyModelsPairingLine } from '../reply-models.js';
import { deepDifferences, stableJson } from '../resume-config.js';
import { bootstrapPairingLine } from './recorded-bootstrap.js';
import { LEVEL } from '../stats/settings.js';

export interface RunSide {
  dir: string;
  system?: string;
  /** Items in the run. */
  n: number;
  /** Of the shared items, those this run failed (an error or no prediction; a retrieval run: an error). */
  failed: number;
  /** Items config.json planned (provenance.items; null when not recorded): fewer results than that is a partial run. */
  planned: number | null;
  partial: boolean;
  /** A partial run a live lexcase process is still writing (it holds the dir's run.lock). */
  inProgress: boolean;
}

/** One compared measure: the paired difference B − A and the text every surface prints for it. */
export interface PairedMeasure extends PairedDifference {
  id: string;
  label: string;
  unit: Unit;
  /** A per-item outcome's denominator (declared `outcome` by both runs' systems): every shared item, with how many each run did not record (counted as 0). */
  over?: string;
  text: { a: string; b: string; diff: string; interval: string; p: string; test: string; pLine: string };
}

export interface Comparison {
  a: RunSide;
  b: RunSide;
  /** The sign of every difference: second run minus first. */
  sign: 'B − A';
  /** Items compared: ids both runs hold for the same item (eval/report/compare-pairs.ts). */
  shared: number;
  onlyA: number;
  onlyB: number;
  /** "not compared: 10 items only in A (e.g. mbe_1, …), 0 only in B": the items one run holds and the other lacks, the line every surface prints (null when none). */
  onlyLine: string | null;
  /** Ids both runs hold for different items (another gold label or content): left out of every figure. */
  different: number;
  /** Compared items whose content is not checked (a run by an older lexcase records no item checksum). */
  unchecked: number;
  /**
   * What `different` and `unchecked` mean here, and a line for each run that holds fewer items than it
   * planned (partial, or still being written), one line each, as every surface prints them (none when
   * every shared id is the same item, checked, and both runs are whole). Also whatever else makes the two
   * runs' figures not of one kind: replies under two server identities in one run (serverSpanLine), one
   * model name asked of two servers (serverPairingLine), replies naming other models (replyModelsPairingLine),
   * a resume that could not check a reading, and reports whose bootstrap settings differ (bootstrapPairingLine).
   */
  pairingLines: string[];
  /** Retrieval runs are compared by retrieval measures, the rest by accuracy and boolean per-item metrics. */
  judgedBy: 'retrieval measures' | 'accuracy';
  /** Every compared measure, the primary one first. */
  measures: PairedMeasure[];
  primary: PairedMeasure;
  /** Items with the primary 0/1 outcome in both / only A / only B / neither (null for a graded primary). */
  agreement: { both: number; onlyA: number; onlyB: number; neither: number } | null;
  /** Config fields whose values differ between the runs: field → [A, B]; with the lexcase version and commits where they differ (codeDiff). */
  configDiff: Record<string, [unknown, unknown]>;
  /** "failed among the shared items: A 0, B 11 (counted as wrong in accuracy)": the line every surface prints. */
  failedLine: string;
  /** Interval and test methods, in words. */
  note: string;
  /**
   * "not compared: hallucination accuracy, factor utilization recall (…)": headline figures both runs'
   * systems name that pool a per-item ratio (HeadlineMetric `perItem`) and declare no paired statistic,
   * so no row here is theirs; every surface prints it (null when none).
   */
  notComparedLine: string | null;
}

const show = (v: unknown) => (v === undefined ? '–' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Top-level config fields that differ (run dirs and paths aside, which always do). Values are compared
 * with their keys sorted: the same settings written in another key order are no difference.
 */
export function configDiff(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (/^(runDir|run-dir|out)$/i.test(k)) continue;
    if (stableJson(a[k]) !== stableJson(b[k])) out[k] = [a[k], b[k]];
  }
  return out;
}

/** The config differences in words, each at the deepest setting that differs: `indexContent.analyzer.stemmer: porter vs none`. */
function configDiffText(diff: Comparison['configDiff']): string {
  return Object.entries(diff)
    .flatMap(([k, [x, y]]) => deepDifferences(x, y, k).map((d) => `${d.path}: ${show(d.before)} vs ${show(d.after)}`))
    .join('; ');
}

/** The lexcase commits a run's items ran under: its provenance's (a merged run's every shard's) and each resume's (a merged run's every shard's: run-resumes.ts). */
export const commitsOf = (f: Pick<RunData['config'], 'provenance' | 'resumes' | 'mergedFrom'>): string => {
  const p = f.provenance ?? {};
  const shas = [...(p.gitShas?.map((g) => g.gitSha) ?? [p.gitSha]), ...runResumes(f).map((r) => r.gitSha)];
  return [...new Set(shas.filter((x): x is string => typeof x === 'string'))].join(', ');
};

/**
 * The lexcase version and commits that differ between two runs (config.json provenance): figures can
 * differ because the code did, which no config field shows — a run of the installed package beside
 * one of a checkout, or of two commits. Said beside the config differences.
 */
export function codeDiff(a: RunData['config'], b: RunData['config']): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  if (a.provenance.lexcaseVersion !== b.provenance.lexcaseVersion) out['lexcase version'] = [a.provenance.lexcaseVersion, b.provenance.lexcaseVersion];
  if (commitsOf(a) !== commitsOf(b)) out['lexcase commit'] = [commitsOf(a), commitsOf(b)];
  return out;
}

const sys = (r: RunData) => (typeof r.config.config.system === 'string' ? r.config.config.system : undefined);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

type Extract = (r: ResultRecord) => number | null;

/** The measures two runs are compared on, as per-item extractors (null: the item has no value). */
/** Retrieval measures in the order a comparison takes them: Recall@k by k first, then the others by name and k. */
function byRetrievalMeasure(x: string, y: string): number {
  const order = (k: string) => {
    const [m, at] = k.split('@');
    return [m === 'recall' ? 0 : 1, m, Number(at ?? 0)] as const;
  };
  const [a0, a1, a2] = order(x);
  const [b0, b1, b2] = order(y);
  return a0 - b0 || a1.localeCompare(b1, 'en') || a2 - b2;
}

/**
 * The depth both retrieval runs' MRR is compared within: each run records the first gold passage's rank
 * only within its own deepest k (config.ks), so a run ranked to 1,000 credits ranks 11–1,000 that one
 * ranked to 10 cannot. Before 2026-12-04 compare paired the two as they were, and two identical rankings
 * differed "significantly". Undefined when a run's depth is unknown; `line` when the depths differ.
 */
export function mrrDepth(A: RunData, B: RunData): { depth: number; line?: string } | undefined {
  const [a, b] = [A, B].map((r) => recallKs(r.results, r.config.config).at(-1));
  if (a === undefined || b === undefined) return undefined;
  const depth = Math.min(a, b);
  return a === b
    ? { depth }
    : { depth, line: `A ranked to ${a}, B to ${b}: MRR is compared within the top ${depth} for both (a first gold passage below rank ${depth} counts 0)` };
}

function measuresOf(
  pairs: readonly Pair[],
  retrieval: boolean,
  kinds: MetricKinds = {},
  depth?: { depth: number; line?: string },
): { id: string; label: string; unit: Unit; value: Extract }[] {
  const keysOf = (pick: (p: Pair) => ResultRecord) => new Set(pairs.flatMap((p) => Object.keys(pick(p).metrics ?? {})));
  const shared = [...keysOf((p) => p[0])].filter((k) => keysOf((p) => p[1]).has(k));
  if (retrieval) {
    const numeric = shared.filter(
      (k) => k !== 'firstRank' && k !== 'retrieved' && pairs.some(([x, y]) => num(x.metrics?.[k]) !== null && num(y.metrics?.[k]) !== null),
    );
    numeric.sort(byRetrievalMeasure);
    const out = numeric.map((k) => ({ id: k, label: measureLabel(k), unit: 'decimal' as const, value: (r: ResultRecord) => num(r.metrics?.[k]) }));
    if (shared.includes('firstRank')) {
      const cut = depth?.line ? depth.depth : Number.POSITIVE_INFINITY;
      const rr: Extract = (r) => {
        if (!r.metrics || !('firstRank' in r.metrics)) return null;
        const rank = num(r.metrics.firstRank);
        return rank && rank <= cut ? 1 / rank : 0;
      };
      const label = depth?.line ? `MRR (top ${depth.depth})` : 'MRR';
      out.splice(numeric.filter((k) => k.startsWith('recall@')).length, 0, { id: 'mrr', label, unit: 'decimal', value: rr });
    }
    return out;
  }
  // boolean metrics, and metrics both runs declare outcomes of every item (0/1 numbers too): an outcome's item without it counts 0
  const booleans = shared
    .filter((k) => kinds[k] === 'outcome' || pairs.some(([x, y]) => typeof x.metrics?.[k] === 'boolean' && typeof y.metrics?.[k] === 'boolean'))
    .sort();
  return [
    { id: 'accuracy', label: 'accuracy', unit: 'percent', value: (r) => correctFlags([r])[0] },
    ...booleans.map((k) => {
      const outcome = metricValueOf(k, kinds);
      return {
        id: k,
        label: k,
        unit: 'percent' as const,
        value: kinds[k] === 'outcome' ? outcome : (r: ResultRecord) => (typeof r.metrics?.[k] === 'boolean' ? (r.metrics[k] ? 1 : 0) : null),
      };
    }),
  ];
}

/**
 * The per-item metrics both runs declare outcomes of every item (eval/stats/metric-kinds.ts `outcome`:
 * MAD's correctAfterRound<r>), as their values allow (readableKinds): compared over every shared item,
 * one that did not record it 0, as report.md's per-item table gives each run's figure. A metric one run
 * declares so and the other not (`oneSided`) is compared over the items both recorded, its row saying so.
 */
function outcomeKinds(A: RunData, B: RunData): { kinds: MetricKinds; oneSided: Map<string, 'A' | 'B'> } {
  const { shared, mixed } = outcomeDeclarations([A, B].map((r) => readableKinds(r.results, recordedMetricKinds(r.config)).kinds));
  return { kinds: shared, oneSided: new Map([...mixed].map(([k, [a]]) => [k, a ? 'A' : 'B'])) };
}

/** A metric one run declares an outcome of every item and the other not: its row is over the items both recorded, and says so. */
function oneSidedOver(declares: 'A' | 'B', n: number): string {
  const other = declares === 'A' ? 'B' : 'A';
  return `over the ${n} shared item${n === 1 ? '' : 's'} both runs recorded it for: ${declares} declares it an outcome of every item (metric kind outcome: report.md counts an item without it as 0), ${other} does not, so items that did not record it are left out of both, not counted as 0`;
}

/** "over every shared item (n = 12); an item that did not record it counts as 0 (…): A 2, B 0 such items": an outcome row's denominator, per run. */
function outcomeOver(key: string, pairs: readonly Pair[]): string {
  const inA = pairs.map(([x]) => x);
  const inB = pairs.map(([, y]) => y);
  const a = unrecordedCount(key, inA);
  const b = unrecordedCount(key, inB);
  return `over every shared item (n = ${pairs.length}); an item that did not record it counts as 0 (metric kind outcome, as report.md's per-item table): A ${a}, B ${b} such item${a + b === 1 ? '' : 's'}`;
}

function measureText(d: PairedDifference, unit: Unit): PairedMeasure['text'] {
  return {
    a: valueText(d.a, unit),
    b: valueText(d.b, unit),
    diff: diffText(d.estimate, unit),
    interval: diffIntervalText(d, unit),
    p: pText(d.p),
    test: TEST_LABEL[d.test],
    pLine: testText(d),
  };
}

function paired(id: string, label: string, unit: Unit, a: number[], b: number[], o: { iterations?: number; seed?: number }): PairedMeasure {
  const d = pairedDifference(a, b, o);
  return { id, label, unit, ...d, text: measureText(d, unit) };
}

/**
 * The headline metrics both runs' systems name that declare a paired statistic (HeadlineMetric `paired`:
 * macro-F1, EMAR's and ACAL's), in A's order: each compared as it declares, wherever it stands in the headline.
 */
function pairedHeadlines(a: SystemSpec, b: SystemSpec): HeadlineMetric[] {
  return a.headline.filter((m) => m.paired && b.headline.some((x) => x.id === m.id && x.paired));
}

/**
 * The line naming the headline figures both systems give that the comparison has no row for: a pooled
 * figure (3-ply's hallucination accuracy: ΣN_h over ΣN_gt) is neither a paired statistic nor a per-item
 * value, so `compare` judged two 3-ply runs by accuracy alone, its headline figures left out without a word.
 */
function notComparedHeadlines(a: SystemSpec, b: SystemSpec): string | null {
  const left = a.headline.filter((m) => m.perItem && !m.paired && b.headline.some((x) => x.id === m.id));
  if (!left.length) return null;
  const names = left.map((m) => m.label).join(', ');
  return `not compared: ${names} (pooled over each run's items, no paired statistic: each run's figure is in its report.md and the explorer)`;
}

/**
 * TREC grid runs (`reproduce`'s trec cells): a topic a run returned no hit for has no measure (trec_eval skips
 * a topic with no line in the run file), so each row is over the topics both runs have hits for. Said with
 * the counts; before, five topics B found nothing for left both runs' rows with "failed: A 0, B 0", A's
 * column 0.770 beside its own report's 0.628.
 */
function trecNoHitsLine(a: Record<string, unknown>, b: Record<string, unknown>, pairs: readonly (readonly [ResultRecord, ResultRecord])[]): string | undefined {
  if (a.system !== 'trec' || b.system !== 'trec') return undefined;
  const noHit = (r: ResultRecord) => r.error === undefined && r.metrics?.retrieved === 0;
  const ids = pairs.filter(([x, y]) => noHit(x) || noHit(y)).map(([x]) => x.id);
  if (!ids.length) return undefined;
  const [na, nb] = [pairs.filter(([x]) => noHit(x)).length, pairs.filter(([, y]) => noHit(y)).length];
  const eg = `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}`;
  return `no hits among the ${pairs.length} shared topics: A ${na}, B ${nb} (${eg}): ${ids.length === 1 ? 'that topic is' : `those ${ids.length} topics are`} left out of every row for both runs, as trec_eval skips a topic with no line in the run file — each row is over the topics both runs returned hits for (\`eval run --complete\` of the run files would score them 0)`;
}

/** What a comparison does with a failed item, by what it judges. */
const FAILED_COUNTS: Record<Comparison['judgedBy'], string> = {
  accuracy: 'counted as wrong in accuracy',
  'retrieval measures': 'left out of every measure: no ranking recorded',
};

/** The first sentence of a comparison's note: which items Δ is over, and how a failed one counts. */
const SIGN_NOTE: Record<Comparison['judgedBy'], string> = {
  accuracy:
    'Δ = B − A on the items both runs hold, failed ones included: an item a run failed (an error or no prediction) counts as wrong in its accuracy; every other measure is over the items both runs scored (its n), but a metric both systems declare an outcome of every item is over every shared item (its line says so).',
  'retrieval measures': 'Δ = B − A on the items both runs scored (a failed item has no measure).',
};

/** The label set of a paired macro-F1: the task's, as both runs' systems give it (their union where they differ), else the labels of the items (macroLabels). */
function macroLabelsOf(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  if (!a?.length || !b?.length) return a?.length ? a : b;
  return [...new Set([...a, ...b])];
}

/**
 * The `--limit` the paired items lie under: the smaller of the runs' config.json `limit`s (items both runs
 * hold are within the shorter prefix of the split); undefined when neither run took one.
 */
function pairedLimit(a: unknown, b: unknown): number | undefined {
  const ls = [a, b].filter((l): l is number => typeof l === 'number');
  return ls.length ? Math.min(...ls) : undefined;
}

/** The comparison note (sign, failed items, methods) for comparisons judged by `judgedBy`. */
export const comparisonNote = (judgedBy: Comparison['judgedBy']): string => `${SIGN_NOTE[judgedBy]} ${PAIRED_METHODS_NOTE}`;

/**
 * "B is partial: 8 of 20 planned items …" for a run with fewer results than its config.json planned
 * (eval/run-planned.ts): its missing items are "only in A" with no other reason a config difference
 * could show, and a run still being written changes the figures as it goes.
 */
function completenessLine(side: 'A' | 'B', n: number, planned: number, writer: RunWriter | undefined): string {
  return writer
    ? `${side} is in progress: ${n} of ${planned} planned items so far (${writer.what}, pid ${writer.pid}, since ${writer.since}, is still writing it); this comparison is over the items done so far and changes as it runs`
    : `${side} is partial: ${n} of ${planned} planned items (the run stopped before the rest); this comparison is over the items it finished — resume it to compare the rest`;
}

/**
 * `runDirs`: where the two runs are on disk, to tell a run still being written (its run.lock held by a
 * live process) from one that stopped; default the runs' own `dir` (the explorer names runs by id).
 */
export function compareRunData(A: RunData, B: RunData, opts: { iterations?: number; seed?: number; runDirs?: readonly [string, string] } = {}): Comparison {
  // each run's system as its config.json records its writer (recordedSystemSpec): a system of the user's own named
  // "retrieval" (or "threeply") is judged by accuracy and paired by id, never as lexcase's of that name
  const specA = recordedSystemSpec(A.config);
  const specB = recordedSystemSpec(B.config);
  // one id, one item: ids the runs hold for different items (gold or content) are left out, and said so
  const pairing = pairRecords(A.results, B.results, !!(specA.itemChecksum || specB.itemChecksum));
  const { pairs } = pairing;
  if (pairing.sharedIds === 0) throw errors.runInvalid(`${A.dir} vs ${B.dir}`, 'the two runs share no item ids; nothing to compare');
  if (pairs.length === 0) throw errors.runInvalid(`${A.dir} vs ${B.dir}`, `${pairing.differentText}: nothing to compare; compare runs of the same items`);
  if (!!specA.retrieval !== !!specB.retrieval)
    throw errors.runInvalid(
      `${A.dir} vs ${B.dir}`,
      `${specA.retrieval ? 'A' : 'B'} is a retrieval run (judged by Recall@k and MRR), the other is not: compare runs of the same kind`,
    );
  const retrieval = !!specA.retrieval;
  const measures: PairedMeasure[] = [];
  // the headline metrics that declare their paired statistic (macro-F1: EMAR, ACAL), first, as each declares it, over the task's labels
  const heads = retrieval ? [] : pairedHeadlines(specA, specB);
  const labels = macroLabelsOf(taskLabels(specA, A.config.config), taskLabels(specB, B.config.config));
  const limit = pairedLimit(A.config.config.limit, B.config.config.limit);
  for (const h of heads) {
    const d = h.paired!.compute(pairs, { labels, seed: opts.seed, iterations: opts.iterations, ...(limit !== undefined ? { limit } : {}) });
    measures.push({ id: h.id, label: h.label, unit: h.paired!.unit, ...d, text: measureText(d, h.paired!.unit) });
  }
  // a per-item metric both runs declare an outcome of every item is over every shared item, one without it 0 (eval/stats metricValueOf)
  const { kinds, oneSided } = outcomeKinds(A, B);
  const depth = retrieval ? mrrDepth(A, B) : undefined;
  const perItem = measuresOf(pairs, retrieval, kinds, depth);
  for (const m of perItem) {
    const both = pairs.map(([x, y]) => [m.value(x), m.value(y)] as const).filter((v): v is readonly [number, number] => v[0] !== null && v[1] !== null);
    if (both.length)
      measures.push({
        ...paired(
          m.id,
          m.label,
          m.unit,
          both.map((v) => v[0]),
          both.map((v) => v[1]),
          opts,
        ),
        ...(kinds[m.id] === 'outcome'
          ? { over: outcomeOver(m.id, pairs) }
          : oneSided.has(m.id)
            ? { over: oneSidedOver(oneSided.get(m.id)!, both.length) }
            : {}),
      });
  }
  if (measures.length === 0) throw errors.runInvalid(`${A.dir} vs ${B.dir}`, 'the two runs share no measure on their shared items; nothing to compare');
  const primary = measures[0];
  // the 2×2 table counts the first per-item 0/1 measure's items (accuracy where a paired headline statistic leads)
  const first = measures[heads.length];
  let agreement: Comparison['agreement'] = null;
  if (first?.outcome === 'binary') {
    const m = perItem[0];
    agreement = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
    for (const [x, y] of pairs) {
      const a = m.value(x);
      const b = m.value(y);
      if (a === null || b === null) continue;
      if (a && b) agreement.both++;
      else if (a) agreement.onlyA++;
      else if (b) agreement.onlyB++;
      else agreement.neither++;
    }
  }
  const judgedBy: Comparison['judgedBy'] = retrieval ? 'retrieval measures' : 'accuracy';
  const failed = isFailedIn(retrieval);
  const failedA = pairs.filter(([x]) => failed(x)).length;
  const failedB = pairs.filter(([, y]) => failed(y)).length;
  const [dirA, dirB] = opts.runDirs ?? [A.dir, B.dir];
  const idsA = new Set(A.results.map((r) => r.id));
  const idsB = new Set(B.results.map((r) => r.id));
  const onlyA = [...idsA].filter((id) => !idsB.has(id));
  const onlyB = [...idsB].filter((id) => !idsA.has(id));
  const side = (r: RunData, dir: string, nFailed: number, label: 'A' | 'B') => {
    const { planned, partial } = plannedItems(r.config, r.results.length);
    const writer = partial ? runWriter(dir) : undefined;
    return {
      side: { dir: r.dir, system: sys(r), n: r.results.length, failed: nFailed, planned, partial, inProgress: !!writer },
      line: partial && planned !== null ? completenessLine(label, r.results.length, planned, writer) : undefined,
    };
  };
  const sa = side(A, dirA, failedA, 'A');
  const sb = side(B, dirB, failedB, 'B');
  return {
    a: sa.side,
    b: sb.side,
    sign: 'B − A',
    shared: pairs.length,
    onlyA: onlyA.length,
    onlyB: onlyB.length,
    onlyLine: onlyA.length || onlyB.length ? `not compared: ${onlyText(onlyA, 'A')}, ${onlyText(onlyB, 'B', false)}` : null,
    different: pairing.different,
    unchecked: pairing.unchecked,
    pairingLines: [
      ...pairing.lines,
      ...[
        sa.line,
        sb.line,
        serverSpanLine('A', A.results),
        serverSpanLine('B', B.results),
        serverPairingLine({ config: A.config.config, results: A.results }, { config: B.config.config, results: B.results }),
        replyModelsPairingLine(A.results, B.results),
        depth?.line,
        trecNoHitsLine(A.config.config, B.config.config, pairs),
      ].filter((l): l is string => l !== undefined),
      // a run resumed over a config.json that lacked (or held an older value of) a reading: its items mix two (eval/run-resumes.ts)
      ...uncheckedResumeLines(runResumes(A.config)).map((l) => `A: ${l}`),
      ...uncheckedResumeLines(runResumes(B.config)).map((l) => `B: ${l}`),
      // each run's report.md (and the explorer's per-run figures) computed its intervals with its recorded bootstrap
      ...[
        bootstrapPairingLine(
          A.config.config,
          B.config.config,
          { iterations: primary.iterations, seed: primary.seed },
          { iterations: RESAMPLES, seed: SEED, level: LEVEL },
        ),
      ].filter((l): l is string => l !== undefined),
    ],
    judgedBy,
    measures,
    primary,
    agreement,
    configDiff: {
      ...configDiff(A.config.config, B.config.config),
      ...(A.config.seed !== B.config.seed ? { seed: [A.config.seed, B.config.seed] as [unknown, unknown] } : {}),
      ...codeDiff(A.config, B.config),
    },
    notComparedLine: retrieval ? null : notComparedHeadlines(specA, specB),
    failedLine: `failed among the shared items: A ${failedA}, B ${failedB} (${[FAILED_COUNTS[judgedBy], ...heads.map((h) => h.paired!.failed)].join('; ')})`,
    note:
      comparisonNote(judgedBy) +
      heads.map((h) => ` ${h.paired!.note}`).join('') +
      (primary.iterations !== RESAMPLES || primary.seed !== SEED
        ? ` This comparison: ${primary.iterations.toLocaleString('en-US')} resamples, seed ${primary.seed}.`
        : ''),
  };
}

/**
 * How an item counts as right in a run, as the comparison judges it: accuracy runs by `correct`
 * (a failed item is wrong); retrieval runs by a hit at the comparison's first measure, the Recall@k
 * of the smallest k the records hold (gold within the top k), not `correct` (gold at rank 1).
 * The explorer's item × run matrix and list of differing items mark ✓ by it.
 */
export function itemJudge(run: Pick<RunData, 'config' | 'results'>): { label: string; right: (r: ResultRecord) => boolean } {
  if (!recordedSystemSpec(run.config).retrieval) return { label: 'right', right: (r) => correctFlags([r])[0] === 1 };
  const k = [...new Set(run.results.flatMap((r) => Object.keys(r.metrics ?? {})))].filter((x) => /^recall@\d+$/.test(x)).sort(byRetrievalMeasure)[0];
  if (!k) return { label: 'right', right: (r) => correctFlags([r])[0] === 1 };
  return { label: `hit (${measureLabel(k)} > 0)`, right: (r) => (num(r.metrics?.[k]) ?? 0) > 0 };
}

export async function compareRuns(dirA: string, dirB: string, opts: { iterations?: number; seed?: number } = {}): Promise<Comparison> {
  const [A, B] = await Promise.all([readRun(dirA, { traces: false }), readRun(dirB, { traces: false })]);
  return compareRunData(A, B, opts);
}

/** "10 items only in A (e.g. mbe_137, mbe_581, mbe_222)" ("0 only in B" without `noun`): which items a comparison leaves out for lack of a partner. */
function onlyText(ids: readonly string[], side: 'A' | 'B', noun = true): string {
  const eg = ids.length ? ` (e.g. ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''})` : '';
  return `${ids.length}${noun ? ` item${ids.length === 1 ? '' : 's'}` : ''} only in ${side}${eg}`;
}

const withBlank = (lines: string[]) => (lines.length ? [...lines, ''] : []);

export function formatComparison(c: Comparison): string {
  const name = (s: RunSide, l: string) => `${l}: ${s.system ?? ''} ${codeSpan(s.dir)}`.replace(':  ', ': ');
  const rows = c.measures.map((m) => [m.label, m.n, m.text.a, m.text.b, m.text.diff, m.text.interval, m.text.p, m.text.test]);
  const ag = c.agreement;
  const what = c.judgedBy === 'accuracy' ? ['right', 'right'] : [`hit (${c.primary.label})`, 'hit'];
  return [
    `# Paired comparison (B − A) on ${c.shared} shared items`,
    '',
    `- ${name(c.a, 'A')}`,
    `- ${name(c.b, 'B')}`,
    ...(Object.keys(c.configDiff).length ? [`- config differences: ${configDiffText(c.configDiff)}`] : []),
    `- ${c.failedLine}`,
    ...(c.notComparedLine ? [`- ${c.notComparedLine}`] : []),
    ...c.pairingLines.map((l) => `- ${l}`),
    ...(c.onlyLine ? [`- ${c.onlyLine}`] : []),
    '',
    table(['measure', 'n', 'A', 'B', 'B − A', '95% interval of B − A', 'p', 'test'], rows),
    '',
    ...(ag ? [`Both ${what[0]} ${ag.both}, only A ${ag.onlyA}, only B ${ag.onlyB}, neither ${ag.neither}.`, ''] : []),
    ...withBlank(c.measures.filter((m) => m.over).map((m) => `${m.label}: ${m.over}.`)),
    ...withBlank(disagreementNotes(c.measures)),
    c.note,
  ].join('\n');
}
