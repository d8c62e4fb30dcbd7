import { describe, expect, it } from 'vitest';
import { firstRelevantRank, hitAtK, ndcgAtK, recallAtK, reciprocalRank } from './index.js';

const ranked = ['d1', 'd2', 'd3', 'd4', 'd5'];

describe('ranking metrics against hand-computed values', () => {
  it('one relevant document at rank 3', () => {
    const rel = ['d3'];
    expect(recallAtK(ranked, rel, 1)).toBe(0);
    expect(recallAtK(ranked, rel, 2)).toBe(0);
    expect(recallAtK(ranked, rel, 3)).toBe(1);
    expect(recallAtK(ranked, rel, 1000)).toBe(1);
    expect(reciprocalRank(ranked, rel)).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(ranked, rel, 2)).toBe(0);
    expect(firstRelevantRank(ranked, rel)).toBe(3);
    // DCG = 1/log2(3+1) = 0.5; IDCG = 1/log2(2) = 1
    expect(ndcgAtK(ranked, rel, 10)).toBeCloseTo(0.5, 12);
    expect(ndcgAtK(ranked, rel, 2)).toBe(0);
  });

  it('two relevant documents at ranks 2 and 5', () => {
    const rel = new Set(['d2', 'd5']);
    expect(recallAtK(ranked, rel, 3)).toBe(0.5);
    expect(recallAtK(ranked, rel, 5)).toBe(1);
    expect(hitAtK(ranked, rel, 1)).toBe(0);
    expect(hitAtK(ranked, rel, 2)).toBe(1);
    expect(reciprocalRank(ranked, rel, 10)).toBe(0.5);
    // (1/log2 3 + 1/log2 6) / (1 + 1/log2 3) = (0.6309298 + 0.3868528) / 1.6309298
    expect(ndcgAtK(ranked, rel, 5)).toBeCloseTo(0.6240505, 6);
  });

  it('relevant id not retrieved, and a query with no relevant ids', () => {
    expect(recallAtK(ranked, ['x'], 10)).toBe(0);
    expect(reciprocalRank(ranked, ['x'])).toBe(0);
    expect(firstRelevantRank(ranked, ['x'])).toBeNull();
    expect(ndcgAtK(ranked, ['x'], 10)).toBe(0);
    expect(recallAtK(ranked, [], 10)).toBe(0);
    expect(ndcgAtK(ranked, [], 10)).toBe(0);
  });

  it('a perfect ranking has nDCG 1 and a shorter ranking than k is fine', () => {
    expect(ndcgAtK(['a', 'b', 'c'], ['a', 'b'], 10)).toBeCloseTo(1, 12);
    expect(recallAtK(['a'], ['a', 'b'], 10)).toBe(0.5);
  });
});
