import { describe, expect, it } from 'vitest';
import { minMaxNormalize, reciprocalRankFusion, weightedFusion } from './fusion.js';
import { createHybridRetriever } from './hybrid.js';
import { searchTopK } from './top-k.js';
import type { Hit, Retriever } from './types.js';

const hits = (pairs: Array<[string, number]>): Hit[] => pairs.map(([id, score], i) => ({ id, score, rank: i + 1 }));
const bm25 = {
  method: 'bm25',
  hits: hits([
    ['a', 12],
    ['b', 9],
    ['c', 3],
  ]),
};
const dense = {
  method: 'dense',
  hits: hits([
    ['c', 0.9],
    ['a', 0.8],
    ['d', 0.5],
  ]),
};

describe('reciprocal-rank fusion (k = 60)', () => {
  it('sums 1/(60 + rank) over the lists that contain a passage', () => {
    const fused = reciprocalRankFusion([bm25, dense]);
    const byId = Object.fromEntries(fused.map((h) => [h.id, h]));
    expect(byId.a.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(byId.c.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(byId.b.score).toBeCloseTo(1 / 62, 12);
    expect(byId.d.score).toBeCloseTo(1 / 63, 12);
    // a: 0.032523, c: 0.032266 → a first; b (1/62) beats d (1/63)
    expect(fused.map((h) => h.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused.map((h) => h.rank)).toEqual([1, 2, 3, 4]);
    expect(byId.c.components).toEqual({ bm25: { rank: 3, score: 3, contribution: 1 / 63 }, dense: { rank: 1, score: 0.9, contribution: 1 / 61 } });
  });

  it('applies weights and truncates to k', () => {
    const fused = reciprocalRankFusion([bm25, dense], { weights: { dense: 3 }, k: 2 });
    expect(fused.map((h) => h.id)).toEqual(['c', 'a']);
    expect(fused[0].score).toBeCloseTo(1 / 63 + 3 / 61, 12);
  });
});

describe('weighted fusion of min-max-normalised scores', () => {
  it('normalises each list to [0, 1] and mixes with the weights', () => {
    expect([...minMaxNormalize(bm25.hits)]).toEqual([
      ['a', 1],
      ['b', 6 / 9],
      ['c', 0],
    ]);
    const fused = weightedFusion([bm25, dense], { weights: { bm25: 0.3, dense: 0.7 } });
    const byId = Object.fromEntries(fused.map((h) => [h.id, h.score]));
    // dense normalised: c 1, a 0.75, d 0
    expect(byId.a).toBeCloseTo(0.3 * 1 + 0.7 * 0.75, 12);
    expect(byId.c).toBeCloseTo(0.3 * 0 + 0.7 * 1, 12);
    expect(byId.b).toBeCloseTo(0.3 * (6 / 9), 12);
    expect(byId.d).toBeCloseTo(0, 12);
    expect(fused.map((h) => h.id)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('uses equal weights by default, maps a constant list to 1, and breaks ties by id', () => {
    const flat = {
      method: 'qld',
      hits: hits([
        ['z', -5],
        ['y', -5],
      ]),
    };
    const fused = weightedFusion([flat]);
    expect(fused.map((h) => [h.id, h.score])).toEqual([
      ['y', 1],
      ['z', 1],
    ]);
    expect(weightedFusion([bm25, dense])[0].score).toBeCloseTo(0.5 * 1 + 0.5 * 0.75, 12);
  });
});

describe('HybridRetriever', () => {
  const fake = (method: string, list: Hit[]): Retriever & { asked: number[] } => {
    const r = {
      method,
      asked: [] as number[],
      async search(_q: string, o?: { k?: number }) {
        r.asked.push(o?.k ?? 10);
        return list.slice(0, o?.k ?? 10);
      },
    };
    return r;
  };

  it('fetches depth hits from each component, fuses, and explains the components of one passage', async () => {
    const b = fake('bm25', bm25.hits);
    const d = fake('dense', dense.hits);
    const h = createHybridRetriever([b, d], { fusion: 'rrf' });
    const top = await h.search('q', { k: 2 });
    expect(top).toEqual([
      { id: 'a', score: 1 / 61 + 1 / 62, rank: 1 },
      { id: 'c', score: 1 / 63 + 1 / 61, rank: 2 },
    ]);
    // depth 100, one past it to see whether a tie crosses the cut (top-k.ts); the 3 hits are all there are
    expect(b.asked).toEqual([101]);
    const ex = await h.explain!('q', 'c');
    expect(ex.method).toBe('hybrid');
    expect(ex.detail).toMatchObject({ fusion: 'rrf', rrfK: 60, fusedRank: 2, components: { bm25: { rank: 3 }, dense: { rank: 1 } } });
    const w = createHybridRetriever([b, d], { fusion: 'weighted', weights: { bm25: 1, dense: 0 } });
    expect((await w.search('q', { k: 3 })).map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });

  it('explains a passage with the fused rank the search printed it at, when fused scores tie (as printed) and the search orders them by id', async () => {
    // each passage is first in one list only: the same fused score 1/61, printed higher id first
    const h = createHybridRetriever([fake('bm25', [{ id: 'd01', score: 3, rank: 1 }]), fake('dense', [{ id: 'd21', score: 0.9, rank: 1 }])], { fusion: 'rrf' });
    // as every view searches and prints (search, run files, the explorer: top-k.ts)
    const top = await searchTopK((depth) => h.search('q', { k: depth }), 2);
    expect(top.map((x) => [x.id, x.rank])).toEqual([
      ['d21', 1],
      ['d01', 2],
    ]);
    for (const hit of top) expect((await h.explain!('q', hit.id)).detail, hit.id).toMatchObject({ fusedRank: hit.rank });
    // scores that differ by less than 1e-6 are told apart, as the run file writes them (10 significant digits: top-k.ts scoreText),
    // the search and explain alike (6 decimals tied them, ordered by id: d21 first)
    const close = createHybridRetriever(
      [
        fake('bm25', [
          { id: 'd01', score: 2, rank: 1 },
          { id: 'd21', score: 1, rank: 2 },
        ]),
      ],
      { fusion: 'rrf', weights: { bm25: 1e-4 } },
    );
    const ranked = await searchTopK((depth) => close.search('q', { k: depth }), 2, { digits: close.scoreDigits });
    expect(ranked.map((x) => x.id)).toEqual(['d01', 'd21']);
    for (const hit of ranked) expect((await close.explain!('q', hit.id)).detail, hit.id).toMatchObject({ fusedRank: hit.rank });
  });

  it('rejects weights for methods it does not have and duplicate components', () => {
    const b = fake('bm25', []);
    expect(() => createHybridRetriever([b], { weights: { dense: 1 } })).toThrow(/weights.*dense/);
    expect(() => createHybridRetriever([b, fake('bm25', [])])).toThrow(/distinct/);
  });
});
