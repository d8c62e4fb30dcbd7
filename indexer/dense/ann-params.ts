/**
 * IVF-PQ parameters for the dense table, chosen from the row count and dimension:
 *
 * - partitions ≈ √N (the usual IVF rule: a query probes a few lists of ~√N vectors each), clamped
 *   to [1, 4096] and to N/256 so every centroid trains on enough vectors;
 * - sub-vectors = dim/16 (16 dimensions per PQ code, 8 bits each), lowered until it divides dim
 *   (LanceDB requires that); for 384-dim: 24 sub-vectors, i.e. 24 bytes per vector;
 * - at query time nprobes ≈ 5% of partitions (at least 20) and refineFactor 40: the PQ shortlist
 *   of 40·k candidates is re-ranked with the exact vectors. On clustered 384-dim data
 *   (bench/dense-ann.ts, 100K) refine was the lever: recall@10 vs flat 0.71 at refine 10, 0.87 at
 *   20, 0.99 at 40, while doubling nprobes changed nothing. Both can be overridden per query.
 *
 * Below `annThreshold` rows (default 50,000) no index is built and LanceDB searches flat (exact).
 */
export const DEFAULT_ANN_THRESHOLD = 50_000;

export interface AnnParams {
  type: 'ivf_pq';
  numPartitions: number;
  numSubVectors: number;
  nprobes: number;
  refineFactor: number;
}

export function annParams(n: number, dim: number, overrides: Partial<AnnParams> = {}): AnnParams {
  const numPartitions = overrides.numPartitions ?? Math.max(1, Math.min(4096, Math.round(Math.sqrt(n)), Math.floor(n / 256) || 1));
  let sub = Math.max(1, Math.round(dim / 16));
  while (dim % sub !== 0) sub--;
  const numSubVectors = overrides.numSubVectors ?? sub;
  const nprobes = overrides.nprobes ?? Math.min(numPartitions, Math.max(20, Math.ceil(numPartitions * 0.05)));
  const refineFactor = overrides.refineFactor ?? 40;
  return { type: 'ivf_pq', numPartitions, numSubVectors, nprobes, refineFactor };
}
