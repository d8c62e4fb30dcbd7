/**
 * The optional Cross-Examiner (paper 002 §3.1): after the last round it reads every final brief and
 * puts ONE targeted question to each debater that filed a final brief (the schema requires exactly
 * one per debater); each debater answers once; the judge sees the questions and answers. An
 * unparseable examiner reply, or one that leaves a debater unquestioned (twice), skips the
 * cross-examination (error recorded); an unparseable answer is recorded as "(no answer)".
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
  // one question to each debater that filed a final brief (the schema has one required key per debater)
  const targets = briefs.filter((b) => !b.error && letters.includes(b.letter));
  if (targets.length === 0) return { questions: [] };
  const messages = [
    new SystemMessage(CROSS_EXAMINER_SYSTEM),
    new HumanMessage(
      crossExamPrompt(
        q,
        briefs,
        targets.map((b) => b.letter),
      ),
    ),
  ];
  let asked: Record<string, string>;
  try {
    const r = await invokeStructured(llm, messages, crossExamSchema(targets.map((b) => b.letter)), { what: 'cross-examiner', signal });
    asked = r.value.questions;
  } catch (e) {
    if (!invalid(e)) throw e;
    return { questions: [], error: (e as Error).message };
  }
  const questions = await Promise.all(
    targets.map(async (b) => {
      const question = asked[b.letter];
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
