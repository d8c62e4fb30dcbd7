/** Query → (term id, count) pairs, in first-occurrence order; terms absent from the collection are dropped. */
import type { SparseIndex } from '../../indexer/sparse/sparse-index.js';

export interface QueryTerms {
  ids: number[];
  terms: string[];
  /** c(t, q): how often the term occurs in the analysed query. */
  counts: number[];
}

export function queryTerms(index: SparseIndex, query: string): QueryTerms {
  const pos = new Map<string, number>();
  const out: QueryTerms = { ids: [], terms: [], counts: [] };
  for (const t of index.analyzer.tokens(query)) {
    const i = pos.get(t);
    if (i !== undefined) {
      if (i >= 0) out.counts[i]++;
      continue;
    }
    const id = index.termId(t);
    if (id < 0) {
      pos.set(t, -1);
      continue;
    }
    pos.set(t, out.ids.length);
    out.ids.push(id);
    out.terms.push(t);
    out.counts.push(1);
  }
  return out;
}
