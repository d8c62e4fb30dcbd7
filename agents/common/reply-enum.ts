/**
 * The zod schema of a reply that names one of a few values (an option letter, Yes/No, a clash's
 * side): `read` picks the value a reply names ("b" → "B", "yes." → "Yes"), and anything it does not
 * read is kept as sent and fails the enum (the structured-output layer then repairs once or records
 * the step as failed). Sent to the endpoint as that enum.
 */
import { z } from 'zod';

export function replyEnumSchema<const T extends readonly [string, ...string[]]>(read: (text: string) => string | undefined, values: T, message?: string) {
  return z
    .string()
    .transform((v) => read(v) ?? v.trim())
    .pipe(z.enum(values, message ? { message } : undefined));
}
