import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { strategyCrossover } from './strategy-crossover.js';
import { syntheticPassages } from './synthetic.js';

// The crossover bench on a small Zipf index built the way the scale bench builds it (seed 42, no
// stopwords or stemming): every query lands in one density bucket, both strategies are timed, and
// they rank identically (the script throws otherwise).
describe('bench/strategy-crossover.ts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lexcase-crossover-'));
    await buildIndex(syntheticPassages({ n: 4000, seed: 42, profile: 'zipf' }), {
      out: join(dir, 'index'),
      corpusName: 'synthetic',
      methods: ['bm25', 'qld'],
      workers: 1,
      analyzer: { stopwords: 'none', stemmer: 'none' },
    });
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('times blocked TAAT and MaxScore per density bucket over agent queries and their prefixes, with the same rankings', async () => {
    for (const method of ['bm25', 'qld'] as const) {
      const r = await strategyCrossover(join(dir, 'index'), 'zipf', 10, method);
      expect(r.N).toBe(4000);
      // 10 agent queries + 4 shortened forms of each, less those with no word in this small corpus
      expect(r.queries).toBeGreaterThan(40);
      expect(r.queries).toBeLessThanOrEqual(50);
      expect(r.buckets.reduce((n, b) => n + b.queries, 0)).toBe(r.queries);
      expect(r.buckets.length).toBeGreaterThan(1);
      for (const b of r.buckets) {
        expect(b.hi).toBeGreaterThan(b.lo);
        expect(b.blockedMs).toBeGreaterThanOrEqual(0);
        expect(b.maxscoreMs).toBeGreaterThanOrEqual(0);
      }
    }
  }, 120_000);
});
