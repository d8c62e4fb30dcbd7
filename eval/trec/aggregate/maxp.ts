/** MaxP: a document scores as its best retrieved passage (Dai & Callan 2019; Pyserini's --max-passage). */
import type { AggregationStrategy } from './types.js';

export const maxp: AggregationStrategy = {
  name: 'maxp',
  describe: "a document's score is its best retrieved passage's",
  needsFirst: false,
  aggregate(passages) {
    const out = new Map<string, number>();
    for (const p of passages) {
      const s = out.get(p.docId);
      if (s === undefined || p.score > s) out.set(p.docId, p.score);
    }
    return out;
  },
};
