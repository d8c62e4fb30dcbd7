/**
 * The runner tests' smallest LLM system: three Bar Exam items, each answered by one request
 * ("[<id>] Answer with one letter.") whose reply is the prediction, so a scripted server can route,
 * refuse or flag a reply per item by the id in its text.
 */
import { HumanMessage } from '@langchain/core/messages';
import type { AgentSystem } from '../types.js';

export interface OneLetterItem {
  id: string;
  answer: string;
}

export const ONE_LETTER_ITEMS: OneLetterItem[] = [
  { id: 'mbe_137', answer: 'C' },
  { id: 'mbe_581', answer: 'B' },
  { id: 'mbe_222', answer: 'C' },
];

/** A baseline's one answer per question. */
export const answerOneLetter: AgentSystem<OneLetterItem> = async (item, ctx) => {
  const reply = await ctx.llm!.invoke([new HumanMessage(`[${item.id}] Answer with one letter.`)], { signal: ctx.signal });
  return { prediction: String(reply.content).trim(), trace: {} };
};
