/** The Judge: states the established facts from the converged argument and decides. */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { invokeStructured } from '../../core/llm/structured.js';
import { JUDGE_SYSTEM, judgeRequest } from './prompts.js';
import { caseLetters, judgeSchema } from './schemas.js';
import type { Claim, EmarCase, EmarResult } from './types.js';

export async function judge(
  model: BaseChatModel,
  c: EmarCase,
  facts: string[],
  proponentClaim: Claim,
  opponentClaim: Claim | undefined,
  signal?: AbortSignal,
  first: 'proponent' | 'opponent' = 'proponent',
): Promise<EmarResult['judge']> {
  const { value } = await invokeStructured(
    model,
    [new SystemMessage(JUDGE_SYSTEM), new HumanMessage(judgeRequest(c, facts, proponentClaim, opponentClaim, first))],
    judgeSchema(caseLetters(c.choices), c.choices),
    {
      what: 'EMAR judge',
      signal,
    },
  );
  return value;
}
