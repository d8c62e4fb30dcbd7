/**
 * `--ties anserini` does what Anserini's SearchCollection does to a run: ties ordered by docid
 * ascending, scores rounded to 4 decimals in float32, each further tie lowered by 1e-6 × its place —
 * so trec_eval (which orders equal scores by docid descending) keeps Anserini's order.
 */
import { describe, expect, it } from 'vitest';
import { anseriniTies, parseTieMode } from './anserini-ties.js';
import { trecOrder } from './order.js';
import { runDocsOfHits } from './run.js';
import type { Hit } from '../../retrieval/types.js';

const hits = (xs: [string, number][]): Hit[] => xs.map(([id, score], i) => ({ id, score, rank: i + 1 }));
const f = Math.fround;

describe('anserini ties', () => {
  it("ties by docid ascending; 4-decimal float scores; a tie lowered by 1e-6 per place (Anserini's example)", () => {
    const out = anseriniTies(
      hits([
        ['docA', f(23.439316)],
        ['docT', f(22.087432)],
        ['docS', f(22.087432)],
        ['docZ', f(21.602508)],
      ]),
    );
    expect(out.map((h) => h.id)).toEqual(['docA', 'docS', 'docT', 'docZ']);
    expect(out.map((h) => h.rank)).toEqual([1, 2, 3, 4]);
    expect(out.map((h) => h.score)).toEqual([f(23.4393), f(22.0874), f(f(22.0874) - f(1e-6)), f(21.6025)]);
  });

  it('scores within 1e-4 after rounding chain as ties; trec_eval then keeps the order, where it would have reversed equal scores', () => {
    const input = hits([
      ['b', 5.00001],
      ['c', 5.00001],
      ['a', 5.00004],
    ]);
    const out = anseriniTies(input);
    expect(out.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(trecOrder(runDocsOfHits(out)).map((d) => d.docid)).toEqual(['a', 'b', 'c']);
    // Without it, trec_eval orders the equal scores b, c by docid descending: c before b.
    expect(trecOrder(runDocsOfHits(input)).map((d) => d.docid)).toEqual(['a', 'c', 'b']);
  });

  it('from 32 up a 1e-6 step is below half a float step, so ties stay ties (as in Anserini)', () => {
    const out = anseriniTies(
      hits([
        ['x', 40.5],
        ['y', 40.5],
      ]),
    );
    expect(out[1].score).toBe(out[0].score);
    expect(
      anseriniTies(
        hits([
          ['x', 20.5],
          ['y', 20.5],
        ]),
      )[1].score,
    ).toBeLessThan(20.5);
  });

  it('--ties takes none | anserini', () => {
    expect(parseTieMode('anserini')).toBe('anserini');
    expect(() => parseTieMode('lucene')).toThrow(/--ties: expected one of none, anserini/);
  });
});
