/**
 * zod schemas for every structured reply in a debate (parsed by core/llm/structured.ts), sent in the
 * strict subset (core/llm/strict-schema.ts): option letters are an enum of the item's letters and a
 * cited passage is an enum of the handles the model was shown (P1, P2, …). The parser stays lenient
 * (a handle written "[P3]" or a cite outside the set is taken and flagged by the citation check),
 * which a schema-following server never needs.
 */
import { z } from 'zod';
import { optionLetterSchema, type OptionTexts } from '../common/option-letter.js';
import { sendAs } from '../../core/llm/json-schema.js';
import { declareAnswerFields } from '../../core/llm/answer-fields.js';
import { CHECKLIST_ITEMS } from './types.js';

/**
 * A cited passage as the model wrote it (P3, [P3], (P3), "Passage 3", "P3, P5"): read only once the reply is
 * accepted (cited-claims.ts, judge.ts: PassageHandles `cite`), since a reply may be parsed more than once (a
 * first safeParse, a structured call's repair or retry) and a rejected reply's citations are none.
 */
const id = () => z.union([z.string(), z.number()]).transform((v) => String(v));

/** A list of cited passages, offered to the model as an enum of `handles` (none shown: always empty). */
export function citesSchema(handles: readonly string[]) {
  const items = handles.length ? { type: 'string', enum: [...new Set(handles)] } : { type: 'string' };
  return sendAs(z.array(id()), { type: 'array', items, ...(handles.length ? {} : { maxItems: 0 }) });
}

export function claimSchema(handles: readonly string[]) {
  return z.object({ text: z.string(), cites: citesSchema(handles) });
}

/**
 * A debater's brief, as its round's prompt asks for it: an opening is argument + claims, a rebuttal
 * (or closing) rebuttal + revised argument + claims; `handles`: the passages the debater was shown.
 * Each is its own schema: strict mode sends every property as required, so one schema with an
 * optional rebuttal made openings write a rebuttal their prompt never asked for.
 */
export function briefSchema(handles: readonly string[], kind: 'opening' | 'rebuttal') {
  const brief = { argument: z.string(), claims: z.array(claimSchema(handles)) };
  return kind === 'opening' ? z.object(brief) : z.object({ rebuttal: z.string().optional(), ...brief });
}
export type BriefReply = z.infer<ReturnType<typeof briefSchema>> & { rebuttal?: string };

/** One option letter among `letters` (agents/common/option-letter.ts). */
export const letterSchema = optionLetterSchema;

/**
 * `handles`: every passage the judge was shown (the pool and the briefs' citations). The rationale
 * comes before the verdict: a schema-following server writes keys in schema order, so the judge
 * reasons before it decides (issue 36, item 4); the checklist and the unsupported citations are
 * about the winning brief, so they follow the verdict.
 */
export function judgeSchema(letters: string[], handles: readonly string[], texts?: OptionTexts) {
  // the rationale's three sentences weigh each debater's answer in turn ("Debater A's answer is B, but …"): none is read
  return declareAnswerFields(
    z.object({
      rationale: z.array(z.string()).length(3),
      verdict: letterSchema(letters, undefined, texts),
      checklist: z.object(Object.fromEntries(CHECKLIST_ITEMS.map((k) => [k, z.boolean()])) as Record<(typeof CHECKLIST_ITEMS)[number], z.ZodBoolean>),
      unsupported_citations: citesSchema(handles),
    }),
    { answer: 'verdict', reasoning: [] },
  );
}

/**
 * The cross-examiner's questions: exactly ONE per debater (paper 002 §3.1: it "prompts each side with
 * one targeted question"). `letters`: the debaters that filed a final brief. Sent as an object with
 * one required property per letter, so a schema-following server must question every debater and
 * no other; parsed from that object or from the list form [{letter, question}] (prompt mode; the
 * first question to a letter counts), and refused when a debater has no question (re-asked once).
 */
export function crossExamSchema(letters: string[]) {
  const byLetter = z
    .union([z.record(z.string(), z.string()), z.array(z.object({ letter: z.string(), question: z.string() }))])
    .transform((v) => {
      const out: Record<string, string> = {};
      const put = (l: string, q: string) => {
        const r = letterSchema(letters).safeParse(l);
        if (r.success) out[r.data] ??= q;
      };
      if (Array.isArray(v)) for (const x of v) put(x.letter, x.question);
      else for (const [l, q] of Object.entries(v)) put(l, q);
      return out;
    })
    .superRefine((v, ctx) => {
      const missing = letters.filter((l) => !(l in v));
      if (missing.length) ctx.addIssue({ code: 'custom', message: `no question to debater ${[...missing].sort().join(', ')} (one question to each debater)` });
    });
  const json = {
    type: 'object',
    properties: Object.fromEntries(letters.map((l) => [l, { type: 'string' }])),
    required: [...letters],
    additionalProperties: false,
  };
  return z.object({ questions: sendAs(byLetter, json) });
}

/** A debater's answer to the cross-examiner's question: prose, not an option to check. */
export const crossAnswerSchema = declareAnswerFields(z.object({ answer: z.string() }), { answer: null, reasoning: [] });

/** A single agent's cited answer (the baselines); `handles`: the pool it was shown; `texts`: the options' texts (judgeSchema). */
export function citedAnswerSchema(letters: string[], handles: readonly string[], texts?: OptionTexts) {
  return declareAnswerFields(
    z.object({
      reasoning: z.string().default(''),
      answer: letterSchema(letters, undefined, texts),
      claims: z.array(claimSchema(handles)),
    }),
    { answer: 'answer', reasoning: ['reasoning'] },
  );
}
