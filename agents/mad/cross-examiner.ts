/**
 * The optional Cross-Examiner (paper 002 §3.1): after the last round it reads every final brief and
 * (with the text of every passage they cite) puts ONE targeted question to each debater that filed a final brief (the schema requires exactly
 * one per debater); each debater answers once, under its own seed; the judge sees the questions and answers. An
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
import type { ShownPassage } from './cited-evidence.js';
import type { Brief, CrossExamination } from './types.js';
import { inCallBranches } from '../../core/llm/record-replay.js';

const invalid = (e: unknown) => isLexcaseError(e) && e.code === 'LLM_OUTPUT_INVALID';

export interface CrossExamOptions {
  /** The cross-examiner's model (its seed: deriveSeed(item seed, "cross-examiner")). */
  examiner: BaseChatModel;
  /** Debater `letter`'s model for its answer, under that debater's own seed ("debater-B-cross"). */
  answerer(letter: string): BaseChatModel;
  q: Question;
  letters: string[];
  briefs: Brief[];
  /** The text of every passage the briefs cite (cited-evidence.ts), shown to the cross-examiner. */
  cited: ShownPassage[];
  passageChars: number;
  signal?: AbortSignal;
}

export async function crossExamine(o: CrossExamOptions): Promise<CrossExamination> {
  const { q, letters, briefs, signal } = o;
  // one question to each debater that filed a final brief (the schema has one required key per debater)
  const targets = briefs.filter((b) => !b.error && letters.includes(b.letter));
  if (targets.length === 0) return { questions: [] };
  const to = targets.map((b) => b.letter);
  const messages = [new SystemMessage(CROSS_EXAMINER_SYSTEM), new HumanMessage(crossExamPrompt(q, briefs, to, o.cited, o.passageChars))];
  let asked: Record<string, string>;
  try {
    const r = await invokeStructured(o.examiner, messages, crossExamSchema(to), { what: 'cross-examiner', signal });
    asked = r.value.questions;
  } catch (e) {
    if (!invalid(e)) throw e;
    return { questions: [], error: (e as Error).message };
  }
  const questions = await inCallBranches(targets, async (b) => {
    const question = asked[b.letter];
    const m = [new SystemMessage(debaterSystem(b.letter)), new HumanMessage(crossAnswerPrompt(q, b, question))];
    try {
      const r = await invokeStructured(o.answerer(b.letter), m, crossAnswerSchema, { what: `debater ${b.letter} cross-examination answer`, signal });
      return { letter: b.letter, question, answer: r.value.answer };
    } catch (e) {
      if (!invalid(e)) throw e;
      return { letter: b.letter, question, answer: '(no answer)' };
    }
  });
  return { questions };
}
