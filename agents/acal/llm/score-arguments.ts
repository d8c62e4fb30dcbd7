/**
 * Intrinsic strength attribution (ACAL §3.2.3, Table 2): an evaluator scores each argument on
 * the strict 0.1–1.0 rubric (RUBRIC in ../prompts.ts). One call scores one agent's arguments; every id must be scored (the schema has one property per id).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { sendAs } from '../../../core/llm/json-schema.js';
import { invokeStructured } from '../../../core/llm/structured.js';
import { SCORE_SYSTEM, scorePrompt, type ScoredItem } from '../prompts.js';
import { msgs, type CaseInput } from './common.js';

export async function scoreArguments(
  llm: BaseChatModel,
  c: CaseInput,
  items: ScoredItem[],
  opts: { signal?: AbortSignal } = {},
): Promise<{ scores: Record<string, { score: number; note: string }>; raw: string[] }> {
  const ids = items.map((i) => i.id);
  const r = await invokeStructured(llm, msgs(SCORE_SYSTEM, scorePrompt(c, items)), scoresSchema(ids), {
    what: 'argument strength scores',
    signal: opts.signal,
  });
  const scores: Record<string, { score: number; note: string }> = Object.create(null);
  for (const [id, s] of Object.entries(r.value.scores)) if (ids.includes(id)) scores[id] = s;
  return { scores, raw: r.raw };
}

/** The note (why) before the score: keys are written in schema order, so the evaluator reasons before it scores. */
const entry = z.object({ note: z.string().default(''), score: z.number().min(0.1).max(1) });

/**
 * How an ACAL run reads a scores reply, recorded in its config.json (`scoresReading`): a run dir an older lexcase
 * started, which kept the first of two different scores of one argument in a list-form reply, resumes with a warning
 * (eval/resume-unrecorded.ts).
 */
export const SCORES_READING = 'one score per argument; a list-form reply that scores an argument twice with different scores is refused';

/**
 * The scores of exactly `ids`: sent as an object with one required property per argument id (so a
 * schema-following server must score every argument and no other); parsed leniently from that
 * object or from the older list form [{id, score, note}], and refused when an id is missing or, in the
 * list form, scored twice with different scores (before 2026-12-05 the first was kept, unsaid: s1 0.9 then
 * s1 0.1 read as 0.9, which flipped a verdict).
 */
export function scoresSchema(ids: string[]) {
  const byId = z
    .union([z.record(z.string(), entry), z.array(entry.extend({ id: z.string() }))])
    .transform((v, ctx) => {
      const out: Record<string, { score: number; note: string }> = {};
      if (!Array.isArray(v)) return Object.assign(out, v);
      for (const s of v) {
        const seen = out[s.id];
        // an argument scored twice two ways has no score: refused (asked again once), never its first score
        if (seen && seen.score !== s.score) ctx.addIssue({ code: 'custom', message: `argument ${s.id} scored twice: ${seen.score}, then ${s.score}` });
        out[s.id] ??= { score: s.score, note: s.note };
      }
      return out;
    })
    .superRefine((v, ctx) => {
      const missing = ids.filter((id) => !(id in v));
      if (missing.length) ctx.addIssue({ code: 'custom', message: `missing scores for ${missing.join(', ')}` });
    });
  const item = {
    type: 'object',
    properties: { note: { type: 'string' }, score: { type: 'number', minimum: 0.1, maximum: 1 } },
    required: ['note', 'score'],
    additionalProperties: false,
  };
  return z.object({
    scores: sendAs(byId, { type: 'object', properties: Object.fromEntries(ids.map((id) => [id, item])), required: ids, additionalProperties: false }),
  });
}
