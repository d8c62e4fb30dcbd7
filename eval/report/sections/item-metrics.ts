/**
 * Per-item metrics the system put in results (`metrics`): booleans as rates (a proportion:
 * Wilson), numbers as means — with the interval of the values' rule (eval/stats perItemInterval,
 * docs/eval.md: 0 or 1 on every item is a proportion, Wilson; else a graded mean, bootstrap, none
 * below n = 10; a metric its system declares a count — forfeits, unresolvedCitations, a user's
 * `toolCalls` — always a graded mean: eval/stats/metric-kinds.ts, the kinds config.json records),
 * so a figure has the interval a reproduction table gives it — over the items that
 * have the metric (null = not applicable, skipped), or, for a metric its system declares an
 * outcome of every item (`outcome`: MAD's correctAfterRound<r>), over every item, one without it 0
 * (eval/stats outcomeInterval, as MAD's accuracy by round). CASE's
 * advocate evidence-recall flags land here. Not for retrieval runs: their per-query hits and ranks
 * are the Figures section's Recall@k and MRR. A gold flag (`gold…`) over items none of which has its
 * gold passage in the index (`goldInIndex: false`, eval/gold-in-index.ts) is not given, never 0%; when
 * some items have none, a line under the table says how many count as misses. Shares and ratios
 * print as percentages, means of counts and other values as decimals (a line says so where a table
 * holds both); a per-item ratio the system pools into a headline figure (HeadlineMetric `perItem`:
 * 3-ply's factorUtilizationRecall) reads "mean of per-item ratios", and a line says it is not that figure.
 */
import {
  figureText,
  type Interval,
  isOutcomeMetric,
  metricInterval,
  metricMeasure,
  methodLabel,
  outcomeInterval,
  proportionInterval,
  readableKinds,
  type MetricKind,
  type Unit,
} from '../../stats/index.js';
import { recordedMetricKinds, recordedSystemSpec } from '../../systems.js';
import { table } from '../format.js';
import { isFailed } from '../../metrics/failures.js';
import type { ResultRecord } from '../../types.js';
import type { SectionBuilder } from '../types.js';
import { GOLD_IN_INDEX, goldAbsentFor, goldCoverage, goldCoverageNote, NO_GOLD_IN_INDEX } from '../../gold-in-index.js';

