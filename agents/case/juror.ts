/**
 * One juror: sees the question, the options and every hypothesis–evidence pair, reasons step by step
 * in its persona, and votes for one option letter (the endpoint's structured output, validated with
 * zod). A juror whose output is unparseable twice (invokeStructured: one repair) abstains: a failed
 * step, recorded with the error, the raw replies and any malformed tool-call arguments, and counted
 * in the item's stepFailures. Request failures (after the LLM layer's own retries) propagate and
 * fail the item.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { Question } from '../../corpora/types.js';
import { isLexcaseError } from '../../core/errors.js';
import { optionLetterSchema, type OptionTexts } from '../common/option-letter.js';
import { passageHandles } from '../common/passage-handles.js';
import { invokeStructured, structuredFailure } from '../../core/llm/structured.js';
import { declareAnswerFields } from '../../core/llm/answer-fields.js';
import type { Persona } from './personas.js';
import { jurorSystemPrompt } from './prompts.js';
import { factsOf, optionsBlock, truncate } from '../common/question-text.js';
import { CASE_PROMPT_LIMITS } from '../common/defaults.js';
import { countingModel } from './token-tally.js';
import type { AdvocateResult, JurorRecord } from './types.js';

/** `texts`: the options' texts the jurors were shown (a vote "B. <option A's text>" names no letter). */
export function voteSchema(letters: string[], texts?: OptionTexts) {
  return declareAnswerFields(
    z.object({
      reasoning: z.string().default(''),
      vote: optionLetterSchema(letters, undefined, texts),
    }),
    { answer: 'vote', reasoning: ['reasoning'] },
  );
}

export function jurorCaseFile(
  q: Pick<Question, 'prompt' | 'question' | 'choices'>,
  advocates: AdvocateResult[],
  passageChars: number = CASE_PROMPT_LIMITS.jurorPassageChars,
): string {
  const handles = passageHandles(); // the item's map: the same P-handles the advocates saw
  const parts = ['Question:', factsOf(q), '', 'Options:', optionsBlock(q), ''];
  for (const a of advocates) {
    const h = a.hypothesis;
    const closest =
      h.letter && h.letter !== h.key
        ? ` (closest to option ${h.letter})`
        : h.tiedLetters?.length
          ? ` (equally close to options ${h.tiedLetters.join(', ')})`
          : '';
    parts.push(`Hypothesis ${h.key}${closest}: ${h.text}`);
    if (a.evidence.length === 0) parts.push('  Evidence: (the advocate found none)');
    a.evidence.forEach((e, i) => {
      parts.push(`  Evidence ${i + 1} [${handles.handle(e.id)}]: ${truncate((e.text ?? '').replace(/\s+/g, ' '), passageChars)}`);
      if (e.justification) parts.push(`    Advocate's note: ${e.justification}`);
    });
    parts.push('');
  }
  parts.push('Think step by step, then give your vote as one option letter.');
  return parts.join('\n');
}

export async function runJuror(
  llm: BaseChatModel,
  persona: Persona,
  caseFile: string,
  letters: string[],
  signal?: AbortSignal,
  texts?: OptionTexts,
): Promise<JurorRecord> {
  const tally = { tokens: 0, replies: [] as string[] };
  try {
    const r = await invokeStructured(
      countingModel(llm, tally),
      [new SystemMessage(jurorSystemPrompt(persona)), new HumanMessage(caseFile)],
      voteSchema(letters, texts),
      { what: `juror ${persona.name}`, signal },
    );
    return {
      persona: persona.name,
      reasoning: r.value.reasoning,
      vote: r.value.vote,
      abstained: false,
      raw: r.attempts > 1 ? r.raw : undefined,
      ...(r.invalidToolCalls ? { invalidToolCalls: r.invalidToolCalls } : {}),
      tokens: tally.tokens,
    };
  } catch (e) {
    if (isLexcaseError(e) && e.code === 'LLM_OUTPUT_INVALID') {
      const f = structuredFailure(e);
      return {
        persona: persona.name,
        reasoning: '',
        vote: null,
        abstained: true,
        error: e.message,
        raw: f.raw.length ? f.raw : tally.replies,
        ...(f.invalidToolCalls.length ? { invalidToolCalls: f.invalidToolCalls } : {}),
        tokens: tally.tokens,
      };
    }
    throw e;
  }
}
