/**
 * Intrinsic strength attribution (ACAL §3.2.3, Table 2): an evaluator scores each argument on
 * the strict 0.1–1.0 rubric (RUBRIC in ../prompts.ts). One call scores one agent's arguments; every id must be scored.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
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
  const schema = z
    .object({
      scores: z.array(z.object({ id: z.string(), score: z.number().min(0.1).max(1), note: z.string().default('') })),
    })
    .superRefine((v, ctx) => {
      const got = new Set(v.scores.map((s) => s.id));
      const missing = ids.filter((id) => !got.has(id));
      if (missing.length) ctx.addIssue({ code: 'custom', message: `missing scores for ${missing.join(', ')}`, path: ['scores'] });
    });
  const r = await invokeStructured(llm, msgs(SCORE_SYSTEM, scorePrompt(c, items)), schema, {
    what: 'argument strength scores',
    signal: opts.signal,
  });
  const scores: Record<string, { score: number; note: string }> = Object.create(null);
  for (const s of r.value.scores) if (ids.includes(s.id) && !(s.id in scores)) scores[s.id] = { score: s.score, note: s.note };
  return { scores, raw: r.raw };
}
