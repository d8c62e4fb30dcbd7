/**
 * The evaluator's factor extraction (§4.4): an LLM (the paper used GPT-4.1 at temperature 0) lists
 * the factors a finished 3-ply argument attributes to c1, c2 and c3. Abstentions are not sent: a
 * TERMINATE output mentions no factor.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { invokeStructured } from '../../core/llm/structured.js';
import { PLIES, PLY_LABEL, type PlyKey } from './format.js';
import type { ExtractedFactors } from './metrics.js';
import { formatFactor, type TradeSecretModel } from '../../corpora/trade-secret.js';
import { FACTOR_DISTILLER_SYSTEM } from './prompts.js';
import { distilledSchema } from './schemas.js';

export function argumentJson(plies: Partial<Record<PlyKey, string>>): string {
  return JSON.stringify(Object.fromEntries(PLIES.filter((p) => plies[p] !== undefined).map((p) => [PLY_LABEL[p], plies[p]])));
}

/** `factors`: the factor model; its factors, written as the prompts write them, are what the lists may name. */
export async function distillFactors(
  model: BaseChatModel,
  plies: Partial<Record<PlyKey, string>>,
  factors: TradeSecretModel,
  signal?: AbortSignal,
): Promise<ExtractedFactors> {
  const labels = factors.factors.map(formatFactor);
  const { value } = await invokeStructured(
    model,
    [new SystemMessage(FACTOR_DISTILLER_SYSTEM), new HumanMessage(argumentJson(plies))],
    distilledSchema(labels),
    {
      what: 'Factor Distiller',
      signal,
    },
  );
  return value;
}
