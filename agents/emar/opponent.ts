/** The Opponent: attacks the Proponent's argument (Critique) and states its own claim. */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { invokeStructured } from '../../core/llm/structured.js';
import { OPPONENT_SYSTEM, opponentRequest } from './prompts.js';
import { caseLetters, claimSchema } from './schemas.js';
import type { Claim, EmarCase } from './types.js';

export async function opponent(model: BaseChatModel, c: EmarCase, facts: string[], proponentClaim: Claim, signal?: AbortSignal): Promise<Claim> {
  const { value } = await invokeStructured(
    model,
    [new SystemMessage(OPPONENT_SYSTEM), new HumanMessage(opponentRequest(c, facts, proponentClaim))],
    claimSchema(caseLetters(c.choices), c.choices),
    {
      what: 'EMAR opponent critique',
      signal,
    },
  );
  return value;
}
