import type { StructuredToolInterface } from '@langchain/core/tools';
import { createSearchTool, type SearchToolOptions } from './search-tool.js';

export const BM25_SEARCH_DESCRIPTION =
  'Keyword search (BM25) over the legal passage corpus. Best for exact legal terms of art, doctrine names and statutory words. Returns passage ids, scores and snippets.';

export function createBm25SearchTool(o: Omit<SearchToolOptions, 'name' | 'description'>): StructuredToolInterface {
  return createSearchTool({ ...o, name: 'bm25_search', description: BM25_SEARCH_DESCRIPTION });
}
