/**
 * nDCG@k with binary relevance: DCG = Σ_{i ≤ k, d_i relevant} 1 / log2(i + 1), normalised by the
 * ideal DCG of min(|relevant|, k) relevant documents at the top. 0 when there is no relevant id.
 */
export function ndcgAtK(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const rel = new Set(relevant);
  if (rel.size === 0) return 0;
  let dcg = 0;
  const n = Math.min(k, ranked.length);
  for (let i = 0; i < n; i++) if (rel.has(ranked[i])) dcg += 1 / Math.log2(i + 2);
  let idcg = 0;
  for (let i = 0; i < Math.min(rel.size, k); i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}
