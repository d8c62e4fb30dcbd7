/** `lexcase/retrieval`: opening indices and searching: every method, fusion, search tools, the LangChain retriever, k defaults (retrieval/). */
export type * from '../../retrieval/types.js';
export { openSparseIndex, closeSparseIndexes } from '../../retrieval/open.js';
export { openRetriever } from '../../retrieval/open-printed.js';
export { openIndex, openCaseIndex, INDEX_METHODS, type OpenedIndex, type AgentIndex } from '../../retrieval/open-index.js';
export { DEFAULT_K, SEARCH_K } from '../../retrieval/default-k.js';
export { RETRIEVAL_DEFAULTS } from '../../retrieval/defaults.js';
export { resolveSearch, searchK, type ResolvedSearch } from '../../retrieval/search-options.js';
export { createBm25Retriever, BM25_DEFAULTS, type Bm25Params } from '../../retrieval/bm25.js';
export { SPARSE_SCORER_NAMES, type SparseScorer } from '../../retrieval/sparse/score-core.js';
export { createQldRetriever, QLD_DEFAULTS, type QldParams, type QldVariant } from '../../retrieval/qld.js';
export { createWinkRetriever, type WinkOptions } from '../../retrieval/wink.js';
export { openDenseRetriever, createDenseRetriever, type DenseRetriever, type DenseOptions } from '../../retrieval/dense.js';
export { createHybridRetriever, type HybridOptions } from '../../retrieval/hybrid.js';
export {
  reciprocalRankFusion,
  weightedFusion,
  minMaxNormalize,
  fuse,
  RRF_K,
  type FusionMethod,
  type FusedHit,
  type RankedList,
} from '../../retrieval/fusion.js';
export { openLanceFtsRetriever, ensureLanceFts } from '../../retrieval/lancedb-fts.js';
export {
  createRetrievalTools,
  createSearchTool,
  createRewriteQueryTool,
  rewriteQuery,
  ToolRecorder,
  withToolRecorder,
  makeSnippet,
  REWRITE_STYLES,
  type RetrievalToolsOptions,
  type ToolCallLog,
  type SearchResult,
  type SearchArtifact,
  searchHits,
  type RewriteStyle,
} from '../../retrieval/tools/index.js';
export { attachTexts, textStoreFor, closeTextStores, type TextLookup, type TextSource } from '../../retrieval/hit-text.js';
export {
  LexcaseRetriever,
  type LexcaseRetrieverInput,
  type LexcaseDocumentMetadata,
  type LexcaseFromDocumentsInput,
  type LexcaseMetadataFilter,
  type PassageMetadataView,
} from '../../retrieval/langchain-retriever.js';
