/**
 * lexcase's lancedb-fts path at a scale beyond the demo corpus: 25,000 synthetic passages.
 * Context: with LanceDB 0.31.0 on 2 cores the full-text index build deadlocked in the benchmark
 * (100K passages, and 20K in a standalone script) with Lance's default CPU pool (one thread per core);
 * indexer/dense/lance-env.ts sizes the pool to at least 4 threads. The hang was not reproducible
 * at 25K through this path, so this test checks the path works at scale; it is not a reproduction.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { syntheticPassages } from '../bench/synthetic.js';
import { openDocStore } from '../indexer/docstore.js';
import { openRetriever } from './open.js';

let dir: string;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('builds a LanceDB full-text index over 25,000 passages and finds a passage by its own words', async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-fts-large-'));
  const out = join(dir, 'idx');
  await buildIndex(syntheticPassages({ n: 25_000, seed: 7 }), { out, corpusName: 'synthetic-25k', workers: 0, methods: ['bm25', 'lancedb-fts'] });
  const fts = await openRetriever(out, 'lancedb-fts');
  const docs = await openDocStore(out);
  const target = (await docs.get(docs.ids()[12_345]))!;
  const query = target.text.split(/\s+/).slice(0, 12).join(' ');
  const hits = await fts.search(query, { k: 10 });
  expect(hits.map((h) => h.id)).toContain(target.id);
}, 120_000);
