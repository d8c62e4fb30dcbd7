/**
 * Uncertainty-aware escalation (ACAL §3.4): when σ(claim) falls in the uncertainty band the
 * Final Judge performs an independent analysis of the case, seeing the argument graph (arguments,
 * strengths, relations) and the evidence, and gives a binding Yes/No.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { declareAnswerFields } from '../../../core/llm/answer-fields.js';
import { invokeStructured } from '../../../core/llm/structured.js';
import { yesNoSchema } from '../../common/yes-no.js';
import type { AcalGraph, Verdict } from '../graph/types.js';
import { JUDGE_SYSTEM, judgePrompt } from '../prompts.js';
import { msgs, type CaseInput } from './common.js';

/**
 * Reasoning first: a schema-following server writes keys in schema order, so the judge reasons before
 * it decides. The decision is read as agents/common/yes-no.ts reads one ("yes", "No." taken).
 */
export const judgeSchema = declareAnswerFields(z.object({ reasoning: z.string().default(''), decision: yesNoSchema() }), {
  answer: 'decision',
  reasoning: ['reasoning'],
});

export async function judge(
  llm: BaseChatModel,
  c: CaseInput,
  graph: AcalGraph,
  opts: { signal?: AbortSignal } = {},
): Promise<{ decision: Verdict; reasoning: string; raw: string[] }> {
  const r = await invokeStructured(llm, msgs(JUDGE_SYSTEM, judgePrompt(c, graph)), judgeSchema, {
    what: 'final judge decision',
    signal: opts.signal,
  });
  return { decision: r.value.decision, reasoning: r.value.reasoning, raw: r.raw };
}
