/**
 * Seeded synthetic embedding-like vectors for the ANN benchmark and tests: unit vectors drawn around
 * `clusters` random centroids (Gaussian noise, per-cluster spread), so nearest neighbours are
 * structured like real text embeddings rather than uniform noise (where ANN is meaningless).
 * Queries are fresh draws around a random centroid (not copies of data points).
 * Sub-seeds are the bare FNV-1a hash (core/rng.ts fnv1aSeed), as when docs/scale.md's figures were
 * measured, so the same seed still gives the same vectors.
 */
import { createRng, fnv1aSeed } from '../core/rng.js';

/** Fast seeded normal generator (xorshift128 + Box–Muller); bulk floats would be slow via pure-rand. */
function gaussian(seed: number): () => number {
  let x = seed | 0 || 1;
  let y = 362436069;
  let z = 521288629;
  let w = 88675123;
  const u = () => {
    const t = x ^ (x << 11);
    x = y;
    y = z;
    z = w;
    w = (w ^ (w >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return (w + 0.5) / 4294967296;
  };
  for (let i = 0; i < 16; i++) u();
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(u()));
    const th = 2 * Math.PI * u();
    spare = r * Math.sin(th);
    return r * Math.cos(th);
  };
}

function normalizeInPlace(a: Float32Array, off: number, dim: number): void {
  let s = 0;
  for (let j = 0; j < dim; j++) s += a[off + j] * a[off + j];
  const n = Math.sqrt(s) || 1;
  for (let j = 0; j < dim; j++) a[off + j] /= n;
}

export interface ClusteredVectors {
  dim: number;
  /** n × dim, row-major, unit rows. */
  data: Float32Array;
  queries: Float32Array;
  n: number;
  nQueries: number;
  row(i: number): Float32Array;
  query(i: number): Float32Array;
}

export function clusteredVectors(opts: { n: number; dim: number; queries: number; seed: number; clusters?: number }): ClusteredVectors {
  const { n, dim, seed } = opts;
  const clusters = opts.clusters ?? Math.max(4, Math.round(Math.sqrt(n) / 2));
  const rng = createRng(fnv1aSeed(seed, 'clusters'));
  const g = gaussian(fnv1aSeed(seed, 'noise'));
  const centroids = new Float32Array(clusters * dim);
  for (let i = 0; i < centroids.length; i++) centroids[i] = g();
  for (let c = 0; c < clusters; c++) normalizeInPlace(centroids, c * dim, dim);
  // Per-cluster spread: noise of norm ≈ 0.6–1.2 relative to the unit centroid.
  const spread = Float32Array.from({ length: clusters }, () => (0.6 + 0.6 * rng.next()) / Math.sqrt(dim));
  const draw = (out: Float32Array, off: number, c: number) => {
    const s = spread[c];
    for (let j = 0; j < dim; j++) out[off + j] = centroids[c * dim + j] + s * g();
    normalizeInPlace(out, off, dim);
  };
  const data = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) draw(data, i * dim, rng.int(0, clusters - 1));
  const queries = new Float32Array(opts.queries * dim);
  for (let i = 0; i < opts.queries; i++) draw(queries, i * dim, rng.int(0, clusters - 1));
  return {
    dim,
    data,
    queries,
    n,
    nQueries: opts.queries,
    row: (i) => data.subarray(i * dim, (i + 1) * dim),
    query: (i) => queries.subarray(i * dim, (i + 1) * dim),
  };
}

/** Exact top-k by cosine (dot of unit vectors), for checking LanceDB's flat search too. */
export function exactTopK(v: ClusteredVectors, q: Float32Array, k: number): number[] {
  const scores = new Float32Array(v.n);
  for (let i = 0; i < v.n; i++) {
    let s = 0;
    const off = i * v.dim;
    for (let j = 0; j < v.dim; j++) s += v.data[off + j] * q[j];
    scores[i] = s;
  }
  return Array.from(scores.keys())
    .sort((a, b) => scores[b] - scores[a])
    .slice(0, k);
}
