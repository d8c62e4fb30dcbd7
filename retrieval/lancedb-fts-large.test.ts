/**
 * Regression: with LanceDB 0.31.0 on a 2-core machine, building the full-text index over ~20K+ real
 * passages deadlocked (Lance's CPU pool had one thread per core). indexer/dense/lance-env.ts sizes
 * the pool to at least 4 threads; this builds an FTS index over 25,000 synthetic passages through
 * lexcase's own lancedb-fts path and searches it.
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

it('builds a LanceDB full-text index over 25,000 passages without hanging, and finds a passage by its own words', async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-fts-large-'));
  const out = join(dir, 'idx');
  await buildIndex(syntheticPassages({ n: 25_000, seed: 7 }), { out, corpusName: 'synthetic-25k', workers: 0 });
  const fts = await openRetriever(out, 'lancedb-fts');
  const docs = await openDocStore(out);
  const target = (await docs.get(docs.ids()[12_345]))!;
  const query = target.text.split(/\s+/).slice(0, 12).join(' ');
  const hits = await fts.search(query, { k: 10 });
  expect(hits.map((h) => h.id)).toContain(target.id);
}, 120_000);
