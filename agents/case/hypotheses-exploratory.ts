/**
 * Exploratory Hypothesis Generation (CASE §4 (1b)): the Analyst LLM proposes hypotheses from the
 * facts and question alone (the options are NOT shown), H = f_LLM-gen(q). They are then mapped back
 * to the options (map-hypotheses.ts) so the jury can vote A–D.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { errors } from '../../core/errors.js';
import type { Question } from '../../corpora/types.js';
import { invokeStructured, rejectStructured } from '../../core/llm/structured.js';
import { mapToOptions } from './map-hypotheses.js';
import { exploratoryPrompt } from './prompts.js';
import { factsOf } from '../common/question-text.js';
import type { Hypothesis } from './types.js';

/** The fewest exploratory hypotheses (docs/case.md: 2–4; competing hypotheses need two). */
export const MIN_HYPOTHESES = 2;

/** The step-failure label of a blank hypothesis dropped from a reply that still had enough with text. */
export const BLANK_HYPOTHESIS_STEP = 'exploratory hypothesis with empty text';

/** The step-failure label of a hypothesis that repeats an earlier one of the reply (case and spacing aside), dropped. */
export const REPEATED_HYPOTHESIS_STEP = 'exploratory hypothesis repeating an earlier one';

/** What makes two hypotheses one: the same words, whatever their case and spacing. */
const sameness = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/**
 * 2 to `max` hypotheses (default 4): sent as minItems/maxItems, and a reply outside that range is
 * refused and re-asked once (invokeStructured), never cut down silently. Every value the sent schema
 * allows passes this parser (tests/contract-fuzz.test.ts); a blank hypothesis (the strict schema cannot
 * ask for minLength) is handled after it: see exploratoryHypotheses.
 */
export function exploratorySchema(max: number) {
  return z.object({ hypotheses: z.array(z.string()).min(Math.min(MIN_HYPOTHESES, max)).max(max) });
}

export async function exploratoryHypotheses(
  llm: BaseChatModel,
  q: Pick<Question, 'prompt' | 'question' | 'choices'>,
  opts: { max?: number; signal?: AbortSignal } = {},
): Promise<{ hypotheses: Hypothesis[]; raw: string[]; blank: number; repeated: number }> {
  const max = opts.max ?? 4;
  const r = await invokeStructured(llm, [new HumanMessage(exploratoryPrompt(factsOf(q), max))], exploratorySchema(max), {
    what: 'exploratory hypotheses',
    signal: opts.signal,
  });
  // a blank one cannot be argued for: dropped, and counted (`blank`: the item's failed steps); with fewer than
  // two left the item fails — before 2026-12-04 `["", " "]` left the jury voting on no hypothesis at all,
  // recorded as a unanimous "high" confidence CASE verdict
  const texts = r.value.hypotheses.map((h) => h.trim()).filter(Boolean);
  // a repeat (case and spacing aside) is one hypothesis argued twice: dropped, and counted (`repeated`) —
  // before, its second advocate's evidence counted again in the jury's evidence-score tie rule, turning a
  // seeded draw into a verdict, and ["X", "X"] passed as two competing hypotheses
  const seen = new Set<string>();
  const distinct = texts.filter((t) => !seen.has(sameness(t)) && seen.add(sameness(t)));
  const min = Math.min(MIN_HYPOTHESES, max);
  // the step fails on a reply the schema took: it leaves the response cache, so a resume asks again
  if (distinct.length < min) rejectStructured(r);
  if (texts.length < min)
    throw errors.llmOutputInvalid(
      'exploratory hypotheses',
      `only ${texts.length} of the ${r.value.hypotheses.length} hypotheses ha${texts.length === 1 ? 's' : 've'} text (a blank one cannot be argued for): at least ${min} needed`,
    );
  if (distinct.length < min)
    throw errors.llmOutputInvalid(
      'exploratory hypotheses',
      `only ${distinct.length} of the ${r.value.hypotheses.length} hypotheses ${distinct.length === 1 ? 'is' : 'are'} distinct (the others repeat one, case and spacing aside): at least ${min} competing hypotheses needed`,
    );
  return {
    hypotheses: mapToOptions(distinct, q.choices),
    raw: r.raw,
    blank: r.value.hypotheses.length - texts.length,
    repeated: texts.length - distinct.length,
  };
}
