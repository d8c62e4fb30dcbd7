/**
 * Galloping search in a chunk's ascending 16-bit doc low bits (decoded-postings.ts CompactList):
 * the block-max walk (block-max.ts) and the blocked walk's candidate look-ups (blocked-taat.ts)
 * skip ahead in a list with it.
 */

/** First index p in [from, end) with low[p] ≥ x (end when none); low is ascending there. */
export function gallop16(low: Uint16Array, from: number, end: number, x: number): number {
  if (from >= end || low[from] >= x) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < end && low[hi] < x) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (low[mid] < x) lo = mid;
    else hi = mid;
  }
  return hi;
}
