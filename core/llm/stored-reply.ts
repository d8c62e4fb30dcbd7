/**
 * A model's reply as an exchange log records it (core/llm/record-replay.ts) and back. Apart from the
 * log because it needs LangChain's messages: the runner imports the log for every run, the model
 * (chat-openai.ts) imports this, so a run without a model starts without LangChain.
 */
import type { ChatGeneration, ChatResult } from '@langchain/core/outputs';
import { restoreGeneration, storeGeneration } from './disk-cache.js';
import type { Exchange } from './record-replay.js';
import { storedCounts } from './reply-usage.js';

export function storeReply(result: ChatResult): Exchange['reply'] {
  return { generations: result.generations.map(storeGeneration), ...(result.llmOutput ? { llmOutput: result.llmOutput } : {}) };
}

export function restoreReply(reply: NonNullable<Exchange['reply']>): ChatResult {
  const llmOutput = reply.llmOutput && {
    ...reply.llmOutput,
    ...('tokenUsage' in reply.llmOutput ? { tokenUsage: storedCounts(reply.llmOutput.tokenUsage, 'tokenUsage') } : {}),
  };
  return { generations: reply.generations.map(restoreGeneration) as ChatGeneration[], ...(llmOutput ? { llmOutput } : {}) };
}
