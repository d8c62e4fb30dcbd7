/**
 * The zod schema of ACAL's clash winner ("A" or "B": which of the two arguments shown is stronger),
 * read as its Yes/No replies and option letters are (agents/common/yes-no.ts, option-letter.ts): the
 * letter in any case, alone or marked, or named as the argument — "A", "a", "A.", "(B)", "B)",
 * "Argument A", "argument (b)" — is that side; anything else ("A or B", "A/B", "Both", "neither",
 * "A, because …") names no side and fails the enum (the structured-output layer then repairs once or
 * records the step as failed). Before, only "A" and "B" exactly were taken: "Argument A" or "A." was
 * retried, then the item's clash step failed.
 */
import { replyEnumSchema } from '../common/reply-enum.js';

const WINNER = /^(?:argument\s+)?(?:\(([ab])\)|([ab])[.!:;)]?)$/i;

/** "A" or "B" for a reply that names that side alone ("a", "B.", "(A)", "Argument B"), else undefined. */
export function clashWinnerOf(text: string): 'A' | 'B' | undefined {
  const m = WINNER.exec(text.trim());
  if (!m) return undefined;
  return (m[1] ?? m[2]).toUpperCase() === 'A' ? 'A' : 'B';
}

/** One of "A" / "B" (`clashWinnerOf`); sent to the endpoint as that enum. */
export function clashWinnerSchema() {
  return replyEnumSchema(clashWinnerOf, ['A', 'B']);
}

/**
 * How an ACAL run reads a clash winner, recorded in its config.json (`clashWinnerReading`): a run dir
 * an older lexcase started, which failed "Argument A" and "B." after a retry, resumes with a warning
 * (eval/resume-unrecorded.ts).
 */
export const CLASH_WINNER_READING = 'any case, alone, marked or named ("a", "B.", "(A)", "Argument B")';
