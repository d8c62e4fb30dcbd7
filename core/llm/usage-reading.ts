/**
 * How token usage is read from an LLM reply, recorded in every LLM run's config.json (`usageReading`,
 * eval/runner.ts): an older lexcase took prompt + completion for a reply's total where the endpoint
 * reported a `total_tokens` above it (a thinking model's reasoning counted in the total alone, as gateways
 * in front of Gemini send it), so the excess was lost from its items' `tokens.total`; a resume or merge
 * of a run dir it started warns (eval/resume-unrecorded.ts). The reading itself is core/llm/chat-openai.ts's
 * (core/llm/usage.ts `totalAbove`). Its own module: the runner reads it in offline runs too, which must not
 * load LangChain.
 */
export const USAGE_READING = 'a total_tokens above prompt + completion counted whole: the excess in the total, not in input/output (tokens.totalAbove)';
