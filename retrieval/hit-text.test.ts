/**
 * search(q, { withText: true }) on every Retriever: the same ids, scores and ranks as without it,
 * plus each passage's own text (and title) from the index.
 */
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { createDenseRetriever } from './dense.js';
import { readManifest } from '../indexer/manifest.js';
import { resolveDenseUri, type DenseSection } from '../indexer/dense/dense-section.js';
import { connectDense, openDenseTable } from '../indexer/dense/lance-table.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import { createHybridRetriever } from './hybrid.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import type { Hit } from './types.js';

const modelDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'tests/fixtures/tiny-embedder/tiny-bert');
const tmp = tempDir('lexcase-hit-text-');
const dir = join(tmp.dir, 'idx');
const passages: Passage[] = [];
const byId = new Map<string, Passage>();
const query = 'hearsay statement offered to prove the truth of the matter asserted';

beforeAll(async () => {
  for await (const p of loadPassages('barexam')) {
    // A title on every third passage, so `title` is checked to come back only where there is one.
    passages.push(passages.length % 3 === 0 ? { ...p, title: `Bar exam passage ${p.id}` } : p);
    if (passages.length === 60) break;
  }
  for (const p of passages) byId.set(p.id, p);
  await buildIndex(passages, {
    out: dir,
    methods: ['bm25', 'qld', 'dense', 'lancedb-fts'],
    workers: 0,
    dense: { embedder: { provider: 'transformers', modelDir } },
  });
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

function expectTexts(plain: Hit[], withText: Hit[]): void {
  expect(plain.length).toBeGreaterThan(0);
  expect(withText.map(({ id, score, rank }) => ({ id, score, rank }))).toEqual(plain);
  for (const h of withText) {
    const p = byId.get(h.id)!;
    expect(h.text).toBe(p.text);
    expect(h.title).toBe(p.title);
  }
}

describe('search(q, { withText: true })', () => {
  it.each([['bm25'], ['qld'], ['wink'], ['dense'], ['hybrid'], ['lancedb-fts']])(
    '%s hits carry their passage text and title; ids, scores and ranks unchanged',
    async (method) => {
      const r = await openRetriever(dir, method, method === 'hybrid' ? { methods: 'bm25,qld,dense' } : {});
      expectTexts(await r.search(query, { k: 8 }), await r.search(query, { k: 8, withText: true }));
    },
  );

  it('the sparse hit for a passage quoted in full is that passage, with its text', async () => {
    const target = passages[41];
    const [top] = await (await openRetriever(dir, 'bm25')).search(target.text, { k: 1, withText: true });
    expect(top).toMatchObject({ id: target.id, rank: 1, text: target.text });
  });

  it('hybrid built from components without a doc store takes the texts from its components', async () => {
    const components = [await openRetriever(dir, 'bm25'), await openRetriever(dir, 'dense')];
    const hybrid = createHybridRetriever(components, { fusion: 'rrf' });
    expectTexts(await hybrid.search(query, { k: 6 }), await hybrid.search(query, { k: 6, withText: true }));
  });

  it('a dense retriever created without a doc store says withText needs one (USAGE); plain search still works', async () => {
    const manifest = await readManifest(dir);
    const section = manifest.dense as unknown as DenseSection;
    const uri = resolveDenseUri(dir, section.uri);
    const table = await openDenseTable(await connectDense(uri), section.table, uri);
    const embedder = await createEmbedder({ provider: 'transformers', modelDir, workers: 0 });
    const bare = createDenseRetriever(table, section, embedder);
    await expect(bare.search(query, { k: 3, withText: true })).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/no doc store/) });
    expect(await bare.search(query, { k: 3 })).toHaveLength(3);
    await embedder.close?.();
  });
});
