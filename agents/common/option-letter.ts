/** The zod schema of one multiple-choice option letter, shared by every system that asks for one. */
import { z } from 'zod';

/**
 * One option letter among `letters`: "b", "(B)", "B)", "B. text" → "B"; anything else fails the
 * enum (the structured-output layer then repairs once or records the step as failed).
 */
export function optionLetterSchema(letters: string[]) {
  return z
    .string()
    .transform((v) =>
      v
        .trim()
        .replace(/^\(?([A-Za-z])[).:]?(\s.*)?$/s, '$1')
        .toUpperCase(),
    )
    .pipe(z.enum(letters as [string, ...string[]]));
}
