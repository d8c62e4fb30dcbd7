/**
 * Dense ANN scenario: seeded clustered synthetic vectors (bench/clustered-vectors.ts) → a LanceDB
 * table (id, vector) → exact flat search as ground truth → IVF-PQ with lexcase's default parameters
 * (indexer/dense/ann-params.ts) → ANN query p50/p95 and recall@10 against flat. Optionally sweeps
 * nprobes × refineFactor to show the speed/recall trade-off.
 *
 *   runDenseAnnBench({ n: 100_000, dim: 384, queries: 100, seed: 42 })
 *   → { buildMs, p50Ms, p95Ms, recallAt10, flat: {p50Ms, p95Ms}, params, sweep, ... }
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annParams, type AnnParams } from '../indexer/dense/ann-params.js';
import { appendVectors, buildAnnIndex, connectDense, openOrCreate } from '../indexer/dense/lance-table.js';
import { clusteredVectors } from './clustered-vectors.js';
import { latencyStats } from './measure.js';

export interface DenseAnnArgs {
  n: number;
  dim?: number;
  queries?: number;
  seed?: number;
  k?: number;
  workDir?: string;
  /** Override the IVF-PQ parameters (partitions, sub-vectors, nprobes, refineFactor). */
  params?: Partial<AnnParams>;
  /** Also time these [nprobes, refineFactor] pairs (default: a small grid; [] to skip). */
  sweep?: Array<[number, number]>;
  keep?: boolean;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

export async function runDenseAnnBench(args: DenseAnnArgs) {
  const dim = args.dim ?? 384;
  const nq = args.queries ?? 100;
  const seed = args.seed ?? 42;
  const k = args.k ?? 10;
  const own = !args.workDir;
  const dir = args.workDir ?? (await mkdtemp(join(tmpdir(), 'lexcase-ann-')));
  try {
    let t = performance.now();
    const v = clusteredVectors({ n: args.n, dim, queries: nq, seed });
    const generateMs = performance.now() - t;

    t = performance.now();
    const db = await connectDense(join(dir, 'lancedb'));
    const table = await openOrCreate(db, 'vectors', dim, true);
    const chunk = 50_000;
    for (let i = 0; i < v.n; i += chunk) {
      const m = Math.min(chunk, v.n - i);
      const ids = Array.from({ length: m }, (_, j) => String(i + j));
      const vecs = Array.from({ length: m }, (_, j) => v.row(i + j));
      await appendVectors(table, ids, vecs);
    }
    await table.optimize();
    const writeMs = performance.now() - t;

    const search = async (q: Float32Array, opt: { exact?: boolean; nprobes?: number; refine?: number }) => {
      let s = table.vectorSearch(q).column('vector').distanceType('cosine').select(['id', '_distance']).limit(k);
      if (opt.exact) s = s.bypassVectorIndex();
      if (opt.nprobes) s = s.nprobes(opt.nprobes);
      if (opt.refine) s = s.refineFactor(opt.refine);
      return ((await s.toArray()) as Array<{ id: string }>).map((r) => r.id);
    };
    const timed = async (opt: { exact?: boolean; nprobes?: number; refine?: number }) => {
      for (let i = 0; i < Math.min(3, nq); i++) await search(v.query(i), opt);
      const ms: number[] = [];
      const results: string[][] = [];
      for (let i = 0; i < nq; i++) {
        const s = performance.now();
        results.push(await search(v.query(i), opt));
        ms.push(performance.now() - s);
      }
      return { ms, results };
    };

    // Ground truth: LanceDB flat (exact) search before any index exists.
    const flat = await timed({ exact: true });
    const recall = (got: string[][]) => {
      let hit = 0;
      for (let i = 0; i < nq; i++) {
        const truth = new Set(flat.results[i]);
        hit += got[i].filter((id) => truth.has(id)).length;
      }
      return hit / (nq * k);
    };

    const params = annParams(v.n, dim, args.params);
    t = performance.now();
    await buildAnnIndex(table, params);
    const buildMs = performance.now() - t;
    await table.checkoutLatest();

    const main = await timed({ nprobes: params.nprobes, refine: params.refineFactor });
    const stats = latencyStats(main.ms);
    const grid =
      args.sweep ??
      [
        [Math.max(1, Math.round(params.nprobes / 2)), params.refineFactor],
        [params.nprobes, Math.max(1, Math.round(params.refineFactor / 2))],
        [params.nprobes * 2, params.refineFactor],
        [params.nprobes, params.refineFactor * 2],
      ];
    const sweep = [];
    for (const [nprobes, refine] of grid) {
      const r = await timed({ nprobes, refine });
      const s = latencyStats(r.ms);
      sweep.push({ nprobes, refineFactor: refine, p50Ms: s.p50Ms, p95Ms: s.p95Ms, recallAt10: round(recall(r.results), 4) });
    }
    const flatStats = latencyStats(flat.ms);
    return {
      n: v.n,
      dim,
      queries: nq,
      seed,
      k,
      clusters: Math.max(4, Math.round(Math.sqrt(v.n) / 2)),
      generateMs: round(generateMs, 0),
      writeMs: round(writeMs, 0),
      buildMs: round(buildMs, 0),
      params,
      p50Ms: stats.p50Ms,
      p95Ms: stats.p95Ms,
      recallAt10: round(recall(main.results), 4),
      flat: { p50Ms: flatStats.p50Ms, p95Ms: flatStats.p95Ms },
      sweep,
    };
  } finally {
    if (own && !args.keep) await rm(dir, { recursive: true, force: true });
  }
}
