import type { StructuredToolInterface } from '@langchain/core/tools';
import { createSearchTool, type SearchToolOptions } from './search-tool.js';

export const QLD_SEARCH_DESCRIPTION =
  'Query-likelihood search with Dirichlet smoothing (QLD) over the legal passage corpus. Lexical like BM25 but favours passages whose wording as a whole is likely to produce the query; good for longer, descriptive queries. Returns passage ids, scores and snippets.';

export function createQldSearchTool(o: Omit<SearchToolOptions, 'name' | 'description'>): StructuredToolInterface {
  return createSearchTool({ ...o, name: 'qld_search', description: QLD_SEARCH_DESCRIPTION });
}
