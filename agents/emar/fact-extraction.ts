/** Step 0 of EMAR: the legally relevant facts, extracted once from the evidence. */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { invokeStructured } from '../../core/llm/structured.js';
import { caseText, FACT_EXTRACTION_SYSTEM } from './prompts.js';
import { factsSchema } from './schemas.js';
import type { EmarCase } from './types.js';

export async function extractFacts(model: BaseChatModel, c: EmarCase, signal?: AbortSignal): Promise<string[]> {
  const { value } = await invokeStructured(model, [new SystemMessage(FACT_EXTRACTION_SYSTEM), new HumanMessage(caseText(c))], factsSchema, {
    what: 'EMAR fact extraction',
    signal,
  });
  return value.facts.filter((f) => f.trim());
}
