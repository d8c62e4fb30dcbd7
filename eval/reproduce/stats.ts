/**
 * A recipe cell's value from a run's results: the statistic named by the cell's metric
 * (recipe.ts `Metric`) with the interval its measure kind gets from the statistics module
 * (eval/stats/): accuracy and micro-F1 (= accuracy) and a mean of 0/1 values (a hit, a boolean
 * flag) are proportions — Wilson; a mean of graded values, a pooled ratio and macro
 * precision/recall/F1 a seeded percentile bootstrap, none below n = 10.
 */
import { correctFlags } from '../metrics/failures.js';
import { classificationReport } from '../metrics/index.js';
import { perItemInterval, proportionInterval, statisticInterval, type Interval } from '../stats/index.js';
import type { ResultRecord } from '../types.js';
import type { Metric } from './recipe.js';

const num = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A label keeps the items with it; `{ not: label }` every other item (failed ones and ones without a label too). */
function confidenceMatches(r: ResultRecord, want: string | { not: string }): boolean {
  const label = String(r.confidence ?? '');
  return typeof want === 'string' ? label === want : label !== want.not;
}

export function selectRecords(records: readonly ResultRecord[], m: Metric): ResultRecord[] {
  const w = m.where;
  return records.filter(
    (r) =>
      (!w?.idPrefix || r.id.startsWith(w.idPrefix)) &&
      (w?.gold === undefined || r.gold === w.gold) &&
      (w?.confidence === undefined || confidenceMatches(r, w.confidence)) &&
      (m.stat !== 'mean' || num(r.metrics?.[m.key!]) !== null),
  );
}

/** The statistic over the records at `idx` (indices into `rs`, with repeats for a resample). */
function statistic(rs: readonly ResultRecord[], m: Metric): (idx: Int32Array) => number {
  switch (m.stat) {
    case 'mean':
      return (idx) => (idx.length ? [...idx].reduce((s, i) => s + num(rs[i].metrics?.[m.key!])!, 0) / idx.length : 0);
    case 'ratio':
    case 'one-minus-ratio': {
      const sign = m.stat === 'ratio' ? 1 : -1;
      return (idx) => {
        let a = 0,
          b = 0;
        for (const i of idx) (a += num(rs[i].metrics?.[m.num!]) ?? 0), (b += num(rs[i].metrics?.[m.den!]) ?? 0);
        const r = b === 0 ? 0 : a / b;
        return sign === 1 ? r : 1 - r;
      };
    }
    default: {
      const labels = [...new Set([...rs.map((r) => r.gold), ...rs.flatMap((r) => (r.prediction === null ? [] : [r.prediction]))])].sort();
      return (idx) => {
        const pick = [...idx].map((i) => rs[i]);
        const rep = classificationReport(
          pick.map((r) => r.prediction),
          pick.map((r) => r.gold),
          labels,
        );
        if (m.stat === 'macro-precision') return rep.macroPrecision;
        if (m.stat === 'macro-recall') return rep.macroRecall;
        if (m.stat === 'macro-f1') return rep.macroF1;
        return rep.accuracy; // micro-F1 of single-label classification over all labels = accuracy
      };
    }
  }
}

export function cellValue(records: readonly ResultRecord[], m: Metric, o: { seed?: number; iterations?: number } = {}): Interval {
  const rs = selectRecords(records, m);
  if (m.stat === 'accuracy' || m.stat === 'micro-f1')
    return proportionInterval(
      correctFlags(rs).reduce((a, b) => a + b, 0),
      rs.length,
    );
  if (m.stat === 'mean')
    return perItemInterval(
      rs.map((r) => num(r.metrics?.[m.key!])!),
      o,
    );
  return statisticInterval(rs.length, statistic(rs, m), o);
}
