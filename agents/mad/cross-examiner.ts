/**
 * The optional Cross-Examiner (paper 002 §3.1): after the last round it reads every final brief and
 * puts ONE targeted question to each debater; each debater answers once; the judge sees the
 * questions and answers. An unparseable examiner reply (twice) skips the cross-examination (error
 * recorded); an unparseable answer is recorded as "(no answer)".
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { Question } from '../../corpora/types.js';
import { isLexcaseError } from '../../core/errors.js';
import { invokeStructured } from '../../core/llm/structured.js';
import { CROSS_EXAMINER_SYSTEM, crossAnswerPrompt, crossExamPrompt, debaterSystem } from './prompts.js';
import { crossAnswerSchema, crossExamSchema } from './schemas.js';
import type { Brief, CrossExamination } from './types.js';

const invalid = (e: unknown) => isLexcaseError(e) && e.code === 'LLM_OUTPUT_INVALID';

export async function crossExamine(llm: BaseChatModel, q: Question, letters: string[], briefs: Brief[], signal?: AbortSignal): Promise<CrossExamination> {
  const messages = [new SystemMessage(CROSS_EXAMINER_SYSTEM), new HumanMessage(crossExamPrompt(q, briefs))];
  let asked: { letter: string; question: string }[];
  try {
    const r = await invokeStructured(llm, messages, crossExamSchema(letters), { what: 'cross-examiner', signal });
    asked = r.value.questions;
  } catch (e) {
    if (!invalid(e)) throw e;
    return { questions: [], error: (e as Error).message };
  }
  // one question per debater (the first the examiner put to it), only to debaters that briefed
  const byLetter = new Map<string, string>();
  for (const a of asked) if (!byLetter.has(a.letter)) byLetter.set(a.letter, a.question);
  const targets = briefs.filter((b) => byLetter.has(b.letter) && !b.error);
  const questions = await Promise.all(
    targets.map(async (b) => {
      const question = byLetter.get(b.letter)!;
      const m = [new SystemMessage(debaterSystem(b.letter)), new HumanMessage(crossAnswerPrompt(q, b, question))];
      try {
        const r = await invokeStructured(llm, m, crossAnswerSchema, { what: `debater ${b.letter} cross-examination answer`, signal });
        return { letter: b.letter, question, answer: r.value.answer };
      } catch (e) {
        if (!invalid(e)) throw e;
        return { letter: b.letter, question, answer: '(no answer)' };
      }
    }),
  );
  return { questions };
}
