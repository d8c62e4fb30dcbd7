/**
 * Retrieval methods as LangChain tools, for lexcase agents and any LangChain agent:
 *
 *   const tools = createRetrievalTools({ retrievers: { bm25, qld }, docs, llm, recorder });
 *   // → bm25_search, qld_search, rewrite_query
 *
 * One search tool per retriever given whose method has one (retrieval/methods.ts: bm25_search, qld_search, dense_search, hybrid_search), plus
 * rewrite_query when an llm is given. Search tools take {query, k?} and return JSON text
 * {method, query, results: [{id, score, rank, snippet}]} (never a title) and, as the artifact, the
 * same hits with the doc store's title where it has one (search-tool.ts). The text carries real
 * passage ids: lexcase's agents show it to a model only through PassageHandles.wrapTools
 * (agents/common/passage-handles.ts).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { DocStore, Retriever } from '../types.js';
import { METHODS } from '../methods.js';
import { createSearchTool } from './search-tool.js';
import { createRewriteQueryTool } from './rewrite-query.js';
import type { ToolRecorder } from './tool-recorder.js';

/** A method with a search tool (retrieval/methods.ts: an entry with `agents`). */
export type ToolMethod = string;

export interface RetrievalToolsOptions {
  retrievers: Partial<Record<ToolMethod, Retriever>>;
  /** Where the hits' titles and texts (snippets) are read. */
  docs: Pick<DocStore, 'get'>;
  llm?: BaseChatModel;
  recorder?: ToolRecorder;
  /** Snippet length in characters, its "…" cut marks included (default 600; retrieval/tools/snippet.ts). */
  snippetChars?: number;
  /** k when the agent does not give one (default DEFAULT_K, retrieval/default-k.ts). */
  defaultK?: number;
}

export function createRetrievalTools(opts: RetrievalToolsOptions): StructuredToolInterface[] {
  const tools: StructuredToolInterface[] = [];
  for (const m of METHODS) {
    const retriever = opts.retrievers[m.name];
    if (retriever && m.agents)
      tools.push(
        createSearchTool({
          name: m.agents.tool,
          description: m.agents.description,
          retriever,
          docs: opts.docs,
          recorder: opts.recorder,
          snippetChars: opts.snippetChars,
          defaultK: opts.defaultK,
        }),
      );
  }
  if (opts.llm) tools.push(createRewriteQueryTool({ llm: opts.llm, recorder: opts.recorder }));
  return tools;
}

export { createSearchTool, searchInputSchema, type SearchResult, type SearchArtifact, type SearchToolOptions } from './search-tool.js';
export { searchHits } from './search-hits.js';
export { createRewriteQueryTool, rewriteQuery, rewritePrompt, rewriteInputSchema, REWRITE_STYLES, type RewriteStyle } from './rewrite-query.js';
export { ToolRecorder, withToolRecorder, currentToolRecorder, recordToolCall, type ToolCallLog } from './tool-recorder.js';
export { makeSnippet } from './snippet.js';
