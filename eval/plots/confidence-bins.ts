/**
 * Reliability bins: accuracy (with its 95% Wilson interval, eval/stats) and item count per confidence bin, scored
 * as every figure is (eval/metrics/failures.ts: a failed item — an error or no prediction — counts as wrong).
 * Numeric confidences (numbers, or numeric strings, in [0, 1]) fall into `bins` equal-width bins with their
 * mean confidence; labels ("high", "low", "judge") are one bin each, ordered low → high where the
 * label is known (CONFIDENCE_LABEL_ORDER; any other label after them, alphabetically). Items without a confidence are in `unlabelled`, as report.md's "Accuracy by confidence"
 * has them: failed ones ("failed (no confidence)") and any others ("no confidence"), so the bins and
 * those rows add up to the run's items. A bin's interval is Wilson's (a proportion: honest for the
 * few items a bin often holds).
 */
import { correctFlags, isFailed } from '../metrics/failures.js';
import { proportionInterval } from '../stats/index.js';
import type { ResultRecord } from '../types.js';
import type { ConfidenceBin } from './specs.js';

/**
 * The known labels, low → high: the one order of report.md's "Accuracy by confidence" rows and the reliability
 * plot's bars (compareConfidenceLabels). CASE's jury (agents/case/majority-vote.ts) says "none" when no juror
 * gave a valid vote (no answer: the item fails) and "tie" when the top letters tied and a tie-break
 * decided: both are weaker than "low" (a strict plurality), "none" the weakest, so they come first.
 * CASE's offline solvers (agents/case/offline-solver.ts, ir-solver.ts) say "none", "tie" or, for a single
 * best-scoring option, "offline": stronger than their "tie", and on no jury's scale, so it comes after it.
 */
export const CONFIDENCE_LABEL_ORDER: readonly string[] = ['none', 'tie', 'very low', 'low', 'medium', 'judge', 'high', 'very high', 'offline'];

/** A label's place in CONFIDENCE_LABEL_ORDER (case-insensitive); an unknown label after every known one. */
export const confidenceLabelRank = (label: string): number => {
  const i = CONFIDENCE_LABEL_ORDER.indexOf(label.toLowerCase());
  return i >= 0 ? i : CONFIDENCE_LABEL_ORDER.length;
};

/** Confidence labels low → high (CONFIDENCE_LABEL_ORDER), unknown ones after them alphabetically: the table's and the plot's order. */
export const compareConfidenceLabels = (a: string, b: string): number => confidenceLabelRank(a) - confidenceLabelRank(b) || a.localeCompare(b, 'en');

/** The rows of items without a confidence label (the report's table and the plots): failed ones, and any others. */
export const FAILED_NO_CONFIDENCE = 'failed (no confidence)';
export const NO_CONFIDENCE = 'no confidence';

type Scored = Pick<ResultRecord, 'confidence' | 'error' | 'prediction' | 'gold'>;

/** Whether an item carries a confidence label (an empty one is none). */
export const hasConfidence = (r: Pick<ResultRecord, 'confidence'>): boolean => r.confidence !== undefined && r.confidence !== null && r.confidence !== '';

/** The row of an item without a confidence label: FAILED_NO_CONFIDENCE or NO_CONFIDENCE. */
export const unlabelledRow = (r: Scored): string => (isFailed(r) ? FAILED_NO_CONFIDENCE : NO_CONFIDENCE);

const numeric = (c: unknown): number | undefined => {
  const x = typeof c === 'number' ? c : typeof c === 'string' && /^\s*-?\d*\.?\d+\s*$/.test(c) ? Number(c) : NaN;
  return Number.isFinite(x) && x >= 0 && x <= 1 ? x : undefined;
};

const bin = (label: string, order: number, v: number[], c?: number[]): ConfidenceBin => {
  const ci = proportionInterval(
    v.reduce((a, b) => a + b, 0),
    v.length,
  );
  return {
    bin: label,
    order,
    n: v.length,
    accuracy: ci.estimate,
    lo: ci.lo ?? 0,
    hi: ci.hi ?? 1,
    // summed in a canonical (ascending) order: results.jsonl lists items as they finished (another order at
    // --concurrency 4, after a resume), and a float sum in another order differs in its last bit
    ...(c
      ? {
          meanConfidence:
            Float64Array.from(c)
              .sort()
              .reduce((s, x) => s + x, 0) / c.length,
        }
      : {}),
  };
};

export function confidenceBins(
  results: readonly Scored[],
  opts: { bins?: number; iterations?: number; seed?: number } = {},
): { bins: ConfidenceBin[]; unlabelled: ConfidenceBin[]; missing: number; numeric: boolean; n: number } {
  const flags = correctFlags(results);
  const withConf = results.flatMap((r, i) => (hasConfidence(r) ? [{ r, ok: flags[i] }] : []));
  const allNumeric = withConf.length > 0 && withConf.every(({ r }) => numeric(r.confidence) !== undefined);
  const groups = new Map<string, { order: number; v: number[]; c: number[] }>();
  const nb = opts.bins ?? 5;
  for (const { r, ok } of withConf) {
    let key: string;
    let order: number;
    if (allNumeric) {
      const x = numeric(r.confidence)!;
      const i = Math.min(nb - 1, Math.floor(x * nb));
      key = `${(i / nb).toFixed(1)}–${((i + 1) / nb).toFixed(1)}`;
      order = i;
    } else {
      key = String(r.confidence);
      order = confidenceLabelRank(key);
    }
    if (!groups.has(key)) groups.set(key, { order, v: [], c: [] });
    const g = groups.get(key)!;
    g.v.push(ok);
    if (allNumeric) g.c.push(numeric(r.confidence)!);
  }
  const bins = [...groups]
    .sort(([a, x], [b, y]) => x.order - y.order || a.localeCompare(b, 'en'))
    .map(([label, g], i) => bin(label, i, g.v, allNumeric ? g.c : undefined));
  const rest = new Map<string, number[]>([
    [FAILED_NO_CONFIDENCE, []],
    [NO_CONFIDENCE, []],
  ]);
  results.forEach((r, i) => {
    if (!hasConfidence(r)) rest.get(unlabelledRow(r))!.push(flags[i]);
  });
  const unlabelled = [...rest].filter(([, v]) => v.length).map(([label, v], i) => bin(label, bins.length + i, v));
  return { bins, unlabelled, missing: results.length - withConf.length, numeric: allNumeric, n: results.length };
}

/** What a reliability plot's caption says of its items: how many, and the ones without a label (shown as their own bars, or not placed on a probability axis). */
export function unlabelledNote(rel: { unlabelled: ConfidenceBin[]; numeric: boolean; n: number }): string {
  const parts = rel.unlabelled.map((b) => `${b.n} ${b.bin === FAILED_NO_CONFIDENCE ? 'failed (no confidence, counted as wrong)' : 'without a confidence'}`);
  if (!parts.length) return `${rel.n} items`;
  return `${rel.n} items, ${parts.join(' and ')}${rel.numeric ? ': not on the confidence axis' : ''}`;
}
