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

/** What config.json records (`requestSeeds`) about the seed each MAD request carries: every call goes through seededModel. */
export const REQUEST_SEEDS =
  'derived per item, role and call from the run seed (deriveSeed(item seed, role): debater-B-r2, judge, cross-examiner, debater-B-cross, single-rag, sample-3, …); llm.seed is never sent';

/** The warning for a run whose LLM settings (`model`, config.json's) set a seed MAD does not send; undefined when none is set. */
export function llmSeedIgnored(model: Record<string, unknown> | undefined, runSeed: number): string | undefined {
  const s = model?.seed;
  if (s === undefined || s === null) return undefined;
  return `llm.seed (${String(s)}, from the config file or LEXCASE_LLM_SEED) is not sent by MAD: each request carries a seed derived from the run seed (--seed ${runSeed}) per item, role and call (config.json requestSeeds); vary --seed to vary them`;
}
