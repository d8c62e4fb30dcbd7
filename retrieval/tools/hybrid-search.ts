import type { StructuredToolInterface } from '@langchain/core/tools';
import { createSearchTool, type SearchToolOptions } from './search-tool.js';

export const HYBRID_SEARCH_DESCRIPTION =
  'Hybrid search: keyword and semantic rankings fused into one list. A good default when unsure which search to use. Returns passage ids, scores and snippets.';

export function createHybridSearchTool(o: Omit<SearchToolOptions, 'name' | 'description'>): StructuredToolInterface {
  return createSearchTool({ ...o, name: 'hybrid_search', description: HYBRID_SEARCH_DESCRIPTION });
}
