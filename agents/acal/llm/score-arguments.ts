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
 * The scores of exactly `ids`: sent as an object with one required property per argument id (so a
 * schema-following server must score every argument and no other); parsed leniently from that
 * object or from the older list form [{id, score, note}], and refused when an id is missing.
 */
export function scoresSchema(ids: string[]) {
  const byId = z
    .union([z.record(z.string(), entry), z.array(entry.extend({ id: z.string() }))])
    .transform((v) => {
      const out: Record<string, { score: number; note: string }> = {};
      if (Array.isArray(v)) for (const s of v) out[s.id] ??= { score: s.score, note: s.note };
      else Object.assign(out, v);
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
