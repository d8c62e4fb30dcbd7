/**
 * A reproduction table's columns whose mean of one per-item metric is over runs that read it two
 * ways: one run's system declares it an outcome of every item (MAD's correctAfterRound<r>: over every
 * item, one that did not record it 0), another's not (over the items that recorded it). The cells
 * then have different denominators — from the same results, 50.00 n=12 beside 60.00 n=10 — so the
 * table says so: a note naming the column, the metric and the runs each way, and each cell of a run
 * that does not declare it its own denominator (eval/stats outcomeDeclarations, as `lexcase compare`
 * pairs two runs' declarations).
 */
import { outcomeDeclarations, type MetricKinds } from '../stats/index.js';
import type { Recipe } from './recipe.js';

export interface MixedOutcomes {
  /** Whether the cell (column, metric key) is in a column that mixes the two readings. */
  has(column: string, key: string): boolean;
  /** One sentence per such column and metric, for the table's notes. */
  notes: string[];
}

/** `kinds`: each finished run's kinds as its values allow them (cellKinds); runs without results are not in it. */
export function mixedOutcomeColumns(recipe: Recipe, kinds: ReadonlyMap<string, MetricKinds>): MixedOutcomes {
  const runsOf = new Map<string, Set<string>>(); // "column\0key" → the runs of its mean cells
  for (const row of recipe.rows)
    for (const c of row.cells) {
      if (c.metric.stat !== 'mean' || c.metric.key === undefined || !kinds.has(c.run)) continue;
      const at = `${c.column}\0${c.metric.key}`;
      runsOf.set(at, (runsOf.get(at) ?? new Set()).add(c.run));
    }
  const mixed = new Set<string>();
  const notes: string[] = [];
  for (const [at, set] of runsOf) {
    const [column, key] = at.split('\0');
    const runs = [...set];
    const declares = outcomeDeclarations(runs.map((r) => kinds.get(r)!)).mixed.get(key);
    if (!declares) continue;
    mixed.add(at);
    const yes = runs.filter((_, i) => declares[i]);
    const no = runs.filter((_, i) => !declares[i]);
    const names = (ids: string[]) => `${ids.length === 1 ? 'run' : 'runs'} ${ids.map((id) => `\`${id}\``).join(', ')}`;
    notes.push(
      `Column ${column} (mean of ${key}): ${names(yes)} ${yes.length === 1 ? 'declares' : 'declare'} it an outcome of every item (metric kind outcome: an item without it counted as 0, as report.md counts it), ${names(no)} ${no.length === 1 ? 'does' : 'do'} not (over the items that recorded it): the column's cells have different denominators, each cell says its own.`,
    );
  }
  return { has: (column, key) => mixed.has(`${column}\0${key}`), notes };
}
