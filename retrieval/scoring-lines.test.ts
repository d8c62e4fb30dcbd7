import { describe, expect, it } from 'vitest';
import { scoringLines } from './scoring-lines.js';

describe('scoringLines', () => {
  it('names each sparse method’s parameters, RM3’s expansion, the lucene scorer and a hybrid’s sparse components', () => {
    expect(
      scoringLines([
        { method: 'bm25', config: { k1: 1.2, b: 0.75, scorer: 'lucene' } },
        { method: 'qld+rm3', config: { mu: 1000, variant: 'lucene', rm3: { fbDocs: 5, fbTerms: 20, originalQueryWeight: 0.3, filterTerms: false } } },
        {
          method: 'hybrid',
          config: {
            fusion: 'rrf',
            methods: ['bm25', 'dense'],
            rrfK: 60,
            depth: 100,
            weights: {},
            components: { bm25: { k1: 0.9, b: 0.4 }, dense: { query: { rule: 'whole' } } },
          },
        },
        { method: 'dense', config: { query: { rule: 'whole' } } },
      ]),
    ).toEqual([
      "Scoring: bm25 k1 1.2, b 0.75, Lucene's scorer · qld+rm3 μ 1000 (lucene), RM3 5 feedback docs × 20 terms, original query weight 0.3, unfiltered terms · hybrid rrf k 60 of bm25 + dense (equal weights), 100 hits each · hybrid's bm25 k1 0.9, b 0.4.",
    ]);
  });

  it("names a hybrid's fusion and the weights it fused with: the defaults' and equal ones read differently", () => {
    const hybrid = (weights: Record<string, number>, fusion = 'rrf') => ({
      method: 'hybrid',
      config: { fusion, methods: ['bm25', 'qld', 'dense'], depth: 1000, ...(fusion === 'rrf' ? { rrfK: 100 } : {}), weights },
    });
    expect(scoringLines([hybrid({ bm25: 0.5, qld: 1.5, dense: 1 })])).toEqual(['Scoring: hybrid rrf k 100 of bm25 0.5 + qld 1.5 + dense 1, 1000 hits each.']);
    expect(scoringLines([hybrid({})])).toEqual(['Scoring: hybrid rrf k 100 of bm25 + qld + dense (equal weights), 1000 hits each.']);
    expect(scoringLines([hybrid({ bm25: 0.5 }, 'weighted')])).toEqual([
      'Scoring: hybrid weighted min-max of bm25 0.5 + qld 0.333 + dense 0.333, 1000 hits each.',
    ]);
  });

  it('says nothing when no method has sparse parameters', () => {
    expect(scoringLines([{ method: 'dense', config: { query: { rule: 'whole' } } }, { method: 'lancedb-fts' }])).toEqual([]);
  });
});
