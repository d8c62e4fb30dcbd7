/**
 * FirstP: a document scores as its first passage (the earliest of the document's passages in the
 * index's order), as if only first passages were indexed (Dai & Callan 2019). Only the retrieved
 * passages are scored, so a document whose first passage is not among them is left out — retrieve
 * deeper (--passage-hits) to keep more.
 */
import type { AggregationStrategy } from './types.js';

export const firstp: AggregationStrategy = {
  name: 'firstp',
  describe: "a document's score is its first passage's (documents whose first passage was not retrieved are left out)",
  needsFirst: true,
  aggregate(passages) {
    const out = new Map<string, number>();
    for (const p of passages) if (p.first) out.set(p.docId, p.score);
    return out;
  },
};
