/**
 * The one reading of a per-item metric's values by its declared kind (./metric-kinds.ts), for every
 * surface that averages or compares one: report.md's per-item table, the reproduction tables
 * (eval/reproduce/stats.ts) and `lexcase compare` (eval/report/compare.ts: text, --json, the
 * explorer's compare page). A metric declared an `outcome` of every item (MAD's correctAfterRound<r>)
 * is over every item, one that did not record it (it failed before that step) counted as 0; any
 * other metric is over the items that recorded it. A declaration the values contradict (an outcome at
 * 0.5 on an item) is read as undeclared, by the values (kindConflict says so). Each surface says
 * which denominator a figure has (`denominatorText`).
 */
import { kindConflict, type MetricKinds } from './metric-kinds.js';

export interface MetricRecord {
  id: string;
  metrics?: Readonly<Record<string, unknown>> | null;
}

/** A boolean as 1 or 0, a finite number itself, anything else null (not recorded). */
export const recordedValue = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Per-item metric `key` of one item as its kind (`kinds`, as readableKinds gives them) counts it: the
 * value it recorded; where it recorded none, 0 for a metric declared an outcome of every item, else
 * null (the item is not in the metric's n).
 */
export function metricValueOf(key: string, kinds: MetricKinds = {}): (r: Pick<MetricRecord, 'metrics'>) => number | null {
  const outcome = kinds[key] === 'outcome';
  return (r) => recordedValue(r.metrics?.[key]) ?? (outcome ? 0 : null);
}

/**
 * The kinds the values allow: `declared`, less each declaration some item's value contradicts (an
 * outcome or proportion at 0.5, a share at 1.5), which is read as undeclared and said (`conflicts`:
 * metric → kindConflict's sentence).
 */
export function readableKinds(records: readonly MetricRecord[], declared: MetricKinds = {}): { kinds: MetricKinds; conflicts: Map<string, string> } {
  const kinds: Record<string, MetricKinds[string]> = { ...declared };
  const conflicts = new Map<string, string>();
  for (const key of Object.keys(declared)) {
    const items = records.flatMap((r) => {
      const value = recordedValue(r.metrics?.[key]);
      return value === null ? [] : [{ id: r.id, value }];
    });
    const conflict = kindConflict(key, declared[key], items);
    if (conflict) {
      conflicts.set(key, conflict);
      delete kinds[key];
    }
  }
  return { kinds, conflicts };
}

/**
 * Several runs' kinds (each as readableKinds gives them) side by side: `shared`, the metrics every run
 * declares an outcome of every item (each run's figure over every item, one without it 0); `mixed`,
 * those some declare so and others not — metric → for each run, whether it does (its figure is then
 * over every item in one run and over the items that recorded it in another). `lexcase compare`
 * (eval/report/compare.ts) sets two runs side by side, a reproduction table (eval/reproduce/table.ts)
 * a column's runs.
 */
export function outcomeDeclarations(runs: readonly MetricKinds[]): { shared: MetricKinds; mixed: Map<string, boolean[]> } {
  const shared: Record<string, 'outcome'> = {};
  const mixed = new Map<string, boolean[]>();
  for (const key of new Set(runs.flatMap((k) => Object.keys(k)))) {
    const declares = runs.map((k) => k[key] === 'outcome');
    if (declares.every(Boolean)) shared[key] = 'outcome';
    else if (declares.some(Boolean)) mixed.set(key, declares);
  }
  return { shared, mixed };
}

/** How many of `records` recorded no value of `key`. */
export const unrecordedCount = (key: string, records: readonly MetricRecord[]): number =>
  records.filter((r) => recordedValue(r.metrics?.[key]) === null).length;

/**
 * A figure's denominator in words: "every item (n = 12), the 2 that did not record it counted as 0
 * (metric kind outcome)" for an outcome, "the 10 items that recorded it" for any other metric.
 * `what` names the items ("item", "shared item").
 */
export function denominatorText(key: string, records: readonly MetricRecord[], kinds: MetricKinds = {}, what = 'item'): string {
  const missing = unrecordedCount(key, records);
  const n = records.length;
  const s = (k: number) => (k === 1 ? '' : 's');
  if (kinds[key] === 'outcome') return `every ${what} (n = ${n})${missing ? `, the ${missing} that did not record it counted as 0` : ''} (metric kind outcome)`;
  return `the ${n - missing} ${what}${s(n - missing)} that recorded it${missing ? ` (${missing} of ${n} did not and are left out)` : ''}`;
}
