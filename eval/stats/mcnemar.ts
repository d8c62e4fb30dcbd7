/**
 * The exact McNemar test for two 0/1 outcomes on the same items: under "no difference" each of the
 * m items where the outcomes differ is A-only or B-only with probability ½, so the count of B-only
 * items is Binomial(m, ½); two-sided p = min(1, 2 · P(X ≤ min(aOnly, bOnly))). Exact at any n:
 * 2 differing items give p = 0.5, 4 give 0.125 — never the 0.001 a bootstrap printed.
 */

/** log P(X = k) for X ~ Binomial(m, ½), summed up to k in log space (no underflow at large m). */
function lowerTail(m: number, k: number): number {
  let logPmf = -m * Math.LN2; // P(X = 0)
  let logSum = logPmf;
  for (let i = 0; i < k; i++) {
    logPmf += Math.log((m - i) / (i + 1));
    const hi = Math.max(logSum, logPmf);
    logSum = hi + Math.log(Math.exp(logSum - hi) + Math.exp(logPmf - hi));
  }
  return Math.exp(logSum);
}

/** Two-sided exact McNemar p from the two discordant counts. */
export function mcnemarExact(aOnly: number, bOnly: number): number {
  if (!(Number.isInteger(aOnly) && Number.isInteger(bOnly) && aOnly >= 0 && bOnly >= 0))
    throw new RangeError(`mcnemarExact: counts must be non-negative integers, got ${aOnly}, ${bOnly}`);
  const m = aOnly + bOnly;
  if (m === 0) return 1;
  return Math.min(1, 2 * lowerTail(m, Math.min(aOnly, bOnly)));
}
