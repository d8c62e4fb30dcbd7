/** The Proponent: argues first (Argumentation) and answers each critique (Response), shown its own argument so far beside the critique. */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { invokeStructured } from '../../core/llm/structured.js';
import { PROPONENT_SYSTEM, proponentRequest, type ProponentResponse } from './prompts.js';
import { caseLetters, claimSchema } from './schemas.js';
import type { Claim, EmarCase } from './types.js';

export async function proponent(model: BaseChatModel, c: EmarCase, facts: string[], response?: ProponentResponse, signal?: AbortSignal): Promise<Claim> {
  const { value } = await invokeStructured(
    model,
    [new SystemMessage(PROPONENT_SYSTEM), new HumanMessage(proponentRequest(c, facts, response))],
    claimSchema(caseLetters(c.choices), c.choices),
    {
      what: response ? 'EMAR proponent response' : 'EMAR proponent argument',
      signal,
    },
  );
  return value;
}