export const itemMetricsSection: SectionBuilder = (run, o) => {
  // a retrieval run as its config.json records its writer (recordedSystemSpec): a system of the user's own named "retrieval" is judged by accuracy
  if (recordedSystemSpec(run.config).retrieval) return null;
  // a boolean per item is a rate (printed as a percent); a number a mean (printed as a decimal: 0 juror
  // abstentions on every item is still a count) — its interval by the values' rule, as every surface
  const keys = new Map<string, { kind: 'rate' | 'mean'; values: number[] }>();
  for (const r of run.results)
    for (const [k, v] of Object.entries(r.metrics ?? {})) {
      if (typeof v !== 'boolean' && typeof v !== 'number') continue;
      const e = keys.get(k) ?? { kind: typeof v === 'boolean' ? 'rate' : 'mean', values: [] };
      if (typeof v === 'number') e.kind = 'mean';
      e.values.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
      keys.set(k, e);
    }
  if (keys.size === 0) return null;
  const declared = recordedMetricKinds(run.config);
  // a declaration its values contradict (a proportion at 0.5 on an item) is read as undeclared, by the values, and said
  // (eval/stats readableKinds: the reading the reproduction tables and `lexcase compare` give it too)
  const { kinds, conflicts } = readableKinds(run.results, declared);
  // a metric its system declares an outcome of every item (eval/stats/metric-kinds.ts `outcome`: MAD's verdict after
  // each round, correctAfterRound<r>) is over every item, one that did not record it 0 — outcomeInterval, the code of
  // MAD's accuracy by round (eval/plots/round-accuracy.ts); any other over the items that recorded it. Before, this
  // table knew the rule only for MAD's round flags, by their name.
  const outcomes = [...keys.keys()].filter((k) => isOutcomeMetric(k, kinds));
  // the outcome rows where some item did not record the metric, and how many such items (said under the table)
  const unrecorded = new Map(outcomes.map((k) => [k, run.results.length - keys.get(k)!.values.length] as const).filter(([, n]) => n > 0));
  // a per-item ratio the system also pools into a headline figure (3-ply's factorUtilizationRecall): its row is the
  // mean of the items' own ratios, which the Figures section's pooled figure is not — said beside it and under the table
  const pooledBy = new Map(
    recordedSystemSpec(run.config)
      .headline.filter((m) => m.perItem)
      .map((m) => [m.perItem!, m.label] as const),
  );
  const json: Record<string, unknown> = {};
  const rows: (string | number)[][] = [];
  const units = new Set<Unit>();
  for (const [k, { kind, values }] of [...keys].sort(([a], [b]) => a.localeCompare(b, 'en'))) {
    if (kind === 'rate' && k.startsWith('gold') && k !== GOLD_IN_INDEX && goldAbsentFor(run.results, k)) {
      json[k] = { kind, measure: metricMeasure(kinds[k], { kind: 'proportion' }, true), n: values.length, value: null, note: NO_GOLD_IN_INDEX };
      rows.push([k, metricMeasure(kinds[k], { kind: 'proportion' }, true), values.length, NO_GOLD_IN_INDEX, '–']);
      continue;
    }
    const outcome = isOutcomeMetric(k, kinds);
    const ci = outcome
      ? outcomeInterval(k, run.results)
      : kind === 'rate'
        ? proportionInterval(
            values.reduce((a, b) => a + b, 0),
            values.length,
          )
        : metricInterval(k, values, o, kinds);
    const n = outcome ? run.results.length : values.length;
    // what the figure is: a share of items (Wilson) or a mean (bootstrap), said beside its interval's method
    const pooledFigure = pooledBy.get(k);
    const measure = pooledFigure ? MEAN_OF_RATIOS : metricMeasure(kinds[k], ci, kind === 'rate');
    // one unit per kind of figure: a share of items, a share or a ratio in %, a mean count or graded mean a decimal
    const unit = rowUnit(kind === 'rate', ci, kinds[k], !!pooledFigure);
    units.add(unit);
    json[k] = {
      kind,
      measure,
      unit,
      ...(pooledFigure ? { pooledFigure } : {}),
      ...(declared[k] ? { declared: declared[k] } : {}),
      ...(conflicts.has(k) ? { warning: conflicts.get(k) } : {}),
      n,
      value: ci.estimate,
      ci: { lo: ci.lo, hi: ci.hi, method: ci.method },
    };
    rows.push([k, measure, n, figureText(ci, unit), methodLabel(ci)]);
  }
  const gold = goldCoverageNote(goldCoverage(run.results));
  const warnings = [...[...conflicts].sort(([a], [b]) => a.localeCompare(b, 'en')).map(([, w]) => w), ...(gold ? [gold] : [])];
  return {
    id: 'itemMetrics',
    title: 'Per-item metrics',
    markdown:
      table(['metric', 'figure', 'n', 'value [95% interval]', 'interval'], rows) +
      notes(
        unitNote(units),
        pooledNote([...pooledBy].filter(([k]) => keys.has(k))),
        failedNote(run.results, unrecorded.size > 0),
        failedCountedNote(run.results, new Set(outcomes)),
        outcomeNote(unrecorded, run.results.length),
      ) +
      warnings.map((w) => `\n\n**Warning:** ${w}.`).join(''),
    json,
  };
};

/**
 * Where failed items recorded no metric, the line that says n is over the items that recorded one:
 * "n counts the items that recorded the metric: the 2 failed items recorded none and are in no row
 * (the Accuracy section counts them as wrong)." — "in no row but the outcome rows" where an outcome row counts them as 0 (outcomeNote).
 * Before, a row's n of 10 beside 12 items said nothing of why.
 */
function failedNote(results: readonly ResultRecord[], outcomeRows: boolean): string {
  const none = results.filter((r) => isFailed(r) && Object.keys(r.metrics ?? {}).length === 0).length;
  if (!none) return '';
  const where = outcomeRows ? 'in no row but the outcome rows (as 0, below)' : 'in no row';
  return `n counts the items that recorded the metric: the ${none} failed item${none === 1 ? '' : 's'} recorded none and ${none === 1 ? 'is' : 'are'} ${where} (the Accuracy section counts ${none === 1 ? 'it' : 'them'} as wrong).`;
}

/**
 * Where failed items recorded a metric (CASE's and MAD's counts of what ran before the failure), the
 * line that says they are in those rows: "The 2 failed items are in the abstentions and picksBeyondK
 * rows (n counts them), with what ran before each failed (its trace shows how far it got)." Outcome
 * rows are outcomeNote's. Before, such a row's n counted failed items with no word of it.
 */
