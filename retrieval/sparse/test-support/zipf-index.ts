import { afterAll, beforeAll } from 'vitest';
import { createRng } from '../../../core/rng.js';
import { buildIndex } from '../../../indexer/build.js';
import { fromArray, tempDir, texts } from '../../../indexer/build-test-helpers.js';
import type { SparseIndex } from '../../../indexer/sparse/sparse-index.js';
import { closeSparseIndexes, openSparseIndex } from '../../open.js';
import { zipfText } from './zipf-text.js';

/** A built and opened index of `n` Zipf passages (5–60 words over 300) and `queries` Zipf queries (2–14 words), from `seed`; closed and removed after the file's tests. */
export interface ZipfIndexFixture {
  readonly dir: string;
  index: SparseIndex;
  queries: string[];
}

/** Registers the file's beforeAll / afterAll that build, open and remove the index (read `index` and `queries` inside tests). */
export function zipfIndexFixture(o: { name: string; seed: number; n: number; queries: number }): ZipfIndexFixture {
  const tmp = tempDir(`lexcase-${o.name}-`);
  const fx = { dir: tmp.dir } as ZipfIndexFixture;
  beforeAll(async () => {
    const rng = createRng(o.seed);
    const ts = Array.from({ length: o.n }, () => zipfText(rng, 300, rng.int(5, 60)));
    await buildIndex(fromArray(texts(ts)), { out: tmp.dir, corpusName: o.name, workers: 0 });
    fx.index = await openSparseIndex(tmp.dir);
    fx.queries = Array.from({ length: o.queries }, () => zipfText(rng, 300, rng.int(2, 14)));
  }, 120_000);
  afterAll(async () => {
    await closeSparseIndexes();
    tmp.cleanup();
  });
  return fx;
}
