/** lexcase library API. Each area re-exports its public surface here. */
export * from './errors.js';
export * from './rng.js';
export type * from '../corpora/types.js';
export type * from '../retrieval/types.js';
export type * from '../eval/types.js';
export { readManifest, type Manifest, type AnalyzerConfig } from '../indexer/manifest.js';
