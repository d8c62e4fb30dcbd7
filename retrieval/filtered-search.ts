/**
 * A filtered search: the first k passages a filter keeps of a retriever's unfiltered ranking, with
 * their unfiltered scores, ranked 1…k — the same as filtering by hand the ranking an unfiltered
 * search of k cuts its hits from. The one implementation behind the query service's source filter
 * (/v1/search, the MCP search tool) and the LangChain retriever's metadata filter (object or function).
 *
 * The ranking is fetched as deep as the kept share of the index says k kept passages should need
 * (twice over; 4k when the share is not known), ×4 each further round, until k are kept or the
 * ranking ends — and never deeper than the retriever's rankingDepth (retrieval/types.ts; hybrid: its
 * depth, each component's top `depth` hits fused). When the filter keeps fewer than k of that
 * ranking, the hits are those, with a note saying why. The ranking is the one every search shows
 * and evaluates (./top-k.ts: tied hits in trec_eval's order, searched past a tie at each depth's
 * cut), so a filtered search keeps, in order, what filtering an unfiltered search by hand keeps.
 */
import { printedRun } from './top-k.js';
import type { Hit, Retriever } from './types.js';

export interface FilterScope {
  /** Passages in the index. */
  size: number;
  /** How many passages the filter keeps, when known (a source mask counts them). */
  kept?: number;
  /** Internal doc index of a passage id. */
  indexOf(id: string): number;
  /** Whether the filter keeps the passage at internal doc index i. */
  keeps(i: number): boolean | Promise<boolean>;
}

export interface FilteredHits {
  hits: Hit[];
  /** Set when fewer than k hits pass the filter within the ranking a filtered search may look at. */
  note?: string;
}

export async function searchFiltered(r: Retriever, query: string, k: number, f: FilterScope): Promise<FilteredHits> {
  if (k === 0 || f.kept === 0) return { hits: [] };
  const N = f.size;
  const limit = Math.min(N, r.rankingDepth ?? N);
  // Enough of the ranking to hold k kept passages if they were spread evenly, twice over.
  let depth = Math.min(limit, f.kept !== undefined ? Math.max(k, Math.ceil((2 * k * N) / f.kept)) : 4 * k);
  for (;;) {
    const hits = await printedRun(r, query, depth);
    const kept: Hit[] = [];
    for (const h of hits) {
      if (!(await f.keeps(f.indexOf(h.id)))) continue;
      kept.push(h);
      if (kept.length === k) break;
    }
    if (kept.length >= k || hits.length < depth || depth >= N) return { hits: kept };
    if (depth >= limit)
      return {
        hits: kept,
        note:
          `${kept.length} of the ${k} hits asked for: the filter keeps ${kept.length} of the top ${limit} of the ${r.method} ranking, ` +
          `and the ${r.method} ranking goes no deeper than its depth, ${limit} (each component's top ${limit} hits, fused)`,
      };
    depth = Math.min(depth * 4, limit);
  }
}
