/**
 * The zod schema of a Yes/No answer, read as option letters are (agents/common/option-letter.ts):
 * the word in any case, alone or marked — "yes", "YES", "Yes.", "No!", "(No)", "No:" — is its
 * label; anything else ("Yes or No", "Yes/No", "maybe", "Yes. No.", "Yes, because …") names no
 * label and fails the enum (the structured-output layer then repairs once or records the step as
 * failed). Before, only "Yes" and "No" exactly were taken: "yes" was retried, then the item failed.
 */
import { replyEnumSchema } from './reply-enum.js';

const LABEL = /^(?:\((yes|no)\)|(yes|no)[.!:;]?)$/i;

/** "Yes" or "No" for a reply that names that label alone ("yes", "No.", "(YES)"), else undefined. */
export function yesNoOf(text: string): 'Yes' | 'No' | undefined {
  const m = LABEL.exec(text.trim());
  if (!m) return undefined;
  return (m[1] ?? m[2]).toLowerCase() === 'yes' ? 'Yes' : 'No';
}

/** One of "Yes" / "No" (`yesNoOf`); sent to the endpoint as that enum. */
export function yesNoSchema() {
  return replyEnumSchema(yesNoOf, ['Yes', 'No']);
}

/**
 * How an ACAL run reads a Yes/No reply, recorded in its config.json (`yesNoReading`): a run dir an
 * older lexcase started, which failed "yes" and "No." after a retry, resumes with a warning
 * (eval/resume-unrecorded.ts).
 */
export const YES_NO_READING = 'any case, alone or marked ("yes", "No.", "(YES)")';
