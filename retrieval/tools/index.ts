/**
 * Retrieval methods as LangChain tools, for lexcase agents and any LangChain agent:
 *
 *   const tools = createRetrievalTools({ retrievers: { bm25, qld }, docs, llm, recorder });
 *   // → bm25_search, qld_search, rewrite_query
 *
 * One search tool per retriever given (bm25_search, qld_search, dense_search, hybrid_search), plus
 * rewrite_query when an llm is given. Search tools take {query, k?} and return JSON text
 * {method, query, results: [{id, score, rank, title?, snippet}]}.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { DocStore, Retriever } from '../types.js';
import { createBm25SearchTool } from './bm25-search.js';
import { createDenseSearchTool } from './dense-search.js';
import { createHybridSearchTool } from './hybrid-search.js';
import { createQldSearchTool } from './qld-search.js';
import { createRewriteQueryTool } from './rewrite-query.js';
import type { ToolRecorder } from './tool-recorder.js';

export type ToolMethod = 'bm25' | 'qld' | 'dense' | 'hybrid';

export interface RetrievalToolsOptions {
  retrievers: Partial<Record<ToolMethod, Retriever>>;
  docs: DocStore;
  llm?: BaseChatModel;
  recorder?: ToolRecorder;
  /** Snippet length in characters (default 600). */
  snippetChars?: number;
  /** k when the agent does not give one (default 5). */
  defaultK?: number;
}

const MAKERS = { bm25: createBm25SearchTool, qld: createQldSearchTool, dense: createDenseSearchTool, hybrid: createHybridSearchTool };

export function createRetrievalTools(opts: RetrievalToolsOptions): StructuredToolInterface[] {
  const tools: StructuredToolInterface[] = [];
  for (const method of ['bm25', 'qld', 'dense', 'hybrid'] as const) {
    const retriever = opts.retrievers[method];
    if (retriever) tools.push(MAKERS[method]({ retriever, docs: opts.docs, recorder: opts.recorder, snippetChars: opts.snippetChars, defaultK: opts.defaultK }));
  }
  if (opts.llm) tools.push(createRewriteQueryTool({ llm: opts.llm, recorder: opts.recorder }));
  return tools;
}

export { createSearchTool, searchInputSchema, type SearchResult, type SearchArtifact, type SearchToolOptions } from './search-tool.js';
export { searchHits } from './search-hits.js';
export { createRewriteQueryTool, rewriteQuery, rewritePrompt, rewriteInputSchema, REWRITE_STYLES, type RewriteStyle } from './rewrite-query.js';
export { ToolRecorder, withToolRecorder, currentToolRecorder, recordToolCall, type ToolCallLog } from './tool-recorder.js';
export { makeSnippet } from './snippet.js';
