/** lexcase library API. Each area re-exports its public surface here. */
export * from './errors.js';
export * from './rng.js';
export type * from '../corpora/types.js';
export type * from '../retrieval/types.js';
export type * from '../eval/types.js';
export { readManifest, type Manifest, type AnalyzerConfig } from '../indexer/manifest.js';
export { loadConfig, llmConfigSchema, type LlmConfig, type LexcaseConfig } from './config.js';
export { createChatModel, requireLlm, llmStats } from './llm/factory.js';
export { UsageMeter, withUsageScope, recordUsage } from './llm/usage.js';
export { DiskCache } from './llm/disk-cache.js';
export { invokeStructured, messageText, extractJson } from './llm/structured.js';
