import type { StructuredToolInterface } from '@langchain/core/tools';
import { createSearchTool, type SearchToolOptions } from './search-tool.js';

export const DENSE_SEARCH_DESCRIPTION =
  'Semantic (embedding) search over the legal passage corpus. Finds passages that mean the same thing with different words; good for fact patterns and paraphrased rules. Returns passage ids, scores and snippets.';

export function createDenseSearchTool(o: Omit<SearchToolOptions, 'name' | 'description'>): StructuredToolInterface {
  return createSearchTool({ ...o, name: 'dense_search', description: DENSE_SEARCH_DESCRIPTION });
}
