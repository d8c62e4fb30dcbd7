/** lexcase library API. Each area re-exports its public surface here. */
import '../agents/report-sections.js';
export * from '../core/errors.js';
export * from '../core/rng.js';
export type * from '../corpora/types.js';
export type * from '../retrieval/types.js';
export type * from '../eval/types.js';
export { readManifest, type Manifest, type AnalyzerConfig } from '../indexer/manifest.js';
export { createAnalyzer, type Analyzer } from '../indexer/analyzer.js';
export { buildIndex, type BuildOptions } from '../indexer/build.js';
export { openDocStore, type OpenedDocStore } from '../indexer/docstore.js';
export { verifyChecksums, type VerifyReport, type VerifyProblem } from '../indexer/integrity.js';
export type { SparseIndex } from '../indexer/sparse/sparse-index.js';
export { openRetriever, openSparseIndex, closeSparseIndexes } from '../retrieval/open.js';
export { openIndex, openCaseIndex, INDEX_METHODS, type OpenedIndex, type AgentIndex } from '../retrieval/open-index.js';
export { DEFAULT_K } from '../retrieval/default-k.js';
export { createBm25Retriever, BM25_DEFAULTS, type Bm25Params } from '../retrieval/bm25.js';
export { SPARSE_SCORER_NAMES, type SparseScorer } from '../retrieval/sparse/score-core.js';
export { createQldRetriever, QLD_DEFAULTS, type QldParams, type QldVariant } from '../retrieval/qld.js';
export { createWinkRetriever, type WinkOptions } from '../retrieval/wink.js';
export { createEmbedder, parseEmbedderSpec } from '../indexer/embed/create-embedder.js';
export type { Embedder, EmbedderSpec, EmbedOptions, EmbedKind, EmbedderProvider } from '../indexer/embed/types.js';
export { addDenseIndex, type AddDenseOptions } from '../indexer/dense/add-dense.js';
export { annParams, ANN_TYPES, DEFAULT_ANN_THRESHOLD, DEFAULT_ANN_TYPE, type AnnParams, type AnnType } from '../indexer/dense/ann-params.js';
export type { DenseSection } from '../indexer/dense/dense-section.js';
export { openDenseRetriever, createDenseRetriever, type DenseRetriever, type DenseOptions } from '../retrieval/dense.js';
export { createHybridRetriever, type HybridOptions } from '../retrieval/hybrid.js';
export { reciprocalRankFusion, weightedFusion, minMaxNormalize, fuse, RRF_K, type FusionMethod, type FusedHit, type RankedList } from '../retrieval/fusion.js';
export { openLanceFtsRetriever, ensureLanceFts } from '../retrieval/lancedb-fts.js';
export { loadConfig, llmConfigSchema, type LlmConfig, type LexcaseConfig } from '../core/config.js';
export { createChatModel, requireLlm, llmStats } from '../core/llm/factory.js';
export { UsageMeter, withUsageScope, recordUsage } from '../core/llm/usage.js';
export { DiskCache } from '../core/llm/disk-cache.js';
export { invokeStructured, messageText, extractJson } from '../core/llm/structured.js';
export { structuredFailure, structuredRequest, structuredOutputMode, type StructuredOutputMode, type StructuredFailure } from '../core/llm/structured.js';
export { redactValue } from '../core/redact-value.js';
export { resultRecordSchema, registerTraceSchema, traceSchemaFor, baseTraceSchema } from '../eval/records.js';
export { loadTradeSecretModel, formatFactor, type Factor, type TradeSecretCase, type TradeSecretModel, type Side as TradeSecretSide } from '../corpora/trade-secret.js';
export { buildScenarios, classifyTriple, SCENARIO_MODES, type CaseTriple, type ScenarioMode } from '../agents/threeply/scenarios.js';
export { createThreePlySystem, generateArgument } from '../agents/threeply/system.js';
export { scoreTriple, summarizeByScenario, hallucinationAccuracy, utilizationRecall } from '../agents/threeply/metrics.js';
export { THREEPLY_SYSTEMS, type ThreePlySystemKind, type ArgumentResult } from '../agents/threeply/types.js';
export { runEmar, type EmarOptions } from '../agents/emar/emar.js';
export { createEmarSystem } from '../agents/emar/system.js';
export { questionToCase, taskExampleToCase, TASK_FRAMINGS } from '../agents/emar/cases.js';
export type { EmarCase, EmarResult, ClaimEmbedder } from '../agents/emar/types.js';
export { PassageHandles, withPassageHandles, passageHandles } from '../agents/common/passage-handles.js';
export { PAPER_SAMPLING, applyPaperSampling, degeneracyWarnings, type PaperSystem } from '../agents/common/paper-settings.js';
export { loadPassages, loadQuestions, datasetChecksum, fileChecksum, corpusNames, datasetNames, CORPORA, DATASETS, type LoadPassagesOptions, type LoadQuestionsOptions } from '../corpora/registry.js';
export { loadPassageFile, formatFromPath, PASSAGE_FORMATS, type PassageFormat, type FileLoadOptions } from '../corpora/load-passages.js';
export { readJsonl, loadJsonlPassages } from '../corpora/jsonl.js';
export { readCsvRows, loadCsvPassages } from '../corpora/csv.js';
export { readParquetRows, loadParquetPassages } from '../corpora/parquet.js';
export { type FieldMapping } from '../corpora/field-map.js';
export { retrievalQuery } from '../corpora/barexam.js';
export { selectSplit, splitSizes, parseSplit, DEFAULT_SPLIT_SEED, BAREXAM_SPLIT_SIZES } from '../corpora/splits.js';
export { indexCorpus, type IndexCorpusOptions } from '../indexer/index-corpus.js';
export * from '../eval/metrics/index.js';
export { bootstrapCi, bootstrapStatisticCi, pairedBootstrap, unpairedBootstrap, percentile, type Ci, type DiffCi, type BootstrapOptions } from '../eval/bootstrap.js';
export { wilsonCi, type WilsonCi } from '../eval/wilson.js';
export { evalRetrieval, parseKs, DEFAULT_KS, type RetrievalEvalOptions, type RetrievalEvalResult, type QueryResult } from '../eval/retrieval-eval.js';
export { evalRetrievalOnIndex, type IndexEvalOptions, type RetrievalReport } from '../eval/retrieval-eval-index.js';
export { formatRetrievalReport, retrievalTable } from '../eval/retrieval-eval-format.js';
export { TrecRunWriter, trecRunLines, trecQrelsLines } from '../eval/retrieval-eval-run-file.js';
export { runDemo, type DemoOptions, type DemoResult } from './demo/run-demo.js';
export * from '../eval/trec/index.js';
export { DEMO_STEPS } from './demo/steps.js';
export type { DemoStep, DemoContext } from '../eval/demo/types.js';
export { findEvidence, type FindEvidenceOptions, type EvidenceResult } from '../agents/case/find-evidence.js';
export { openQueryService, passageUri, type QueryService, type QueryServiceOptions, type IndexSpec } from './service/query-service.js';
export type { SearchInput, SearchOutput, ExplainInput, ExplainOutput, PassageInput as PassageRequest, PassageOutput, EvidenceInput, EvidenceOutput, ListIndexesOutput, IndexInfo } from './service/schemas.js';
export { createCase, createCaseLlmSystem, createCaseOfflineSystem, runAdvocate, runOfflineAdvocate, majorityVote, samplePanel, PERSONAS, evidenceRecall, withGoldGuard, OFFLINE_LABEL, type CaseOptions } from '../agents/case/index.js';
export { caseMetrics, caseMetricsMarkdown, type CaseMetrics } from '../agents/case/metrics.js';
export { createBaseline, BASELINE_MODES, type BaselineMode } from '../agents/baselines/index.js';
export { createRetrievalTools, createSearchTool, createRewriteQueryTool, rewriteQuery, ToolRecorder, withToolRecorder, makeSnippet, REWRITE_STYLES, type RetrievalToolsOptions, type ToolCallLog, type SearchResult, type SearchArtifact, searchHits, type RewriteStyle } from '../retrieval/tools/index.js';
export { runExperiment, type RunExperimentOptions, type RunExperimentResult, type RunConfigFile, type RunProgress } from '../eval/runner.js';
export { readResults, traceFileName, RUN_FILES } from '../eval/run-dir.js';
export { gitSha, provenance, type Provenance } from '../eval/provenance.js';
export { readRun, buildReport, writeReport, registerReportSection, compareRuns, compareRunData, formatComparison, toolCallsOf, type Comparison, type Report, type RunData, type ReportSection, type SectionBuilder } from '../eval/report/index.js';
export { computeStrengths as computeQbafStrengths, quadraticEnergy, dfQuad, acalCompat, SEMANTICS as QBAF_SEMANTICS, recompute as recomputeAcalGraph, compareSemantics, readGraph as readAcalGraph, writeGraph as writeAcalGraph, readAudit as readAcalAudit, contest as contestAcal, applyContest as applyAcalContest, parseContestAction, runArena, createAcalSystem, runAcal, acalMetrics, LEGAL_ROLES, ACAL_TASKS, PAPER_DEFAULTS as ACAL_PAPER_DEFAULTS, type AcalGraph, type ContestAction, type AuditEntry as AcalAuditEntry, type Qbaf, type SemanticsName } from '../agents/acal/index.js';
export { loadLegalBenchTask, resolveLegalBenchFile, LEGALBENCH_TASKS } from '../corpora/legalbench.js';
export {
  createMad,
  createSingleRag,
  createSelfConsistency,
  createMadSystem,
  runMadExperiment,
  runMadSeeds,
  madMetrics,
  seedConsistency,
  lexicallySupports,
  visibleOpponents,
  MAD_DEFAULTS,
  type MadSettings,
  type MadMetrics,
  type SeedConsistency,
  type MadExperimentOptions,
} from '../agents/mad/index.js';
export { defaultCorpusName, type PassageInput, type PassagesInput } from '../indexer/passage-input.js';
export { attachTexts, textStoreFor, closeTextStores, type TextLookup, type TextSource } from '../retrieval/hit-text.js';
export { LexcaseRetriever, type LexcaseRetrieverInput, type LexcaseDocumentMetadata } from '../retrieval/langchain-retriever.js';
// the system registry: each system's name and headline figures (the explorer's runs list, run page and compare read it)
export { SYSTEMS, systemSpec, headlineFigures, modelOf, SMALL_N, MIN_BOOTSTRAP_N, type SystemSpec, type HeadlineMetric, type HeadlineFigure, type FigureContext } from '../agents/systems.js';
