/**
 * How token usage is read from an LLM reply, recorded in every LLM run's config.json (`usageReading`,
 * eval/runner.ts): an older lexcase took prompt + completion for a reply's total where the endpoint
 * reported a `total_tokens` above it (a thinking model's reasoning counted in the total alone, as gateways
 * in front of Gemini send it), so the excess was lost from its items' `tokens.total`; a resume or merge
 * of a run dir it started warns (eval/resume-unrecorded.ts). The reading itself is core/llm/chat-openai.ts's
 * (core/llm/usage.ts `totalAbove`). Its own module: the runner reads it in offline runs too, which must not
 * load LangChain.
 *
 * Its values, current and older, are core/recorded-readings.ts's: a run dir recording an older one resumes with
 * "records an older usageReading".
 */
import { RECORDED_READINGS } from '../recorded-readings.js';

export const USAGE_READING = RECORDED_READINGS.usageReading.current;
