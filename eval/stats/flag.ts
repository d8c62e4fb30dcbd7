/**
 * The "outside CI" flag of a reproduction cell: the paper's value lies outside lexcase's interval.
 * Raised only where the interval says something: n ≥ MIN_N and a non-degenerate interval (lo < hi).
 * Below, the flag is null with the reason, never true on [100, 100] from 2 items.
 */
import { MIN_N, TOO_FEW } from './settings.js';

export interface OutsideFlag {
  /** true: outside; false: inside; null: no flag (see `reason`). */
  outside: boolean | null;
  reason?: string;
}

export function outsideInterval(paper: number | null, ci: { lo: number | null; hi: number | null; n: number }): OutsideFlag {
  if (paper === null) return { outside: null, reason: 'no paper value' };
  if (ci.n < MIN_N) return { outside: null, reason: TOO_FEW };
  if (ci.lo === null || ci.hi === null) return { outside: null, reason: 'no interval' };
  if (!(ci.lo < ci.hi)) return { outside: null, reason: 'degenerate interval' };
  return { outside: paper < ci.lo || paper > ci.hi };
}
