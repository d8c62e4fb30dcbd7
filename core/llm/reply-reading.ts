/**
 * How replies are read, recorded in every LLM run's config.json (`replyReading`, eval/runner.ts): an
 * older lexcase read a reasoning model's `<think>` block as part of the answer (a draft object in it
 * was taken for the answer), so a resume of a run dir it started warns (eval/resume-unrecorded.ts).
 * Its own module: the runner reads it in offline runs too, which must not load LangChain
 * (core/llm/structured.ts, which applies it, does).
 */
export const REPLY_READING = 'think-blocks-dropped';
