/** `lexcase/indexer`: building indices: sparse, dense, LanceDB FTS; manifest, analyzer, doc store, checksums (indexer/). */
export { readManifest, type Manifest, type AnalyzerConfig } from '../../indexer/manifest.js';
export { createAnalyzer, type Analyzer } from '../../indexer/analyzer.js';
export { buildIndex, type BuildOptions } from '../../indexer/build.js';
export { openDocStore, type OpenedDocStore } from '../../indexer/docstore.js';
export { verifyChecksums, type VerifyReport, type VerifyProblem } from '../../indexer/integrity.js';
export type { SparseIndex } from '../../indexer/sparse/sparse-index.js';
export { createEmbedder, parseEmbedderSpec } from '../../indexer/embed/create-embedder.js';
export type { Embedder, EmbedderSpec, EmbedOptions, EmbedKind, EmbedderProvider } from '../../indexer/embed/types.js';
export { addDenseIndex, type AddDenseOptions } from '../../indexer/dense/add-dense.js';
export { annParams, ANN_TYPES, DEFAULT_ANN_THRESHOLD, DEFAULT_ANN_TYPE, type AnnParams, type AnnType } from '../../indexer/dense/ann-params.js';
export type { DenseSection } from '../../indexer/dense/dense-section.js';
export { indexCorpus, type IndexCorpusOptions } from '../../indexer/index-corpus.js';
export { defaultCorpusName, type PassageInput, type PassagesInput } from '../../indexer/passage-input.js';
