import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusteredVectors, exactTopK } from '../../bench/clustered-vectors.js';
import { createDenseRetriever, HNSW_SQ_SCORES } from '../../retrieval/dense.js';
import type { Embedder } from '../embed/types.js';
import { annParams, DEFAULT_ANN_TYPE } from './ann-params.js';
import { appendVectors, buildAnnIndex, connectDense, openOrCreate } from './lance-table.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const noEmbedder = { id: 'x:y', provider: 'openai', model: 'y', dimension: 32, embed: async () => [] } as unknown as Embedder;

describe('ANN parameters', () => {
  it('follow the documented rules (√N partitions, per-type probes, dim/16 sub-vectors dividing dim)', () => {
    expect(annParams(856_835, 384).type).toBe(DEFAULT_ANN_TYPE);
    expect(annParams(856_835, 384, { type: 'ivf_pq' })).toEqual({ type: 'ivf_pq', numPartitions: 926, numSubVectors: 24, nprobes: 47, refineFactor: 40 });
    expect(annParams(100_000, 384).numPartitions).toBe(316);
    expect(annParams(3000, 32).numPartitions).toBe(11); // capped at N/256
    expect(annParams(10_000, 100, { type: 'ivf_pq' }).numSubVectors).toBe(5); // 100/16 ≈ 6 → 5 divides 100
    expect(annParams(10_000, 384, { nprobes: 7 }).nprobes).toBe(7);
    expect(annParams(3000, 32, { type: 'ivf_hnsw_sq' })).toMatchObject({ type: 'ivf_hnsw_sq', nprobes: 4, ef: expect.any(Number) });
  });
});

describe('LanceDB IVF-PQ vs flat search on clustered vectors', () => {
  it('flat search is exact, similarities() gives its ranks (absent on an ANN table unless opened exact), and IVF-PQ (with refine) agrees with it at recall@10 ≥ 0.9', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-ann-'));
    dirs.push(dir);
    const v = clusteredVectors({ n: 4000, dim: 32, queries: 30, seed: 7 });
    const db = await connectDense(dir);
    const table = await openOrCreate(db, 'v', 32, true);
    const ids = Array.from({ length: v.n }, (_, i) => `p${i}`);
    await appendVectors(
      table,
      ids,
      Array.from({ length: v.n }, (_, i) => v.row(i)),
    );
    expect(await table.countRows()).toBe(4000);

    const flat = createDenseRetriever(table, { rows: v.n, ann: null, dimension: 32 }, noEmbedder);
    const truth: string[][] = [];
    for (let q = 0; q < v.nQueries; q++) {
      const hits = await flat.searchVector(v.query(q), { k: 10 });
      const exact = exactTopK(v, v.query(q), 10).map((i) => `p${i}`);
      expect(hits.map((h) => h.id)).toEqual(exact);
      truth.push(exact);
    }

    // similarities(): each given passage's cosine and its rank in a search over all rows, in memory and through LanceDB
    const q0 = Float32Array.from(v.query(0));
    const oneQuery = { ...noEmbedder, embed: async (texts: string[]) => texts.map(() => q0) } as unknown as Embedder;
    const all = new Map((await flat.searchVector(q0, { k: v.n })).map((h) => [h.id, h]));
    const pick = ['p0', 'p17', 'p999', 'p3999', ...truth[0].slice(0, 3)];
    for (const inMemory of [true, false]) {
      const got = await createDenseRetriever(table, { rows: v.n, ann: null, dimension: 32 }, oneQuery, { inMemory }).similarities!('any query', pick);
      pick.forEach((id, i) => {
        expect(got[i].rank).toBe(all.get(id)!.rank);
        expect(got[i].score).toBeCloseTo(all.get(id)!.score, 5);
      });
    }

    const params = annParams(v.n, 32, { type: 'ivf_pq' });
    await buildAnnIndex(table, params);
    await table.checkoutLatest();
    expect((await table.listIndices()).map((i) => i.indexType)).toContain('IvfPq');
    const ann = createDenseRetriever(table, { rows: v.n, ann: { ...params, threshold: 1000 }, dimension: 32 }, noEmbedder);
    let agree = 0;
    for (let q = 0; q < v.nQueries; q++) {
      const hits = await ann.searchVector(v.query(q), { k: 10 });
      agree += hits.filter((h) => truth[q].includes(h.id)).length;
    }
    const recall = agree / (10 * v.nQueries);
    expect(recall).toBeGreaterThanOrEqual(0.9);
    // similarities(): exact ranks only — absent on an ANN table, present when it is opened exact
    expect(ann.similarities).toBeUndefined();
    expect(createDenseRetriever(table, { rows: v.n, ann: { ...params, threshold: 1000 }, dimension: 32 }, oneQuery, { exact: true }).similarities).toBeTypeOf(
      'function',
    );
    // Without refinement PQ alone is visibly worse: the refine step is doing real work.
    const raw = createDenseRetriever(table, { rows: v.n, ann: { ...params, refineFactor: 0, threshold: 1000 }, dimension: 32 }, noEmbedder, {
      refineFactor: 1,
    });
    let rawAgree = 0;
    for (let q = 0; q < v.nQueries; q++) rawAgree += (await raw.searchVector(v.query(q), { k: 10 })).filter((h) => truth[q].includes(h.id)).length;
    expect(rawAgree / (10 * v.nQueries)).toBeLessThan(recall);
  });
});

describe('LanceDB IVF-HNSW-SQ scores', () => {
  it('are the exact cosines of the hits it finds, not those of its 8-bit quantised vectors, its config says so, and a search deeper than its beam (ef) is answered', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-ann-sq-'));
    dirs.push(dir);
    const v = clusteredVectors({ n: 3000, dim: 32, queries: 10, seed: 11 });
    const table = await openOrCreate(await connectDense(dir), 'v', 32, true);
    await appendVectors(
      table,
      Array.from({ length: v.n }, (_, i) => `p${i}`),
      Array.from({ length: v.n }, (_, i) => v.row(i)),
    );
    const params = annParams(v.n, 32, { type: 'ivf_hnsw_sq' });
    await buildAnnIndex(table, params);
    await table.checkoutLatest();
    const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
      let d = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < a.length; i++) {
        d += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
      }
      return d / Math.sqrt(na * nb);
    };
    const ann = createDenseRetriever(table, { rows: v.n, ann: { ...params, threshold: 1000 }, dimension: 32 }, noEmbedder);
    let worst = 0;
    for (let q = 0; q < v.nQueries; q++) {
      const hits = await ann.searchVector(v.query(q), { k: 10 });
      expect(hits).toHaveLength(10);
      for (const h of hits) worst = Math.max(worst, Math.abs(h.score - cosine(v.query(q), v.row(Number(h.id.slice(1))))));
      // ranked by those exact scores
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    }
    expect(worst).toBeLessThan(1e-5);
    // deeper than its beam (ef 100): eval retrieval and hybrid search 1,000 deep
    const deep = await ann.searchVector(v.query(0), { k: 300 });
    expect(deep).toHaveLength(300);
    expect(params.ef).toBeLessThan(300);
    expect(ann.config).toMatchObject({ annScores: HNSW_SQ_SCORES });
    expect(createDenseRetriever(table, { rows: v.n, ann: null, dimension: 32 }, noEmbedder).config).not.toHaveProperty('annScores');
  });
});
