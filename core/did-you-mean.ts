/**
 * "did you mean …?" for a mistyped name (method, dataset, corpus): the closest candidate by
 * Levenshtein distance (fastest-levenshtein), offered only when it is close enough to be a typo:
 * at most 2 edits (3 for names of 10+ characters; length − 1 for names of 3 characters or fewer).
 */
import { distance } from 'fastest-levenshtein';

export function closestName(input: string, candidates: readonly string[]): string | undefined {
  const a = input.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(a, c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  if (best === undefined || bestD === 0) return bestD === 0 ? best : undefined;
  const len = Math.max(a.length, best.length);
  const limit = len <= 3 ? len - 1 : Math.min(3, Math.max(2, Math.ceil(len / 3)));
  return bestD <= limit ? best : undefined;
}

/** `did you mean "bm25"? ` (with a trailing space) or '' when nothing is close. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const c = closestName(input, candidates);
  return c && c !== input ? `did you mean "${c}"? ` : '';
}
