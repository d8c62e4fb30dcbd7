import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRng } from '../core/rng.js';
import { flatMatrixOf, flatRanks, flatScores, flatSearch, topKIndices } from './dense-flat-memory.js';
import { DOTS_WASM_BASE64 } from './dense-kernel/dots-wasm.js';
// @ts-expect-error — a plain .mjs build script, no type declarations
import { compileWat } from '../scripts/compile-wat.mjs';

/** The reference: cosine in float64 from the raw rows, full sort, ties by row order. */
function reference(rows: number[][], q: number[], k: number) {
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  const qn = norm(q);
  const scores = rows.map((r) => {
    const n = norm(r);
    return n && qn ? r.reduce((s, x, d) => s + x * q[d], 0) / (n * qn) : 0;
  });
  return scores
    .map((s, i) => ({ i, s }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, k);
}

describe('flat in-memory dense search', () => {
  const rng = createRng(7);
  const dim = 37; // not a multiple of 4: the unrolled loop's tail is exercised
  const rows = Array.from({ length: 500 }, () => Array.from({ length: dim }, () => rng.next() * 2 - 1));
  rows[3] = rows[10].slice(); // the same vector as row 10: equal cosine, row order breaks the tie
  rows[42] = new Array(dim).fill(0); // a zero row scores 0
  const ids = rows.map((_, i) => `p${i}`);
  const m = flatMatrixOf(ids, rows, dim);

  it('returns the same passages, order and cosine scores (1e-6) as a full sort, for k below and above the heap threshold', () => {
    for (const k of [1, 5, 10, 124, 200, 500, 600]) {
      for (const q of [rows[10], Array.from({ length: dim }, () => rng.next() - 0.5)]) {
        const got = flatSearch(m, Float32Array.from(q), k);
        const want = reference(rows, q, k);
        expect(got.map((h) => h.id)).toEqual(want.map((w) => ids[w.i]));
        got.forEach((h, r) => {
          expect(h.rank).toBe(r + 1);
          expect(h.score).toBeCloseTo(want[r].s, 6);
        });
      }
    }
  });

  it('the WebAssembly dot products give the float64 sums of the float32 unit rows (1e-12), the committed dots-wasm.ts being what dots.wat compiles to', async () => {
    const wat = readFileSync(fileURLToPath(new URL('./dense-kernel/dots.wat', import.meta.url)), 'utf8');
    expect(Buffer.from((await compileWat(wat, 'dots.wat')) as Uint8Array).toString('base64')).toBe(DOTS_WASM_BASE64);
    const q = Float32Array.from({ length: dim }, () => rng.next() - 0.5);
    const qn = 1 / Math.sqrt(q.reduce((a, x) => a + x * x, 0));
    const got = flatScores(m, q);
    rows.forEach((r, i) => {
      const s2 = r.reduce((a, x) => a + x * x, 0);
      const inv = s2 > 0 ? 1 / Math.sqrt(s2) : 0;
      const unit = r.map((x) => Math.fround(x * inv)); // the rows as flatMatrixOf stores them
      let want = 0;
      for (let d = 0; d < dim; d++) want += unit[d] * q[d];
      expect(Math.abs(got[i] - want * qn)).toBeLessThan(1e-12);
    });
  });

  it('flatRanks gives each row the score and rank of a full flatSearch (ties by row order), for rows anywhere in the ranking', () => {
    const q = Array.from({ length: dim }, () => rng.next() * 2 - 1);
    const full = flatSearch(m, q, rows.length);
    const byId = new Map(full.map((h) => [h.id, h]));
    const pick = [3, 10, 42, 0, 499, ...Array.from({ length: 40 }, () => Math.floor(rng.next() * rows.length))];
    const got = flatRanks(m, q, pick);
    pick.forEach((row, i) => expect(got[i]).toEqual({ score: byId.get(`p${row}`)!.score, rank: byId.get(`p${row}`)!.rank }));
    // the duplicated vectors tie: row 3 ranks just above row 10
    expect(got[1].rank).toBe(got[0].rank + 1);
  });

  it('breaks equal scores by row order and scores a zero row or zero query 0', () => {
    const top = flatSearch(m, Float32Array.from(rows[10]), 2).map((h) => h.id);
    expect(top).toEqual(['p3', 'p10']);
    expect(flatSearch(m, Float32Array.from(rows[10]), 500).find((h) => h.id === 'p42')!.score).toBe(0);
    expect(flatSearch(m, new Float32Array(dim), 3).map((h) => h.score)).toEqual([0, 0, 0]);
  });

  it('topKIndices keeps the k best with ties by index in both the heap and the sort path', () => {
    const scores = Float64Array.from([0.5, 0.9, 0.5, 0.1, 0.9, 0.5, 0.7, 0.2, 0.0, 0.5, 0.3, 0.6]);
    expect(topKIndices(scores, 2)).toEqual([1, 4]);
    expect(topKIndices(scores, 5)).toEqual([1, 4, 6, 11, 0]);
    expect(topKIndices(scores, 12)).toEqual([1, 4, 6, 11, 0, 2, 5, 9, 10, 7, 3, 8]);
    expect(topKIndices(scores, 0)).toEqual([]);
  });
});
