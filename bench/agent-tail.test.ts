import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallZipfIndex } from './test-support/small-zipf-index.js';
import { agentTail } from './agent-tail.js';
import { blockMaxPotential } from './block-max-potential.js';

// The two issue-38 diagnostics on a small Zipf index built the way the scale bench builds it (seed
// 42, no stopwords or stemming). agent-tail throws when its arms (retriever, two halves, whole
// range) rank a query differently; block-max-potential throws when a doc scores above its block's
// summed bounds.
describe('bench/agent-tail.ts and bench/block-max-potential.ts', () => {
  let z: Awaited<ReturnType<typeof smallZipfIndex>>;
  let index: string;
  beforeAll(async () => {
    z = await smallZipfIndex('lexcase-agent-tail-');
    index = z.index;
  }, 120_000);
  afterAll(async () => {
    await z?.cleanup();
  });

  it('breaks each agent query down per half (strategy by density, blocks pruned) in a cold and three warm passes, all arms ranking alike', async () => {
    const r = await agentTail(index, 'zipf', 6);
    expect(r.N).toBe(4000);
    expect(r.passes.map((p) => p.pass)).toEqual(['cold', 'warm', 'warm2', 'warm3']);
    for (const p of r.passes) {
      const rows = p.rows as { halves: { parts: { strategy: string; density: number; coldLists: number; prunedBlocks: number; blocks: number }[] } }[];
      expect(rows).toHaveLength(6);
      for (const row of rows) {
        expect(row.halves.parts).toHaveLength(2);
        for (const h of row.halves.parts) {
          expect(h.strategy).toBe(h.density >= 0.01 ? 'blocked' : 'maxscore');
          expect(h.prunedBlocks).toBeLessThanOrEqual(h.blocks);
          if (p.pass !== 'cold') expect(h.coldLists).toBe(0);
        }
      }
    }
  }, 120_000);

  it('reports shares of blocks skipped and postings walked within [0, 1], with no skip at one block per range', async () => {
    const r = await blockMaxPotential(index, 'zipf', 6);
    expect(r.rows).toHaveLength(6);
    for (const row of r.rows as { todayWalkedShare: number; bySize: Record<string, { blocks: number; skippedShare: number; walkedShare: number }> }[]) {
      expect(row.todayWalkedShare).toBeGreaterThanOrEqual(0);
      expect(row.todayWalkedShare).toBeLessThanOrEqual(1);
      for (const b of Object.values(row.bySize)) {
        expect(b.skippedShare).toBeGreaterThanOrEqual(0);
        expect(b.skippedShare).toBeLessThanOrEqual(1);
        expect(b.walkedShare).toBeLessThanOrEqual(1);
      }
      // 4,000 docs are one block of 16,384: the top-k docs are in it, so it is never skipped.
      expect(row.bySize['16384']).toMatchObject({ blocks: 1, skippedShare: 0 });
    }
  }, 120_000);
});
