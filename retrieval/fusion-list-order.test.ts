/**
 * A fused score does not depend on the order of the lists fused (retrieval/fusion.ts fusedSum).
 * Before, each passage's contributions were added in list order, and a float sum depends on the order
 * of its terms: of three equal-weight RRF lists, passage b at ranks 1, 2, 7 and passage a at ranks 7,
 * 1, 2 — the same three contributions — scored 0.0474478480153437 and 0.04744784801534369, so b came
 * first where a tie goes to the lower id, and `--hybrid-methods dense,qld,bm25` printed other scores
 * than `bm25,qld,dense` (38 of the top 200 for one Bar Exam query on the default corpus), one setting.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../core/rng.js';
import { fuse, type RankedList } from './fusion.js';
import { createHybridRetriever } from './hybrid.js';
import type { Hit, Retriever } from './types.js';

/** A ranked list of `ids` (rank = position) with descending scores. */
const list = (method: string, ids: string[]): RankedList => ({ method, hits: ids.map((id, i) => ({ id, score: 100 - i, rank: i + 1 })) });

/** b at ranks 1, 2, 7 of lists x, y, z; a at 7, 1, 2; every other passage in one list only. */
const constructed = (): RankedList[] => [
  list('x', ['b', 'x2', 'x3', 'x4', 'x5', 'x6', 'a']),
  list('y', ['a', 'b']),
  list('z', ['z1', 'a', 'z3', 'z4', 'z5', 'z6', 'b']),
];

const permutations = <T>(xs: T[]): T[][] =>
  xs.length <= 1 ? [xs] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));

const idScore = (hits: Hit[]) => hits.map((h) => [h.id, h.score]);

describe('fusion whatever the order of its lists', () => {
  it('two passages with the same three RRF contributions from different lists tie exactly, the lower id first', () => {
    const fused = fuse('rrf', constructed());
    const [a, b] = ['a', 'b'].map((id) => fused.find((h) => h.id === id)!);
    expect(a.score).toBe(b.score);
    expect(a.score).toBeCloseTo(1 / 61 + 1 / 62 + 1 / 67, 15);
    expect(fused.slice(0, 2).map((h) => h.id)).toEqual(['a', 'b']);
  });

  it('every order of the constructed lists gives the same ids and scores, for RRF and for weighted fusion', () => {
    for (const method of ['rrf', 'weighted'] as const) {
      const first = idScore(fuse(method, constructed()));
      for (const p of permutations(constructed())) expect(idScore(fuse(method, p))).toEqual(first);
    }
  });

  it('every order of four random weighted lists of 300 passages gives the same ids and scores', () => {
    const rng = createRng(71);
    const pool = Array.from({ length: 400 }, (_, i) => `p${i}`);
    const lists = ['bm25', 'qld', 'dense', 'lancedb-fts'].map((m) => ({
      method: m,
      hits: rng.sample(pool, 300).map((id, i) => ({ id, score: 1000 - i - rng.next(), rank: i + 1 })),
    }));
    const weights = { bm25: 0.5, qld: 1.5, dense: 1, 'lancedb-fts': 0.3 };
    for (const method of ['rrf', 'weighted'] as const) {
      const first = idScore(fuse(method, lists, { rrfK: 100, weights }));
      for (const p of permutations(lists)) expect(idScore(fuse(method, p, { rrfK: 100, weights }))).toEqual(first);
    }
  });

  it('createHybridRetriever returns the same hits and scores for its components in any order', async () => {
    const component = ({ method, hits }: RankedList): Retriever => ({
      method,
      async search(_q, o) {
        return hits.slice(0, o?.k ?? 10);
      },
    });
    const results = [];
    for (const p of permutations(constructed())) results.push(idScore(await createHybridRetriever(p.map(component), { depth: 7 }).search('q', { k: 5 })));
    for (const r of results) expect(r).toEqual(results[0]);
    expect(results[0].slice(0, 2).map(([id]) => id)).toEqual(['a', 'b']);
  });
});
