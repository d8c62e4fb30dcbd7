/**
 * The library's `openRetriever` (lexcase, lexcase/retrieval): the retriever of retrieval/open.ts
 * whose `search(query, { k })` returns the top k as `lexcase search`, `search --topics`, `eval
 * retrieval`, the query service, MCP, /v1 and the explorer rank them (retrieval/top-k.ts
 * searchTopK: trec_eval's order, scores as the run file writes them (6 decimals; a hybrid's 10 significant digits), ties by id descending,
 * searched past a tie at the cut). A retriever's own search keeps its k best hits with tied scores
 * in index order, so at a tie across the cut the library's rank 1 was another passage than the
 * CLI's (barexam, two copies of one passage: mbe_126 from the library, mbe_2644 from `lexcase
 * search -k 1`). The CLI, evaluation and agents keep opening retrieval/open.ts's retriever and cut
 * through searchTopK where they show or evaluate a ranking, as before.
 */
import { openRetriever as openIndexOrderRetriever } from './open.js';
import { searchK } from './search-options.js';
import { printedRun } from './top-k.js';
import type { Hit, Retriever, SearchOptions } from './types.js';

/** `r` with `search` returning the printed ranking's top k, its printedRun (other members are `r`'s own). */
export function inPrintedOrder(r: Retriever): Retriever {
  const search = async (query: string, o?: SearchOptions): Promise<Hit[]> => {
    // k as every search reads it (SEARCH_K when absent; INVALID_INPUT naming k); 0 goes to the retriever: no hits
    const k = searchK(o?.k);
    return k === 0 ? r.search(query, o) : printedRun(r, query, k, o);
  };
  return new Proxy(r, {
    get(target, key) {
      if (key === 'search') return search;
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** openRetriever (retrieval/open.ts), its search in the printed order (see above). */
export async function openRetriever(dir: string, method: string, opts: Record<string, unknown> = {}): Promise<Retriever> {
  return inPrintedOrder(await openIndexOrderRetriever(dir, method, opts));
}
