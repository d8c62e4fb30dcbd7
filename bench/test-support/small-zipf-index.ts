/**
 * A small Zipf index built the way the scale bench builds its indexes (seed 42, no stopwords or
 * stemming, bm25 and qld) in a temporary dir, for the tests of the bench's diagnostic scripts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex } from '../../indexer/build.js';
import { syntheticPassages } from '../synthetic.js';

export async function smallZipfIndex(prefix: string, n = 4000): Promise<{ index: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const index = join(dir, 'index');
  await buildIndex(syntheticPassages({ n, seed: 42, profile: 'zipf' }), {
    out: index,
    corpusName: 'synthetic',
    methods: ['bm25', 'qld'],
    workers: 1,
    analyzer: { stopwords: 'none', stemmer: 'none' },
  });
  return { index, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
