/** Recall@k: the fraction of a query's relevant ids found in the top k of its ranking. */
export function recallAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const rel = new Set(relevant);
  if (rel.size === 0) return 0;
  let found = 0;
  const n = Math.min(k, ranked.length);
  for (let i = 0; i < n; i++) if (rel.has(ranked[i])) found++;
  return found / rel.size;
}

/** Hit@k (success@k): 1 when any relevant id is in the top k, else 0. Equals Recall@k with one gold id. */
export function hitAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const rel = new Set(relevant);
  const n = Math.min(k, ranked.length);
  for (let i = 0; i < n; i++) if (rel.has(ranked[i])) return 1;
  return 0;
}
