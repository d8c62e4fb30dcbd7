import { describe, expect, it } from 'vitest';
import { scoringLines } from './scoring-lines.js';

describe('scoringLines', () => {
  it('names each sparse method’s parameters, RM3’s expansion, the lucene scorer and a hybrid’s sparse components', () => {
    expect(
      scoringLines([
        { method: 'bm25', config: { k1: 1.2, b: 0.75, scorer: 'lucene' } },
        { method: 'qld+rm3', config: { mu: 1000, variant: 'lucene', rm3: { fbDocs: 5, fbTerms: 20, originalQueryWeight: 0.3, filterTerms: false } } },
        { method: 'hybrid', config: { fusion: 'rrf', components: { bm25: { k1: 0.9, b: 0.4 }, dense: { query: { rule: 'whole' } } } } },
        { method: 'dense', config: { query: { rule: 'whole' } } },
      ]),
    ).toEqual([
      "Scoring: bm25 k1 1.2, b 0.75, Lucene's scorer · qld+rm3 μ 1000 (lucene), RM3 5 feedback docs × 20 terms, original query weight 0.3, unfiltered terms · hybrid's bm25 k1 0.9, b 0.4.",
    ]);
  });

  it('says nothing when no method has sparse parameters', () => {
    expect(scoringLines([{ method: 'dense', config: { query: { rule: 'whole' } } }, { method: 'lancedb-fts' }])).toEqual([]);
  });
});
