/** The zod schema of one multiple-choice option letter, shared by every system that asks for one. */
import { z } from 'zod';

/** A letter alone or marked ("B", "(B)", "B)", "B.", "B:"), then optionally text after a space. */
const MARKED = /^(?:\(([A-Za-z])\)|([A-Za-z])([).:])?)(\s[\s\S]*)?$/;

/**
 * The option letter a reply names, upper-cased: "b", "(B)", "B)", "B.", "B:", and the same followed
 * by text after a delimiter ("B. text", "B) text", "B: text", "(B) text"). Free text after a bare
 * letter ("A or D", "C is wrong; D") names no letter: undefined.
 */
export function optionLetterOf(text: string): string | undefined {
  const m = MARKED.exec(text.trim());
  if (!m) return undefined;
  if (m[2] !== undefined && !m[3] && m[4] !== undefined) return undefined;
  return (m[1] ?? m[2]).toUpperCase();
}

/**
 * One option letter among `letters` (`optionLetterOf`); anything else fails the enum (the
 * structured-output layer then repairs once or records the step as failed).
 */
export function optionLetterSchema(letters: string[], message?: string) {
  return z
    .string()
    .transform((v) => optionLetterOf(v) ?? v.trim())
    .pipe(z.enum(letters as [string, ...string[]], message ? { message } : undefined));
}
