/**
 * `--weights` / the hybrid's `weights` option as text (retrieval/hybrid-open.ts parseWeights): each
 * method one finite weight. Before, `bm25=,dense=1` (an unset shell variable) read as bm25 0 and
 * dropped bm25 from the fusion, `bm25=0.3,bm25=0.7` kept the last, and `bm25=0.3=9` read as 0.3, each
 * with no word (helper audit); now each is one INVALID_INPUT naming the pair.
 */
import { describe, expect, it } from 'vitest';
import { parseWeights } from './hybrid-open.js';

describe('hybrid weights as text', () => {
  it('reads method=weight pairs', () => {
    expect(parseWeights('bm25=0.3, dense=0.7')).toEqual({ bm25: 0.3, dense: 0.7 });
    expect(parseWeights('qld=0')).toEqual({ qld: 0 });
  });

  it.each([
    ['bm25=,dense=1', /got "bm25="/],
    ['bm25= ,dense=1', /got "bm25="/],
    ['bm25=0.3=9', /got "bm25=0\.3=9"/],
    ['=1', /got "=1"/],
    ['bm25', /got "bm25"/],
    ['bm25=x', /got "bm25=x"/],
    ['bm25=0.3,bm25=0.7', /method "bm25" is given twice \(0\.3 and 0\.7\); give each method one weight/],
  ])('refuses %s', (text, message) => {
    expect(() => parseWeights(text)).toThrow(message);
  });
});