function failedCountedNote(results: readonly ResultRecord[], outcomes: ReadonlySet<string>): string {
  const failed = results.filter((r) => isFailed(r));
  const rows = new Set<string>();
  let items = 0;
  for (const r of failed) {
    const keys = Object.entries(r.metrics ?? {}).filter(([k, v]) => (typeof v === 'number' || typeof v === 'boolean') && !outcomes.has(k));
    for (const [k] of keys) rows.add(k);
    if (keys.length) items++;
  }
  if (!items) return '';
  const names = [...rows].sort((a, b) => a.localeCompare(b, 'en'));
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const one = items === 1;
  return `The ${items} failed item${one ? ' is' : 's are'} in the ${list} row${names.length === 1 ? '' : 's'} (n counts ${one ? 'it' : 'them'}), with what ran before ${one ? 'it' : 'each'} failed (${one ? 'its' : 'each'} trace shows how far it got).`;
}

/** The measure of a row whose metric is a per-item ratio its system pools into a headline figure. */
const MEAN_OF_RATIOS = 'mean of per-item ratios';

/**
 * A row's unit: a share of items (a boolean, or 0/1 on every item: Wilson), a declared share or
 * proportion, or a per-item ratio (`pooled`) in percent, as the Figures section prints shares; a mean
 * count or graded mean (which can exceed 1) a decimal. Before, a 0/1 number's "share of items at 1"
 * printed 0.000 [0.000, 0.490] beside a boolean's "share of items" 0.0% [0.0, 49.0].
 */
function rowUnit(boolean: boolean, ci: Pick<Interval, 'kind'>, kind: MetricKind | undefined, pooled: boolean): Unit {
  return boolean || pooled || ci.kind === 'proportion' || kind === 'share' || kind === 'proportion' || kind === 'outcome' ? 'percent' : 'decimal';
}

/** Where the table holds both units, the line that says which rows are which. */
const unitNote = (units: ReadonlySet<Unit>): string =>
  units.size > 1 ? 'Shares and ratios are percentages; means of counts and other values (which can exceed 1) are decimals.' : '';

/**
 * The rows of per-item ratios the system also pools into a headline figure: "The
 * factorUtilizationRecall row is the mean of the items' own ratios (each item weighs the same; Wilson
 * where every item is 0 or 1, else a bootstrap over items): not the figure factor utilization recall,
 * which pools every item's counts into one ratio (Figures, with its own interval)." Before, 3-ply's
 * factorUtilizationRecall read 0.079 [0.017, 0.155] here and 7.9% [7.1, 8.9] in Figures with no word why.
 */
function pooledNote(rows: readonly (readonly [string, string])[]): string {
  if (!rows.length) return '';
  const sorted = [...rows].sort(([a], [b]) => a.localeCompare(b, 'en'));
  const and = (xs: string[]) => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  const one = sorted.length === 1;
  return (
    `The ${and(sorted.map(([k]) => k))} row${one ? ' is' : 's are'} the mean of the items' own ratios (each item weighs the same; Wilson where every item is 0 or 1, else a bootstrap over items): ` +
    `not the figure${one ? '' : 's'} ${and(sorted.map(([, l]) => l))}, which pool${one ? 's' : ''} every item's counts into one ratio (the Figures section, with its own interval).`
  );
}

/** The lines under the table, one paragraph (or nothing). */
const notes = (...lines: string[]): string => (lines.some(Boolean) ? `\n\n${lines.filter(Boolean).join(' ')}` : '');

/**
 * The outcome rows (declared `outcome`) where some item did not record the metric: "The
 * correctAfterRound1 and correctAfterRound2 rows count every item (n = 12), the 2 that did not record
 * them as 0: their system declares them outcomes of every item, as accuracy counts a failed item wrong."
 */
function outcomeNote(unrecorded: ReadonlyMap<string, number>, items: number): string {
  if (!unrecorded.size) return '';
  const names = [...unrecorded.keys()].sort((a, b) => a.localeCompare(b, 'en'));
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const counts = [...new Set(unrecorded.values())];
  const missing = counts.length === 1 ? `the ${counts[0]} that did not record ${names.length === 1 ? 'it' : 'them'}` : 'the items that did not record one';
  const one = names.length === 1;
  return `The ${list} row${one ? '' : 's'} count${one ? 's' : ''} every item (n = ${items}), ${missing} as 0: ${one ? 'its' : 'their'} system declares ${one ? 'it an outcome' : 'them outcomes'} of every item (metric kind \`outcome\`), as accuracy counts a failed item wrong.`;
}
