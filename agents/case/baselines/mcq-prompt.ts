/**
 * The unified multiple-choice prompt every baseline uses (CASE §4.1/§5.3: retrieved passages are
 * "concatenated and prepended to a unified multiple-choice prompt template") and the common answer
 * parser (JSON {"reasoning","answer"} parsed with zod; one retry, then the item is recorded as failed).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { Question } from '../../../corpora/types.js';
import { declareAnswerFields } from '../../../core/llm/answer-fields.js';
import { invokeStructured } from '../../../core/llm/structured.js';
import { CASE_PROMPT_LIMITS } from '../../common/defaults.js';
import { optionLetterSchema, optionTexts, type OptionTexts } from '../../common/option-letter.js';
import { factsOf, optionLetters, optionsBlock, truncate } from '../../common/question-text.js';

export interface ContextPassage {
  id: string;
  text: string;
}

export const MCQ_SYSTEM = 'You are an expert on United States law answering a multiple-choice bar exam question.';

/** Passages are numbered [1]..[k] per prompt, never shown with their ids (issue 15: ids like mbe_N cue gold). */
export function mcqPrompt(
  q: Pick<Question, 'prompt' | 'question' | 'choices'>,
  passages: ContextPassage[],
  passageChars: number = CASE_PROMPT_LIMITS.baselinePassageChars,
): string {
  const parts: string[] = [];
  if (passages.length) {
    parts.push('Legal passages that may be relevant:');
    passages.forEach((p, i) => parts.push(`[${i + 1}] ${truncate(p.text.replace(/\s+/g, ' '), passageChars)}`));
    parts.push('');
  }
  parts.push('Question:', factsOf(q), '', 'Options:', optionsBlock(q), '');
  parts.push('Think briefly, then answer with only a JSON object: {"reasoning": "<short reasoning>", "answer": "<one option letter>"}');
  return parts.join('\n');
}

/** `texts`: the options' texts the model was shown (an answer "B. <option A's text>" names no letter). */
export function answerSchema(letters: string[], texts?: OptionTexts) {
  return declareAnswerFields(
    z.object({
      reasoning: z.string().default(''),
      answer: optionLetterSchema(letters, undefined, texts),
    }),
    { answer: 'answer', reasoning: ['reasoning'] },
  );
}

export async function answerMcq(llm: BaseChatModel, q: Pick<Question, 'prompt' | 'question' | 'choices'>, passages: ContextPassage[], signal?: AbortSignal) {
  return invokeStructured(
    llm,
    [new SystemMessage(MCQ_SYSTEM), new HumanMessage(mcqPrompt(q, passages))],
    answerSchema(optionLetters(q), optionTexts(q.choices)),
    {
      what: 'multiple-choice answer',
      signal,
    },
  );
}
