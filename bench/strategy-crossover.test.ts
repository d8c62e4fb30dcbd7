import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallZipfIndex } from './test-support/small-zipf-index.js';
import { strategyCrossover } from './strategy-crossover.js';

// The crossover bench on a small Zipf index built the way the scale bench builds it (seed 42, no
// stopwords or stemming): every query lands in one density bucket, both strategies are timed, and
// they rank identically (the script throws otherwise).
describe('bench/strategy-crossover.ts', () => {
  let z: Awaited<ReturnType<typeof smallZipfIndex>>;
  let index: string;
  beforeAll(async () => {
    z = await smallZipfIndex('lexcase-crossover-');
    index = z.index;
  }, 120_000);
  afterAll(async () => {
    await z?.cleanup();
  });

  it('times blocked TAAT and MaxScore per density bucket over agent queries and their prefixes, with the same rankings', async () => {
    for (const method of ['bm25', 'qld'] as const) {
      const r = await strategyCrossover(index, 'zipf', 10, method);
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
