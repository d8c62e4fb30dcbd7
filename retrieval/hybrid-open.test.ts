import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../corpora/types.js';
import { BAREXAM_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { buildIndex } from '../indexer/build.js';
import { readManifest } from '../indexer/manifest.js';
import { reciprocalRankFusion } from './fusion.js';
import { ensureLanceFts } from './lancedb-fts.js';
import { openRetriever } from './open.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modelDir = join(repoRoot, 'tests/fixtures/tiny-embedder/tiny-bert');
const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(100, 180)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));

let tmp: string;
let dir: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-hybrid-'));
  dir = join(tmp, 'idx');
  async function* s() {
    yield* passages;
  }
  await buildIndex(s(), {
    out: dir,
    corpusName: 'sample',
    methods: ['bm25', 'qld', 'dense'],
    workers: 0,
    dense: { embedder: { provider: 'transformers', modelDir } },
  });
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('openRetriever: dense, hybrid and lancedb-fts', () => {
  const query = 'A landowner conveyed the property by deed to a purchaser who failed to record the deed';

  it('hybrid (rrf) equals reciprocal-rank fusion of the bm25 and dense lists the index returns', async () => {
    const bm25 = await openRetriever(dir, 'bm25');
    const dense = await openRetriever(dir, 'dense');
    const hybrid = await openRetriever(dir, 'hybrid', { methods: 'bm25,dense', fusion: 'rrf', depth: 100 });
    const lists = [
      { method: 'bm25', hits: await bm25.search(query, { k: 100 }) },
      { method: 'dense', hits: await dense.search(query, { k: 100 }) },
    ];
    const want = reciprocalRankFusion(lists, { k: 10 }).map((h) => h.id);
    const got = await hybrid.search(query, { k: 10 });
    expect(got.map((h) => h.id)).toEqual(want);
    const ex = await hybrid.explain!(query, got[0].id);
    expect(Object.keys((ex.detail as { components: object }).components).length).toBeGreaterThan(0);
  });

  it('weighted hybrid with all weight on bm25 ranks like bm25; three-way fusion works', async () => {
    const bm25 = await openRetriever(dir, 'bm25');
    const w = await openRetriever(dir, 'hybrid', { methods: 'bm25,dense', fusion: 'weighted', weights: 'bm25=1,dense=0' });
    expect((await w.search(query, { k: 5 })).map((h) => h.id)).toEqual((await bm25.search(query, { k: 5 })).map((h) => h.id));
    const three = await openRetriever(dir, 'hybrid', { methods: ['bm25', 'qld', 'dense'] });
    expect(await three.search(query, { k: 7 })).toHaveLength(7);
    await expect(openRetriever(dir, 'hybrid', { methods: 'bm25,wink' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('hybrid with no options uses the train-tuned defaults: weighted rrf k = 100 of bm25 0.5, qld 1.5 and dense 1, 1,000 hits each', async () => {
    const hybrid = await openRetriever(dir, 'hybrid');
    const got = await hybrid.search(query, { k: 10 });
    const lists = await Promise.all(
      (['bm25', 'qld', 'dense'] as const).map(async (m) => ({ method: m, hits: await (await openRetriever(dir, m)).search(query, { k: 1000 }) })),
    );
    const weights = { bm25: 0.5, qld: 1.5, dense: 1 };
    expect(got.map((h) => h.id)).toEqual(reciprocalRankFusion(lists, { k: 10, rrfK: 100, weights }).map((h) => h.id));
    expect(got.map((h) => h.id)).not.toEqual(reciprocalRankFusion(lists, { k: 10 }).map((h) => h.id));
    const ex = await hybrid.explain!(query, got[0].id);
    expect(ex.detail).toMatchObject({ fusion: 'rrf', methods: ['bm25', 'qld', 'dense'], depth: 1000, rrfK: 100, weights });
    const two = await openRetriever(dir, 'hybrid', { methods: 'bm25,qld' });
    expect((await two.explain!(query, got[0].id)).detail).toMatchObject({ methods: ['bm25', 'qld'], depth: 1000 });
  });

  it('naming the default methods (any order) and fusion changes nothing: the same weights and hits; other methods or fusion get equal weights', async () => {
    const cfg = async (o?: Record<string, unknown>) => (await openRetriever(dir, 'hybrid', o)).config;
    const hits = async (o?: Record<string, unknown>) => (await (await openRetriever(dir, 'hybrid', o)).search(query, { k: 10 })).map((h) => h.id);
    const defaults = { bm25: 0.5, qld: 1.5, dense: 1 };
    expect(await cfg()).toMatchObject({ weights: defaults });
    for (const named of [{ methods: 'bm25,qld,dense' }, { hybridMethods: 'dense,bm25,qld' }, { methods: 'bm25,qld,dense', fusion: 'rrf' }, { fusion: 'rrf' }]) {
      expect(await cfg(named)).toMatchObject({ weights: defaults });
      expect(await hits(named)).toEqual(await hits());
    }
    expect(await cfg({ methods: 'bm25,dense' })).toMatchObject({ weights: {} });
    expect(await cfg({ fusion: 'weighted' })).toMatchObject({ weights: {} });
    expect(await cfg({ methods: 'bm25,qld,dense', weights: 'bm25=1' })).toMatchObject({ weights: { bm25: 1 } });
  });

  it('lancedb-fts is not built by a search; once added it is recorded in the manifest and finds passages sharing the query terms', async () => {
    await expect(openRetriever(dir, 'lancedb-fts')).rejects.toThrow(/lexcase index lancedb-fts/);
    expect((await readManifest(dir)).methods).not.toContain('lancedb-fts');
    await ensureLanceFts(dir);
    const fts = await openRetriever(dir, 'lancedb-fts');
    const hits = await fts.search('recording statute bona fide purchaser', { k: 5 });
    expect(hits.length).toBeGreaterThan(0);
    const byId = new Map(passages.map((p) => [p.id, p.text.toLowerCase()]));
    expect(byId.get(hits[0].id)).toMatch(/record|purchaser|bona fide/);
    expect((await readManifest(dir)).methods).toContain('lancedb-fts');
  });
});
