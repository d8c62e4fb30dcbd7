/**
 * How replies are read, recorded in every LLM run's config.json (`replyReading`, eval/runner.ts): an
 * older lexcase read a reasoning model's `<think>` block as part of the answer (a draft object in it
 * was taken for the answer), so a resume of a run dir it started warns (eval/resume-unrecorded.ts).
 * The reading recorded until 2026-12-01 (REPLY_READING_BEFORE_HARMONY) took a draft object in a
 * `<thinking>` block or a gpt-oss Harmony analysis channel for the answer, and the first of two
 * different objects in one reply, and a tool call whose arguments came as a JSON object (not a
 * string) was malformed (never ran); a resume of a run dir that records it warns too. The reading
 * recorded until 2026-12-02 (REPLY_READING_BEFORE_REPEATS) ran a tool call sent twice in one reply
 * (same tool and arguments) twice, a CASE advocate scoring its passages twice; a resume warns too.
 * Its own module: the runner reads it in offline runs too, which must not load LangChain
 * (core/llm/structured.ts, which applies it, does). Its values, current and older: core/recorded-readings.ts.
 */
import { RECORDED_READINGS } from '../recorded-readings.js';

export const REPLY_READING = RECORDED_READINGS.replyReading.current;

/** The `replyReading` recorded from 2026-12-01 until 2026-12-02: identical tool calls in one reply each ran. */
export const REPLY_READING_BEFORE_REPEATS = RECORDED_READINGS.replyReading.older[1].value;

/** The `replyReading` recorded before 2026-12-01's: only `<think>` blocks dropped. */
export const REPLY_READING_BEFORE_HARMONY = RECORDED_READINGS.replyReading.older[0].value;
