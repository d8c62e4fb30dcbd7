/** The structured Yes/No answer every ACAL baseline returns, and the shared prompt pieces. */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { declareAnswerFields } from '../../../core/llm/answer-fields.js';
import type { TaskExample } from '../../../corpora/types.js';
import { invokeStructured } from '../../../core/llm/structured.js';
import { yesNoSchema } from '../../common/yes-no.js';
import { msgs } from '../llm/common.js';
import type { AcalTask } from '../tasks.js';

/**
 * CoT's and RAG's reply: the reasoning, then the label (a schema-following server writes the keys in
 * this order). The label is read as agents/common/yes-no.ts reads one ("yes", "No." taken).
 */
export const answerSchema = declareAnswerFields(z.object({ reasoning: z.string().optional(), answer: yesNoSchema() }), {
  answer: 'answer',
  reasoning: ['reasoning'],
});
/**
 * SP's reply: the label alone, as its prompt asks. The strict request schema makes every property
 * required, so with `reasoning` in it a schema-following server would reason first, as for CoT.
 */
export const labelSchema = declareAnswerFields(z.object({ answer: yesNoSchema() }), { answer: 'answer', reasoning: [] });

export function fewShotBlock(examples: TaskExample[]): string {
  return examples.length ? `EXAMPLES:\n${examples.map((e) => `Case: ${e.text}\nAnswer: ${e.label}`).join('\n\n')}` : '';
}

export const question = (task: AcalTask) => `QUESTION: Is the following claim true for this case? ${task.claim}`;

/** `withReasoning`: the reply schema is {reasoning, answer} (CoT, RAG), else {answer} (SP). */
export async function askYesNo(llm: BaseChatModel, system: string, user: string, what: string, signal?: AbortSignal, withReasoning = true) {
  if (!withReasoning) {
    const r = await invokeStructured(llm, msgs(system, user), labelSchema, { what, signal });
    return { answer: r.value.answer, reasoning: '', raw: r.raw };
  }
  const r = await invokeStructured(llm, msgs(system, user), answerSchema, { what, signal });
  return { answer: r.value.answer, reasoning: r.value.reasoning ?? '', raw: r.raw };
}
