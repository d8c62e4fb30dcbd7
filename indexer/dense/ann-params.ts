/**
 * ANN index parameters for the dense table, chosen from the row count and dimension.
 *
 * Index types (LanceDB):
 * - `ivf_flat` (default): k-means partitions (IVF) holding the raw vectors, so distances inside the
 *   probed partitions are exact and recall depends only on how many partitions are probed;
 * - `ivf_pq`: IVF + product quantisation (dim/16 sub-vectors of 8 bits) with a refine step that
 *   re-scores refineFactor·k PQ candidates with the exact vectors;
 * - `ivf_hnsw_sq`: an HNSW graph per IVF partition over 8-bit scalar-quantised vectors (query knob `ef`).
 *
 * Defaults (see docs/dense.md for the sweep they come from):
 * - partitions ≈ √N for every type, clamped to [1, 4096] and to N/256 so each centroid trains on
 *   enough vectors;
 * - ivf_flat: nprobes = max(8, 2 % of partitions);
 * - ivf_pq: nprobes = max(20, 5 % of partitions), refineFactor 40 (the earlier default);
 * - ivf_hnsw_sq: nprobes = max(4, 1 % of partitions), ef = 100, m = 20, efConstruction = 150.
 *
 * Below `annThreshold` rows (default 50,000) no index is built and LanceDB searches flat (exact).
 */
export const DEFAULT_ANN_THRESHOLD = 50_000;

export const ANN_TYPES = ['ivf_flat', 'ivf_pq', 'ivf_hnsw_sq'] as const;
export type AnnType = (typeof ANN_TYPES)[number];
export const DEFAULT_ANN_TYPE: AnnType = 'ivf_flat';

export interface AnnParams {
  type: AnnType;
  numPartitions: number;
  /** IVF partitions probed per query. */
  nprobes: number;
  /** ivf_pq: PQ sub-vectors (must divide the dimension). */
  numSubVectors?: number;
  /** ivf_pq: re-rank refineFactor·k candidates with the exact vectors. */
  refineFactor?: number;
  /** ivf_hnsw_sq: graph degree and build-time beam. */
  m?: number;
  efConstruction?: number;
  /** ivf_hnsw_sq: query-time beam width. */
  ef?: number;
}

export function defaultPartitions(n: number): number {
  return Math.max(1, Math.min(4096, Math.round(Math.sqrt(n)), Math.floor(n / 256) || 1));
}

export function annParams(n: number, dim: number, overrides: Partial<AnnParams> = {}): AnnParams {
  const type = overrides.type ?? DEFAULT_ANN_TYPE;
  const numPartitions = overrides.numPartitions ?? defaultPartitions(n);
  const probes = (min: number, frac: number) => overrides.nprobes ?? Math.min(numPartitions, Math.max(min, Math.ceil(numPartitions * frac)));
  if (type === 'ivf_pq') {
    let sub = Math.max(1, Math.round(dim / 16));
    while (dim % sub !== 0) sub--;
    return { type, numPartitions, numSubVectors: overrides.numSubVectors ?? sub, nprobes: probes(20, 0.05), refineFactor: overrides.refineFactor ?? 40 };
  }
  if (type === 'ivf_hnsw_sq') {
    return { type, numPartitions, nprobes: probes(4, 0.01), m: overrides.m ?? 20, efConstruction: overrides.efConstruction ?? 150, ef: overrides.ef ?? 100 };
  }
  const p: AnnParams = { type, numPartitions, nprobes: probes(8, 0.02) };
  if (overrides.refineFactor !== undefined) p.refineFactor = overrides.refineFactor;
  return p;
}
