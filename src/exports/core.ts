/** `lexcase/core`: errors, seeded randomness, configuration and the one LLM factory (core/). */
export * from '../../core/errors.js';
export * from '../../core/rng.js';
export { loadConfig, llmConfigSchema, type LlmConfig, type LexcaseConfig } from '../../core/config.js';
export { createChatModel, requireLlm, llmStats } from '../../core/llm/factory.js';
export { UsageMeter, withUsageScope, recordUsage } from '../../core/llm/usage.js';
export { DiskCache } from '../../core/llm/disk-cache.js';
export { invokeStructured, messageText, extractJson } from '../../core/llm/structured.js';
export { structuredFailure, structuredRequest, structuredOutputMode, type StructuredOutputMode, type StructuredFailure } from '../../core/llm/structured.js';
export { declareAnswerFields, type AnswerFields } from '../../core/llm/answer-fields.js';
export { redactValue } from '../../core/redact-value.js';
