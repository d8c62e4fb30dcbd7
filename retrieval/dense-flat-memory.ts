/**
 * Exact cosine search over a small dense table held in memory. Below the ANN threshold LanceDB's
 * flat search costs ~10–16 ms per query over 6,151 × 512 vectors on the shared 2-core machine,
 * mostly per-query overhead; a dot product over the same matrix in a Float32Array costs ~1 ms.
 * Used for tables of at most FLAT_MEMORY_MAX_ROWS rows without an ANN index; scores are cosine
 * similarities exactly as LanceDB's (1 − cosine distance, to ~1e-6), ties broken by row order — and
 * loadFlatMatrix orders the rows by passage id, so ties go to the lower id.
 *
 * Speed (issue 16): rows are scaled to unit length once at load, so a query is one dot product per
 * row times 1/‖q‖; the top k are kept in a bounded min-heap instead of sorting all n scores (k ≪ n),
 * and only those k are sorted. The dot products run in WebAssembly (dense-kernel/dots.wat, f64x2:
 * float32 rows × the float64 query, summed in float64 as the JavaScript loop did), ~2× faster.
 */
import type * as lancedb from '@lancedb/lancedb';
import type { Hit } from './types.js';
import { dotsKernel, type DotsKernel } from './dense-kernel/dots.js';

export const FLAT_MEMORY_MAX_ROWS = 20_000;

export interface FlatMatrix {
  ids: string[];
  dim: number;
  /** Rows scaled to unit length (a zero row stays zero), in the kernel's memory (row stride dim rounded up to 4). */
  kernel: DotsKernel;
}

/** A matrix from raw row vectors (any length; each must have `dim` coordinates). */
export function flatMatrixOf(ids: string[], rows: ArrayLike<number>[], dim: number): FlatMatrix {
  const kernel = dotsKernel(rows.length, dim);
  const unit = kernel.rows;
  rows.forEach((v, i) => {
    let s = 0;
    for (let d = 0; d < dim; d++) s += v[d] * v[d];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    const off = i * kernel.stride;
    for (let d = 0; d < dim; d++) unit[off + d] = v[d] * inv;
  });
  return { ids: [...ids], dim, kernel };
}

/**
 * The table's rows in memory, ordered by passage id (UTF-16 code units): equal scores then rank the
 * lower id first, whatever order LanceDB stored or returns the rows in — two builds from the same
 * vectors (another corpus order, a resumed build) give the same ranking.
 */
export async function loadFlatMatrix(table: lancedb.Table, rows: number, dim: number): Promise<FlatMatrix> {
  const got = (await table.query().select(['id', 'vector']).limit(rows).toArray()) as Array<{ id: string; vector: { toArray(): Float32Array } | number[] }>;
  got.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return flatMatrixOf(
    got.map((r) => r.id),
    got.map((r) => (Array.isArray(r.vector) ? r.vector : r.vector.toArray())),
    dim,
  );
}

/** Cosine of every row with `vector` (0 for a zero query or row). */
export function flatScores(m: FlatMatrix, vector: ArrayLike<number>): Float64Array {
  const dim = m.dim;
  const q = Float32Array.from(vector);
  let qs = 0;
  for (let d = 0; d < dim; d++) qs += q[d] * q[d];
  const qn = qs > 0 ? 1 / Math.sqrt(qs) : 0;
  const scores = m.kernel.dots(q.subarray(0, dim));
  for (let i = 0; i < scores.length; i++) scores[i] *= qn;
  return scores;
}

/** Row indices of the k best scores, best first; equal scores → lower row first. */
export function topKIndices(scores: Float64Array, k: number): number[] {
  const n = scores.length;
  k = Math.min(k, n);
  if (k <= 0) return [];
  const better = (i: number, j: number) => scores[i] > scores[j] || (scores[i] === scores[j] && i < j);
  if (k * 4 >= n) {
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((i, j) => scores[j] - scores[i] || i - j);
    return order.slice(0, k);
  }
  // Min-heap of the k best so far: heap[0] is the worst of them.
  const heap = new Int32Array(k);
  let size = 0;
  const down = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      if (l >= size) return;
      const r = l + 1;
      const w = r < size && better(heap[l], heap[r]) ? r : l;
      if (!better(heap[at], heap[w])) return;
      const t = heap[at];
      heap[at] = heap[w];
      heap[w] = t;
      at = w;
    }
  };
  for (let i = 0; i < n; i++) {
    if (size < k) {
      let at = size++;
      heap[at] = i;
      while (at > 0) {
        const p = (at - 1) >> 1;
        if (!better(heap[p], heap[at])) break;
        const t = heap[at];
        heap[at] = heap[p];
        heap[p] = t;
        at = p;
      }
    } else if (better(i, heap[0])) {
      heap[0] = i;
      down(0);
    }
  }
  return Array.from(heap).sort((i, j) => scores[j] - scores[i] || i - j);
}

export function flatSearch(m: FlatMatrix, vector: ArrayLike<number>, k: number): Hit[] {
  const scores = flatScores(m, vector);
  return topKIndices(scores, k).map((i, r) => ({ id: m.ids[i], score: scores[i], rank: r + 1 }));
}

/** First index in ascending `sorted` whose value is > v (upper) or ≥ v (lower). */
function bound(sorted: Float64Array, v: number, upper: boolean): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (upper ? sorted[mid] <= v : sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Cosine and 1-based rank among all rows of each of `rows` (row indices) for `vector`: the rank
 * flatSearch would give with k = all rows (equal scores → lower row first), without ranking them all.
 */
export function flatRanks(m: FlatMatrix, vector: ArrayLike<number>, rows: readonly number[]): { score: number; rank: number }[] {
  const scores = flatScores(m, vector);
  const sorted = Float64Array.from(scores).sort();
  const n = scores.length;
  return rows.map((row) => {
    const s = scores[row];
    const up = bound(sorted, s, true);
    let rank = n - up + 1;
    if (up - bound(sorted, s, false) > 1) for (let j = 0; j < row; j++) if (scores[j] === s) rank++;
    return { score: s, rank };
  });
}
