/**
 * `explain` on an ANN dense table gives the score `search` printed for the hit. The search scores
 * its candidates by the ANN index's distances (ivf_pq without a refine step: product-quantised,
 * tenths off the exact cosine; ivf_flat: in its own float order, last digits off), and explain used
 * to print the exact cosine of every row instead: two numbers for one hit in `search --explain`, the
 * explorer's explain, /v1 and MCP's explain. Now the score is the search's query's, restricted to
 * the passage, and detail gives both, labelled: `annScore` (the index's) and `exactScore` (every
 * row's exact cosine). Real LanceDB ANN indexes built here over 3,000 clustered vectors.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusteredVectors } from '../bench/clustered-vectors.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { addDenseIndex } from '../indexer/dense/add-dense.js';
import type { AnnParams } from '../indexer/dense/ann-params.js';
import { openQueryService } from '../serve/query/query-service.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../tests/support/fake-embedding-server.js';
import { openDenseRetriever } from './dense.js';

const v = clusteredVectors({ n: 3000, dim: 32, queries: 5, seed: 5 });
/** Passage text "vec i" is stored vector i, query text "query j" query vector j (other texts, the dimension probe's: vector 0). */
const vectorOf = (t: string) => {
  const [kind, i] = t.split(' ');
  return Array.from(kind === 'query' ? v.query(Number(i)) : v.row(kind === 'vec' ? Number(i) : 0));
};

let server: FakeEmbeddingServer;
let tmp: string;
const envBefore = process.env.LEXCASE_EMBED_BASE_URL;
const dirs: Record<string, string> = {};

async function annIndex(name: string, ann: Partial<AnnParams>): Promise<string> {
  const out = join(tmp, name);
  await buildIndex(
    (async function* (): AsyncIterable<Passage> {
      for (let i = 0; i < v.n; i++) yield { id: `p${i}`, text: `vec ${i}`, source: 'clustered' };
    })(),
    { out, corpusName: 'clustered', methods: ['bm25'], workers: 0 },
  );
  await addDenseIndex(out, { embedder: { provider: 'openai', model: 'clustered' }, annThreshold: 1000, ann, batchSize: 500 });
  return out;
}

beforeAll(async () => {
  server = await startFakeEmbeddingServer(vectorOf, 'clustered');
  process.env.LEXCASE_EMBED_BASE_URL = server.url;
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-ann-explain-'));
  dirs.ivf_flat = await annIndex('flat', { type: 'ivf_flat' });
  // no refine step: the search's scores are the quantised distances
  dirs.ivf_pq = await annIndex('pq', { type: 'ivf_pq', refineFactor: 0 });
}, 300_000);

afterAll(async () => {
  if (envBefore === undefined) delete process.env.LEXCASE_EMBED_BASE_URL;
  else process.env.LEXCASE_EMBED_BASE_URL = envBefore;
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

type AnnDetail = { annScore: number | null; exactScore: number; note?: string; search: { type: string } };

describe.each(['ivf_flat', 'ivf_pq'])('explain on an %s dense table', (type) => {
  it('gives each hit the score search printed, and the exact cosine beside it as exactScore', async () => {
    const ann = await openDenseRetriever(dirs[type]);
    const exact = await openDenseRetriever(dirs[type], { exact: true });
    try {
      let hits = 0;
      let apart = 0;
      for (let q = 0; q < v.nQueries; q++) {
        for (const h of await ann.search(`query ${q}`, { k: 10 })) {
          hits++;
          const e = await ann.explain!(`query ${q}`, h.id);
          const d = e.detail as AnnDetail;
          expect(String(e.score)).toBe(String(h.score));
          expect(d.annScore).toBe(h.score);
          expect(d.search.type).toBe(type);
          // the exact cosine is --exact's score of the passage
          expect(d.exactScore).toBe((await exact.explain!(`query ${q}`, h.id)).score);
          if (d.exactScore !== d.annScore) apart++;
        }
      }
      expect(hits).toBe(50);
      // product quantisation without a refine step: every score is off the exact cosine
      if (type === 'ivf_pq') expect(apart).toBe(50);
    } finally {
      await ann.close();
      await exact.close();
    }
  }, 120_000);
});

it('a passage the ANN search does not reach (its partition not probed) is explained by its exact cosine, annScore null, with a note', async () => {
  const one = await openDenseRetriever(dirs.ivf_pq, { nprobes: 1 });
  try {
    const reached = new Set((await one.search('query 0', { k: v.n })).map((h) => h.id));
    expect(reached.size).toBeLessThan(v.n);
    const id = Array.from({ length: v.n }, (_, i) => `p${i}`).find((p) => !reached.has(p))!;
    const e = await one.explain!('query 0', id);
    const d = e.detail as AnnDetail;
    expect(d.annScore).toBeNull();
    expect(e.score).toBe(d.exactScore);
    expect(d.note).toMatch(/ivf_pq search with these knobs does not reach this passage/);
  } finally {
    await one.close();
  }
}, 120_000);

it('the query service (explorer /api/explain, /v1/explain, MCP explain) gives each dense hit its search score on an ANN table', async () => {
  const svc = await openQueryService({ indexes: [{ name: 'pq', dir: dirs.ivf_pq }] });
  try {
    for (const query of ['query 1', 'query 2']) {
      const found = await svc.search({ index: 'pq', query, method: 'dense', k: 5 });
      expect(found.hits).toHaveLength(5);
      for (const h of found.hits) {
        const e = await svc.explain({ index: 'pq', query, method: 'dense', id: h.id });
        expect(String(e.score)).toBe(String(h.score));
        const d = e.detail as AnnDetail;
        expect(d.annScore).toBe(h.score);
        expect(d.exactScore).not.toBe(h.score);
      }
    }
  } finally {
    await svc.close();
  }
}, 120_000);
