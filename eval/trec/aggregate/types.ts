/**
 * Passage → document aggregation (MaxP, FirstP, SumP): a strategy turns one topic's retrieved
 * passages into document scores. One strategy per file, registered in index.ts.
 */

/** One retrieved passage of a topic, with the document it belongs to. */
export interface PassageOfDoc {
  /** Passage id. */
  id: string;
  /** The passage's score (as the retriever gave it). */
  score: number;
  /** Its document's id (doc-id-rule.ts). */
  docId: string;
  /** Whether it is its document's first passage (in the index's passage order); undefined where no index tells. */
  first?: boolean;
}

export interface AggregationStrategy {
  name: string;
  /** One line for --help and the docs. */
  describe: string;
  /** Whether it needs to know which passage comes first in each document (the index's order). */
  needsFirst: boolean;
  /** docid → score for the documents this topic's passages give (any order). */
  aggregate(passages: readonly PassageOfDoc[]): Map<string, number>;
}

/** docid → the fold of its passages' scores in order (`combine(undefined, score)` for the first). */
export function foldByDoc(passages: readonly PassageOfDoc[], combine: (acc: number | undefined, p: PassageOfDoc) => number): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of passages) out.set(p.docId, combine(out.get(p.docId), p));
  return out;
}
