/** Reciprocal rank (cut at k): 1 / rank of the first relevant id within the top k, else 0. MRR@k is its mean. */
export function reciprocalRank(ranked: readonly string[], relevant: Iterable<string>, k = Infinity): number {
  const rel = new Set(relevant);
  const n = Math.min(k, ranked.length);
  for (let i = 0; i < n; i++) if (rel.has(ranked[i])) return 1 / (i + 1);
  return 0;
}

/** 1-based rank of the first relevant id in the ranking, or null when none was retrieved. */
export function firstRelevantRank(ranked: readonly string[], relevant: Iterable<string>): number | null {
  const rel = new Set(relevant);
  for (let i = 0; i < ranked.length; i++) if (rel.has(ranked[i])) return i + 1;
  return null;
}
