/**
 * Small LLM helpers for the debate: a per-role seeded view of the chat model (the run seed reaches
 * the endpoint as the OpenAI `seed` parameter, so runs with different seeds are different requests
 * and different cache entries), and "parse this reply, else ask once more" for replies that were
 * already received (a tool-capable first call).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { z } from 'zod';
import { errors } from '../../src/errors.js';
import { messageText, parseStructured, type StructuredResult } from '../../src/llm/structured.js';

/** The model with `seed` bound (factory-made ChatOpenAI models); other models are returned as they are. */
export function seededModel(llm: BaseChatModel, seed: number): BaseChatModel {
  const withConfig = (llm as unknown as { withConfig?: (c: Record<string, unknown>) => unknown }).withConfig;
  if (typeof withConfig !== 'function') return llm;
  const m = withConfig.call(llm, { seed }) as { bindTools?: unknown; invoke?: unknown };
  return typeof m.bindTools === 'function' && typeof m.invoke === 'function' ? (m as unknown as BaseChatModel) : llm;
}

/** Parse `first` (a reply to `messages`) with `schema`; on failure ask once more with the error. */
export async function parseOrRetryOnce<S extends z.ZodType>(
  model: Pick<BaseChatModel, 'invoke'>,
  messages: BaseMessage[],
  first: BaseMessage,
  schema: S,
  what: string,
  signal?: AbortSignal,
): Promise<StructuredResult<z.infer<S>>> {
  const raw = [messageText(first)];
  let error: string;
  try {
    return { value: parseStructured(raw[0], schema), raw, attempts: 1 };
  } catch (e) {
    error = (e as Error).message;
  }
  const retry = await model.invoke(
    [...messages, new AIMessage(raw[0]), new HumanMessage(`Your reply could not be parsed (${error}). Reply again with only the JSON object, exactly in the requested format.`)],
    { signal },
  );
  raw.push(messageText(retry));
  try {
    return { value: parseStructured(raw[1], schema), raw, attempts: 2 };
  } catch (e) {
    throw Object.assign(errors.llmOutputInvalid(what, (e as Error).message), { raw });
  }
}
