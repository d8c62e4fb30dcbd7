/**
 * Wilson score interval for a proportion (successes out of n): unlike a percentile bootstrap it
 * does not collapse to [p, p] when every item agrees (2/2 → [34.2%, 100%], not [100%, 100%]),
 * so it stays honest at small n. Used for every 0/1 headline figure (accuracy, Recall@k with one
 * gold passage per query, convergence and abstention rates).
 */

/** Two-sided standard normal quantile for common levels (no table needed for 0.90/0.95/0.99). */
function zFor(level: number): number {
  const known: Record<string, number> = { '0.9': 1.6448536269514722, '0.95': 1.959963984540054, '0.99': 2.5758293035489004 };
  const z = known[String(level)];
  if (z === undefined) throw new RangeError(`wilsonCi: level must be 0.9, 0.95 or 0.99, got ${level}`);
  return z;
}

export interface WilsonCi {
  estimate: number;
  lo: number;
  hi: number;
  n: number;
  level: number;
}

export function wilsonCi(successes: number, n: number, level = 0.95): WilsonCi {
  if (!Number.isInteger(n) || n < 0 || !(successes >= 0 && successes <= n)) throw new RangeError(`wilsonCi: expected 0 ≤ successes ≤ n, got ${successes}/${n}`);
  if (n === 0) return { estimate: 0, lo: 0, hi: 1, n, level };
  const z = zFor(level);
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // clamp rounding noise at the ends (0/n → lo exactly 0, n/n → hi exactly 1)
  return { estimate: p, lo: successes === 0 ? 0 : Math.max(0, centre - half), hi: successes === n ? 1 : Math.min(1, centre + half), n, level };
}
