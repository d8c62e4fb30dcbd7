/**
 * Argument Polisher: assesses factor utilization, accuracy and strength of one ply, says whether a
 * revision is needed (with instructions for the developer) and returns the polished text.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { invokeStructured } from '../../core/llm/structured.js';
import type { PlyKey } from './format.js';
import { ARGUMENT_POLISHER_SYSTEM, polisherRequest } from './prompts.js';
import { polisherReportSchema, type PolisherReport } from './schemas.js';

export async function polishPly(
  model: BaseChatModel,
  ply: PlyKey,
  triple: string,
  segment: string,
  analystReport: string,
  signal?: AbortSignal,
): Promise<PolisherReport> {
  const { value } = await invokeStructured(
    model,
    [new SystemMessage(ARGUMENT_POLISHER_SYSTEM), new HumanMessage(polisherRequest(ply, triple, segment, analystReport))],
    polisherReportSchema,
    { what: `Argument Polisher (${ply})`, signal },
  );
  return value;
}
