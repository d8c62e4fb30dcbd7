/**
 * zod schemas for every structured reply in a debate (parsed by core/llm/structured.ts), sent in the
 * strict subset (core/llm/strict-schema.ts): option letters are an enum of the item's letters and a
 * cited passage is an enum of the handles the model was shown (P1, P2, …). The parser stays lenient
 * (a handle written "[P3]" or a cite outside the set is taken and flagged by the citation check),
 * which a schema-following server never needs.
 */
import { z } from 'zod';
import { sendAs } from '../../core/llm/json-schema.js';
import { passageHandles } from '../common/passage-handles.js';
import { CHECKLIST_ITEMS } from './types.js';

/** A cited passage: the model writes a handle (P3, [P3]); parsed, it is the real id (the item's handle map). */
const id = () => z.union([z.string(), z.number()]).transform((v) => passageHandles().resolve(String(v)));

/** A list of cited passages, offered to the model as an enum of `handles` (none shown: always empty). */
export function citesSchema(handles: readonly string[]) {
  const items = handles.length ? { type: 'string', enum: [...new Set(handles)] } : { type: 'string' };
  return sendAs(z.array(id()).default([]), { type: 'array', items, ...(handles.length ? {} : { maxItems: 0 }) });
}

export function claimSchema(handles: readonly string[]) {
  return z.object({ text: z.string(), cites: citesSchema(handles) });
}

/**
 * A debater's brief: opening (argument + claims) or rebuttal (rebuttal + revised argument + claims);
 * `handles`: the passages the debater was shown. An opening's rebuttal is not used.
 */
export function briefSchema(handles: readonly string[]) {
  return z.object({
    rebuttal: z.string().optional(),
    argument: z.string(),
    claims: z.array(claimSchema(handles)).default([]),
  });
}
export type BriefReply = z.infer<ReturnType<typeof briefSchema>>;

/** One option letter among `letters` ("b", "(B)", "B. text" → "B"). */
export function letterSchema(letters: string[]) {
  return z
    .string()
    .transform((v) => v.trim().replace(/^\(?([A-Za-z])[).:]?(\s.*)?$/s, '$1').toUpperCase())
    .pipe(z.enum(letters as [string, ...string[]]));
}

/** `handles`: every passage the judge was shown (the pool and the briefs' citations). */
export function judgeSchema(letters: string[], handles: readonly string[]) {
  return z.object({
    verdict: letterSchema(letters),
    rationale: z.array(z.string()).length(3),
    checklist: z.object(Object.fromEntries(CHECKLIST_ITEMS.map((k) => [k, z.boolean()])) as Record<(typeof CHECKLIST_ITEMS)[number], z.ZodBoolean>),
    unsupported_citations: citesSchema(handles),
  });
}

export function crossExamSchema(letters: string[]) {
  return z.object({
    questions: z.array(z.object({ letter: letterSchema(letters), question: z.string() })).min(1),
  });
}

export const crossAnswerSchema = z.object({ answer: z.string() });

/** A single agent's cited answer (the baselines); `handles`: the pool it was shown. */
export function citedAnswerSchema(letters: string[], handles: readonly string[]) {
  return z.object({
    reasoning: z.string().default(''),
    answer: letterSchema(letters),
    claims: z.array(claimSchema(handles)).default([]),
  });
}
