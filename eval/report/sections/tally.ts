/**
 * Per-key counts summed over a run's results (a result's `repairs` or `stepFailures`: key → count):
 * for each key with a non-zero count, the total and the number of items that had it, sorted by key.
 */
import type { ResultRecord } from '../../types.js';

export function tallyPerKey(
  results: readonly ResultRecord[],
  counts: (r: ResultRecord) => Record<string, number> | undefined,
): [string, { total: number; items: number }][] {
  const keys = new Map<string, { total: number; items: number }>();
  for (const r of results)
    for (const [key, n] of Object.entries(counts(r) ?? {})) {
      if (!n) continue;
      const t = keys.get(key) ?? { total: 0, items: 0 };
      t.total += n;
      t.items++;
      keys.set(key, t);
    }
  return [...keys].sort(([a], [b]) => a.localeCompare(b, 'en'));
}
