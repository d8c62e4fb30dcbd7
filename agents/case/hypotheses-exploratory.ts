/**
 * Exploratory Hypothesis Generation (CASE §4 (1b)): the Analyst LLM proposes hypotheses from the
 * facts and question alone (the options are NOT shown), H = f_LLM-gen(q). They are then mapped back
 * to the options (map-hypotheses.ts) so the jury can vote A–D.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { Question } from '../../corpora/types.js';
import { invokeStructured } from '../../core/llm/structured.js';
import { mapToOptions } from './map-hypotheses.js';
import { exploratoryPrompt } from './prompts.js';
import { factsOf } from '../common/question-text.js';
import type { Hypothesis } from './types.js';

/** The fewest exploratory hypotheses (docs/case.md: 2–4; competing hypotheses need two). */
export const MIN_HYPOTHESES = 2;

/**
 * 2 to `max` hypotheses (default 4): sent as minItems/maxItems, and a reply outside that range is
 * refused and re-asked once (invokeStructured), never cut down silently.
 */
export function exploratorySchema(max: number) {
  return z.object({ hypotheses: z.array(z.string()).min(Math.min(MIN_HYPOTHESES, max)).max(max) });
}

export async function exploratoryHypotheses(
  llm: BaseChatModel,
  q: Pick<Question, 'prompt' | 'question' | 'choices'>,
  opts: { max?: number; signal?: AbortSignal } = {},
): Promise<{ hypotheses: Hypothesis[]; raw: string[] }> {
  const max = opts.max ?? 4;
  const r = await invokeStructured(llm, [new HumanMessage(exploratoryPrompt(factsOf(q), max))], exploratorySchema(max), {
    what: 'exploratory hypotheses',
    signal: opts.signal,
  });
  const texts = r.value.hypotheses.map((h) => h.trim()).filter(Boolean); // an empty one cannot be argued for
  return { hypotheses: mapToOptions(texts, q.choices), raw: r.raw };
}
