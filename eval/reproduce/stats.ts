/**
 * A recipe cell's value from a run's results: the statistic named by the cell's metric
 * (recipe.ts `Metric`) with a 95% percentile bootstrap CI over items (seeded, eval/bootstrap.ts).
 */
import { bootstrapStatisticCi, type Ci } from '../bootstrap.js';
import { classificationReport } from '../metrics/index.js';
import type { ResultRecord } from '../types.js';
import type { Metric } from './recipe.js';

const num = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' && Number.isFinite(v) ? v : null);

export function selectRecords(records: readonly ResultRecord[], m: Metric): ResultRecord[] {
  const w = m.where;
  return records.filter(
    (r) =>
      (!w?.idPrefix || r.id.startsWith(w.idPrefix)) &&
      (w?.gold === undefined || r.gold === w.gold) &&
      (w?.confidence === undefined || String(r.confidence ?? '') === w.confidence) &&
      (m.stat !== 'mean' || num(r.metrics?.[m.key!]) !== null),
  );
}

/** The statistic over the records at `idx` (indices into `rs`, with repeats for a resample). */
function statistic(rs: readonly ResultRecord[], m: Metric): (idx: Int32Array) => number {
  switch (m.stat) {
    case 'accuracy':
      return (idx) => (idx.length ? [...idx].reduce((s, i) => s + (rs[i].correct ? 1 : 0), 0) / idx.length : 0);
    case 'mean':
      return (idx) => (idx.length ? [...idx].reduce((s, i) => s + num(rs[i].metrics?.[m.key!])!, 0) / idx.length : 0);
    case 'ratio':
    case 'one-minus-ratio': {
      const sign = m.stat === 'ratio' ? 1 : -1;
      return (idx) => {
        let a = 0, b = 0;
        for (const i of idx) (a += num(rs[i].metrics?.[m.num!]) ?? 0), (b += num(rs[i].metrics?.[m.den!]) ?? 0);
        const r = b === 0 ? 0 : a / b;
        return sign === 1 ? r : 1 - r;
      };
    }
    default: {
      const labels = [...new Set([...rs.map((r) => r.gold), ...rs.flatMap((r) => (r.prediction === null ? [] : [r.prediction]))])].sort();
      return (idx) => {
        const pick = [...idx].map((i) => rs[i]);
        const rep = classificationReport(pick.map((r) => r.prediction), pick.map((r) => r.gold), labels);
        if (m.stat === 'macro-precision') return rep.macroPrecision;
        if (m.stat === 'macro-recall') return rep.macroRecall;
        if (m.stat === 'macro-f1') return rep.macroF1;
        return rep.accuracy; // micro-F1 of single-label classification over all labels = accuracy
      };
    }
  }
}

export function cellValue(records: readonly ResultRecord[], m: Metric, o: { seed?: number; iterations?: number } = {}): Ci {
  const rs = selectRecords(records, m);
  return bootstrapStatisticCi(rs.length, statistic(rs, m), { seed: o.seed ?? 13, iterations: o.iterations ?? 2000 });
}
