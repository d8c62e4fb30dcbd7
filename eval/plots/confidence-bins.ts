/**
 * Reliability bins: accuracy (with its 95% Wilson interval, eval/stats) and item count per confidence bin. Numeric
 * confidences (numbers, or numeric strings, in [0, 1]) fall into `bins` equal-width bins with their
 * mean confidence; labels ("high", "low", "judge") are one bin each, ordered low → high where the
 * label is known. Items without a confidence are left out (and counted in `missing`). A bin's
 * interval is Wilson's (a proportion: honest for the few items a bin often holds).
 */
import { proportionInterval } from '../stats/index.js';
import type { ResultRecord } from '../types.js';
import type { ConfidenceBin } from './specs.js';

const LABEL_ORDER = ['very low', 'low', 'medium', 'judge', 'high', 'very high'];

const numeric = (c: unknown): number | undefined => {
  const x = typeof c === 'number' ? c : typeof c === 'string' && /^\s*-?\d*\.?\d+\s*$/.test(c) ? Number(c) : NaN;
  return Number.isFinite(x) && x >= 0 && x <= 1 ? x : undefined;
};

export function confidenceBins(
  results: readonly Pick<ResultRecord, 'confidence' | 'correct'>[],
  opts: { bins?: number; iterations?: number; seed?: number } = {},
): { bins: ConfidenceBin[]; missing: number; numeric: boolean } {
  const withConf = results.filter((r) => r.confidence !== undefined && r.confidence !== null && r.confidence !== '');
  const missing = results.length - withConf.length;
  const allNumeric = withConf.length > 0 && withConf.every((r) => numeric(r.confidence) !== undefined);
  const groups = new Map<string, { order: number; v: number[]; c: number[] }>();
  const nb = opts.bins ?? 5;
  for (const r of withConf) {
    let key: string;
    let order: number;
    if (allNumeric) {
      const x = numeric(r.confidence)!;
      const i = Math.min(nb - 1, Math.floor(x * nb));
      key = `${(i / nb).toFixed(1)}–${((i + 1) / nb).toFixed(1)}`;
      order = i;
    } else {
      key = String(r.confidence);
      const i = LABEL_ORDER.indexOf(key.toLowerCase());
      order = i >= 0 ? i : LABEL_ORDER.length;
    }
    if (!groups.has(key)) groups.set(key, { order, v: [], c: [] });
    const g = groups.get(key)!;
    g.v.push(r.correct ? 1 : 0);
    if (allNumeric) g.c.push(numeric(r.confidence)!);
  }
  const bins = [...groups]
    .sort(([a, x], [b, y]) => x.order - y.order || a.localeCompare(b))
    .map(([bin, g], i) => {
      const ci = proportionInterval(
        g.v.reduce((a, b) => a + b, 0),
        g.v.length,
      );
      return {
        bin,
        order: i,
        n: g.v.length,
        accuracy: ci.estimate,
        lo: ci.lo ?? 0,
        hi: ci.hi ?? 1,
        ...(allNumeric ? { meanConfidence: g.c.reduce((s, x) => s + x, 0) / g.c.length } : {}),
      };
    });
  return { bins, missing, numeric: allNumeric };
}
