/**
 * lexcase's root export: what a first program needs — build an index, search it (any method, the
 * LangChain retriever, the search tools), evaluate retrieval (also on a TREC collection), configure
 * the LLM, run an experiment and report it, find evidence, the query service. Each area's full
 * surface is a subpath (package.json `exports`): `lexcase/core`, `lexcase/corpora`,
 * `lexcase/indexer`, `lexcase/retrieval`, `lexcase/eval`, `lexcase/agents`, `lexcase/agents/case`,
 * `lexcase/agents/acal`, `lexcase/agents/mad`, `lexcase/agents/threeply`, `lexcase/agents/emar`,
 * `lexcase/agents/baselines`, `lexcase/service`, `lexcase/demo` (src/exports/).
 */
import '../agents/systems.js';
export { LexcaseError, isLexcaseError, type ErrorCode } from '../core/errors.js';
export type * from '../corpora/types.js';
export type * from '../retrieval/types.js';
export { loadConfig, type LlmConfig, type LexcaseConfig } from '../core/config.js';
export { createChatModel, requireLlm } from '../core/llm/factory.js';
export { UsageMeter, withUsageScope } from '../core/llm/usage.js';
export { loadPassages, loadQuestions, datasetChecksum } from '../corpora/registry.js';
export { buildIndex, type BuildOptions } from '../indexer/build.js';
export { indexCorpus, type IndexCorpusOptions } from '../indexer/index-corpus.js';
export { closeSparseIndexes } from '../retrieval/open.js';
export { openRetriever } from '../retrieval/open-printed.js';
export { openIndex, type OpenedIndex } from '../retrieval/open-index.js';
export { DEFAULT_K, SEARCH_K } from '../retrieval/default-k.js';
export { createWinkRetriever } from '../retrieval/wink.js';
export { createDenseRetriever } from '../retrieval/dense.js';
export { createHybridRetriever } from '../retrieval/hybrid.js';
export { createRetrievalTools, searchHits, type SearchArtifact } from '../retrieval/tools/index.js';
export { LexcaseRetriever, type LexcaseRetrieverInput, type LexcaseFromDocumentsInput, type LexcaseMetadataFilter } from '../retrieval/langchain-retriever.js';
export { evalRetrieval, type RetrievalEvalResult } from '../eval/retrieval-eval.js';
export { loadTopics, loadQrels, loadTrecRun, parseMeasures, evaluateRun, compareTrecEvals, batchSearch } from '../eval/trec/index.js';
export { runExperiment, type RunExperimentOptions } from '../eval/runner.js';
export { writeReport } from '../eval/report/index.js';
export { findEvidence, type FindEvidenceOptions, type EvidenceResult } from '../agents/case/find-evidence.js';
export { openQueryService, type QueryService } from '../serve/query/query-service.js';
