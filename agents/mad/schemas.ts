/** zod schemas for every structured reply in a debate (parsed by core/llm/structured.ts). */
import { z } from 'zod';
import { passageHandles } from '../common/passage-handles.js';
import { CHECKLIST_ITEMS } from './types.js';

/** A cited passage: the model writes a handle (P3, [P3]); parsed, it is the real id (the item's handle map). */
const id = z.union([z.string(), z.number()]).transform((v) => passageHandles().resolve(String(v)));

export const claimSchema = z.object({
  text: z.string().min(1),
  cites: z.array(id).default([]),
});

/** A debater's brief: opening (argument + claims) or rebuttal (rebuttal + revised argument + claims). */
export const briefSchema = z.object({
  rebuttal: z.string().optional(),
  argument: z.string().min(1),
  claims: z.array(claimSchema).default([]),
});
export type BriefReply = z.infer<typeof briefSchema>;

/** One option letter among `letters` ("b", "(B)", "B. text" → "B"). */
export function letterSchema(letters: string[]) {
  return z
    .string()
    .transform((v) => v.trim().replace(/^\(?([A-Za-z])[).:]?(\s.*)?$/s, '$1').toUpperCase())
    .pipe(z.enum(letters as [string, ...string[]]));
}

export function judgeSchema(letters: string[]) {
  return z.object({
    verdict: letterSchema(letters),
    rationale: z.array(z.string().min(1)).length(3),
    checklist: z.object(Object.fromEntries(CHECKLIST_ITEMS.map((k) => [k, z.boolean()])) as Record<(typeof CHECKLIST_ITEMS)[number], z.ZodBoolean>),
    unsupported_citations: z.array(id).default([]),
  });
}

export function crossExamSchema(letters: string[]) {
  return z.object({
    questions: z.array(z.object({ letter: letterSchema(letters), question: z.string().min(1) })).min(1),
  });
}

export const crossAnswerSchema = z.object({ answer: z.string().min(1) });

/** A single agent's cited answer (the baselines). */
export function citedAnswerSchema(letters: string[]) {
  return z.object({
    reasoning: z.string().default(''),
    answer: letterSchema(letters),
    claims: z.array(claimSchema).default([]),
  });
}
