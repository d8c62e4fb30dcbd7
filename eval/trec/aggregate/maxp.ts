/** MaxP: a document scores as its best retrieved passage (Dai & Callan 2019; Pyserini's --max-passage). */
import { foldByDoc, type AggregationStrategy } from './types.js';

export const maxp: AggregationStrategy = {
  name: 'maxp',
  describe: "a document's score is its best retrieved passage's",
  needsFirst: false,
  aggregate: (passages) => foldByDoc(passages, (best, p) => (best === undefined || p.score > best ? p.score : best)),
};
