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
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { annParams, type AnnParams } from '../indexer/dense/ann-params.js';
import { appendVectors, applyAnnKnobs, buildAnnIndex, connectDense, openOrCreate } from '../indexer/dense/lance-table.js';
import { clusteredVectors } from './clustered-vectors.js';
import { latencyStats } from './measure.js';

export interface DenseAnnArgs {
  n: number;
  dim?: number;
  queries?: number;
  seed?: number;
  k?: number;
  workDir?: string;
  /** Override the default index parameters (type, partitions, nprobes, refineFactor, ef, …). */
  params?: Partial<AnnParams>;
  /** Also time these query knobs on the default index (default: a small grid; [] to skip). */
  sweep?: Array<QueryKnobs | [number, number]>;
  /**
   * Further index configurations to build and measure on the same table and ground truth, one after
   * another (each replaces the previous index), each with its own query-knob sweep.
   */
  configs?: Array<{ params: Partial<AnnParams>; sweep?: QueryKnobs[] }>;
  keep?: boolean;
}

export interface QueryKnobs {
  nprobes?: number;
  refineFactor?: number;
  ef?: number;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

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

    type Opt = QueryKnobs & { exact?: boolean };
    const search = async (q: Float32Array, opt: Opt) => {
      let s = table.vectorSearch(q).column('vector').distanceType('cosine').select(['id', '_distance']).limit(k);
      if (opt.exact) s = s.bypassVectorIndex();
      else s = applyAnnKnobs(s, opt);
      return ((await s.toArray()) as Array<{ id: string }>).map((r) => r.id);
    };
    const timed = async (opt: Opt) => {
      for (let i = 0; i < Math.min(3, nq); i++) await search(v.query(i), opt);
      const ms: number[] = [];
      const results: string[][] = [];
      const c0 = cpuMs();
      for (let i = 0; i < nq; i++) {
        const s = performance.now();
        results.push(await search(v.query(i), opt));
        ms.push(performance.now() - s);
      }
      return { ms, results, cpuMsPerQuery: round((cpuMs() - c0) / nq) };
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

    const load = () => round(loadavg()[0], 1);
    const measure = async (params: AnnParams, knobs: QueryKnobs[]) => {
      const l0 = load();
      const t0 = performance.now();
      const c0 = cpuMs();
      await buildAnnIndex(table, params);
      const buildMs = performance.now() - t0;
      const buildCpuMs = cpuMs() - c0;
      await table.checkoutLatest();
      const main = await timed(params);
      const stats = latencyStats(main.ms);
      const sweep = [];
      for (const kn of knobs) {
        const q = { ...params, ...kn };
        const r = await timed(q);
        const s = latencyStats(r.ms);
        sweep.push({
          nprobes: q.nprobes,
          refineFactor: q.refineFactor,
          ef: q.ef,
          p50Ms: s.p50Ms,
          p95Ms: s.p95Ms,
          cpuMsPerQuery: r.cpuMsPerQuery,
          recallAt10: round(recall(r.results), 4),
        });
      }
      return {
        params,
        buildMs: round(buildMs, 0),
        buildCpuMs: round(buildCpuMs, 0),
        loadAvg: l0,
        p50Ms: stats.p50Ms,
        p95Ms: stats.p95Ms,
        cpuMsPerQuery: main.cpuMsPerQuery,
        recallAt10: round(recall(main.results), 4),
        sweep,
      };
    };

    const params = annParams(v.n, dim, args.params);
    const grid: QueryKnobs[] = (
      args.sweep ??
      (params.type === 'ivf_hnsw_sq'
        ? [{ ef: Math.round((params.ef ?? 100) / 2) }, { ef: (params.ef ?? 100) * 2 }, { nprobes: params.nprobes * 2 }]
        : params.type === 'ivf_pq'
          ? [
              { nprobes: Math.max(1, Math.round(params.nprobes / 2)) },
              { refineFactor: Math.max(1, Math.round((params.refineFactor ?? 40) / 2)) },
              { nprobes: params.nprobes * 2 },
              { refineFactor: (params.refineFactor ?? 40) * 2 },
            ]
          : [{ nprobes: Math.max(1, Math.round(params.nprobes / 2)) }, { nprobes: params.nprobes * 2 }, { nprobes: params.nprobes * 4 }])
    ).map((x) => (Array.isArray(x) ? { nprobes: x[0], refineFactor: x[1] } : x));
    const main = await measure(params, grid);
    const configs = [];
    for (const c of args.configs ?? []) configs.push(await measure(annParams(v.n, dim, c.params), c.sweep ?? []));
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
      ...main,
      flat: { p50Ms: flatStats.p50Ms, p95Ms: flatStats.p95Ms, cpuMsPerQuery: flat.cpuMsPerQuery },
      configs,
    };
  } finally {
    if (own && !args.keep) await rm(dir, { recursive: true, force: true });
  }
}
