/**
 * SumP: a document scores as the sum of its retrieved passages' scores (Dai & Callan 2019), so
 * more matching passages rank it higher. Meaningful for scores ≥ 0 (bm25, wink, lancedb-fts): with
 * qld's log-probabilities or negative cosines each further passage would lower the sum, so a
 * negative score is refused.
 */
import { errors } from '../../../core/errors.js';
import { foldByDoc, type AggregationStrategy } from './types.js';

export const sump: AggregationStrategy = {
  name: 'sump',
  describe: "a document's score is the sum of its retrieved passages' scores (scores must be ≥ 0: bm25, not qld)",
  needsFirst: false,
  aggregate: (passages) =>
    foldByDoc(passages, (sum, p) => {
      if (p.score < 0)
        throw errors.invalidInput(
          '--aggregate',
          `sump adds passage scores, and passage "${p.id}" scored ${p.score} (< 0: each further passage would lower its document's sum); use maxp or firstp with this method`,
        );
      return (sum ?? 0) + p.score;
    }),
};
