/**
 * A per-role seeded view of the chat model for the debate (the run seed reaches the endpoint as the
 * OpenAI `seed` parameter, so runs with different seeds are different requests and different cache
 * entries). Structured replies go through core/llm/structured.ts (invokeStructured).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

/** The model with `seed` bound (factory-made ChatOpenAI models); other models are returned as they are. */
export function seededModel(llm: BaseChatModel, seed: number): BaseChatModel {
  const withConfig = (llm as unknown as { withConfig?: (c: Record<string, unknown>) => unknown }).withConfig;
  if (typeof withConfig !== 'function') return llm;
  const m = withConfig.call(llm, { seed }) as { bindTools?: unknown; invoke?: unknown };
  return typeof m.bindTools === 'function' && typeof m.invoke === 'function' ? (m as unknown as BaseChatModel) : llm;
}
