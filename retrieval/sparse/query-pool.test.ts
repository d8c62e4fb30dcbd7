/**
 * The query pool (2 and 3 threads): every answer equals exhaustive scoring bit for bit — queries one
 * after another, many at once (several awaits in flight), k past 1,024 — a request that fails on
 * every thread rejects without unsettling the next one, and close() rejects a query in flight
 * instead of leaving it pending for ever.
 */
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir, texts } from '../../indexer/build-test-helpers.js';
import type { SparseIndex } from '../../indexer/sparse/sparse-index.js';
import { createRng } from '../../core/rng.js';
import { closeSparseIndexes, openSparseIndex } from '../open.js';
import { zipfText } from './test-support/zipf-text.js';
import { queryTerms } from './query-terms.js';
import { createQueryPool } from './query-pool.js';
import { queryTimings } from './query-timings.js';
import { scoreTopK, type ScoreRequest } from './score-core.js';

const N = 4000;
const RESULT_CAPACITY = 1024;
const tmp = tempDir('lexcase-query-pool-');
let index: SparseIndex;
const rng = createRng(38);
beforeAll(async () => {
  const ts = Array.from({ length: N }, () => zipfText(rng, 400, rng.int(5, 60)));
  await buildIndex(fromArray(texts(ts)), { out: `${tmp.dir}/i`, corpusName: 'pool', workers: 0 });
  index = await openSparseIndex(`${tmp.dir}/i`);
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

/** bm25, both QLD variants and the lucene scorer over 12 Zipf queries, k 1, 10 and 1,524. */
function requests(): ScoreRequest[] {
  const out: ScoreRequest[] = [];
  for (let q = 0; q < 12; q++) {
    const { ids, counts } = queryTerms(index, zipfText(rng, 400, rng.int(3, 20)));
    for (const k of [1, 10, RESULT_CAPACITY + 500]) {
      out.push({ method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k });
      out.push({ method: 'qld', variant: q % 2 ? 'textbook' : 'lucene', mu: 1000, ids, counts, k });
      out.push({ method: 'bm25', k1: 1.2, b: 0.75, ids, counts, k, scorer: 'lucene' });
    }
  }
  return out;
}

it('2 and 3 threads answer every query as exhaustive scoring does, one after another and many at once, k past 1,024', async () => {
  const reqs = requests();
  const exact = reqs.map((r) => scoreTopK(index.view, r, 'exhaustive'));
  // some answers are long: a worker's range alone returns more than 1,024 hits
  expect(exact.some((r) => r.docs.length > RESULT_CAPACITY + 100)).toBe(true);
  for (const threads of [2, 3]) {
    const pool = createQueryPool(index, threads);
    try {
      for (let i = 0; i < reqs.length; i++) expect(await pool.score(reqs[i]), `threads ${threads}, request ${i}`).toEqual(exact[i]);
      const many = await Promise.all(reqs.map((r) => pool.score(r)));
      for (let i = 0; i < reqs.length; i++) expect(many[i], `threads ${threads}, request ${i} at once`).toEqual(exact[i]);
    } finally {
      await pool.close();
    }
  }
}, 120_000);

it('a request that fails on every thread rejects, and the queries after it are still answered exactly', async () => {
  const pool = createQueryPool(index, 3);
  try {
    const [good] = requests();
    // a BigInt count: every range's term plan throws (a TypeError mixing BigInt and number), the workers' as error messages
    const bad = { ...good, counts: good.counts.map(BigInt) } as unknown as ScoreRequest;
    await expect(pool.score(bad)).rejects.toThrow(TypeError);
    const results = await Promise.all([pool.score(good), pool.score(bad).catch((e: Error) => e.name), pool.score(good)]);
    expect(results).toEqual([scoreTopK(index.view, good, 'exhaustive'), 'TypeError', scoreTopK(index.view, good, 'exhaustive')]);
  } finally {
    await pool.close();
  }
}, 60_000);

it('close() rejects a query in flight and resolves; later queries reject', async () => {
  const pool = createQueryPool(index, 2);
  const [req] = requests();
  expect(await pool.score(req)).toEqual(scoreTopK(index.view, req, 'exhaustive'));
  const inFlight = pool.score(req).then(
    () => 'answered',
    (e: Error) => e.message,
  );
  await pool.close();
  expect(await inFlight).toMatch(/answered|query pool closed/);
  await expect(pool.score(req)).rejects.toThrow('query pool closed');
}, 60_000);

it("counts each answered query's own-range scoring, worker scoring and wait, for the scale bench (query-timings.ts); a failed query is not counted", async () => {
  process.env.LEXCASE_QUERY_TIMINGS = '1';
  const pool = createQueryPool(index, 2);
  try {
    const reqs = requests().filter((r) => r.k === RESULT_CAPACITY + 500);
    for (const r of reqs) {
      const a = queryTimings();
      const t0 = performance.now();
      await pool.score(r);
      const wall = performance.now() - t0;
      const b = queryTimings();
      expect(b.queries - a.queries).toBe(1);
      expect(b.localMs - a.localMs).toBeGreaterThan(0);
      expect(b.workerMs - a.workerMs).toBeGreaterThan(0);
      expect(b.waitMs - a.waitMs).toBeGreaterThanOrEqual(0);
      // the calling thread's scoring and the wait after it are parts of the query's wall
      expect(b.localMs - a.localMs + (b.waitMs - a.waitMs)).toBeLessThanOrEqual(wall + 0.01);
      expect(b.workerGcMs - a.workerGcMs).toBeGreaterThanOrEqual(0);
      // the CPU the worker finished on, read from /proc/thread-self/stat in the worker (Linux)
      if (process.platform === 'linux') expect(b.lastWorkerCpu).toBeOneOf([...Array(availableParallelism()).keys()]);
    }
    const before = queryTimings();
    const bad = { ...reqs[0], counts: reqs[0].counts.map(BigInt) } as unknown as ScoreRequest;
    await expect(pool.score(bad)).rejects.toThrow(TypeError);
    expect(queryTimings().queries).toBe(before.queries);
  } finally {
    delete process.env.LEXCASE_QUERY_TIMINGS;
    await pool.close();
  }
}, 60_000);
