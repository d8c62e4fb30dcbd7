/** A test file's small index with the default hybrid (bm25 + qld + dense), made before its tests and removed after them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildSmallBarexamIndex } from './small-barexam-index.js';

const TINY_BERT = join(import.meta.dirname, '../fixtures/tiny-embedder/tiny-bert');

/**
 * A test file's small index that offers the default hybrid (bm25 + qld + dense): buildSmallBarexamIndex
 * over the first `items` val questions' gold passages, with dense vectors from the tiny test BERT, in a
 * temp dir made before the file's tests and removed after them. `dir` is that temp dir (for run dirs).
 */
export function useSmallHybridIndex(
  prefix: string,
  items = 3,
): { dir: () => string; index: () => string; runArgs: (runDir: string, limit: number) => string[] } {
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    await buildSmallBarexamIndex(join(dir, 'idx'), { items });
    await addDenseIndex(join(dir, 'idx'), { embedder: { provider: 'transformers', modelDir: TINY_BERT }, batchSize: 64 });
  }, 120_000);
  afterAll(async () => {
    await closeSparseIndexes();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    index: () => join(dir, 'idx'),
    // a `lexcase run …` over it: --limit items, 2 passages a search, no response cache
    runArgs: (runDir, limit) => ['--limit', String(limit), '--k', '2', '--index', join(dir, 'idx'), '--run-dir', runDir, '--no-cache'],
  };
}
