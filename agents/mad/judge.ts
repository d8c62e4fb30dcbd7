/**
 * The Judge: reads the question, the shared pool, every debater's final brief (it sees all, in every
 * topology) and the cross-examination, and returns a verdict letter, a 3-bullet rationale, the
 * paper's 5-item checklist for the winning brief and the winning brief's unsupported citation ids
 * (zod-parsed). Malformed twice → LLM_OUTPUT_INVALID (with the raw replies), which fails the item.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { Question } from '../../corpora/types.js';
import { invokeStructured } from '../../core/llm/structured.js';
import { JUDGE_SYSTEM, judgePrompt } from './prompts.js';
import { judgeSchema } from './schemas.js';
import { passageHandles } from '../common/passage-handles.js';
import type { Brief, CrossExamination, Judgment, PoolPassage } from './types.js';

export async function judge(
  llm: BaseChatModel,
  q: Question,
  letters: string[],
  pool: PoolPassage[],
  briefs: Brief[],
  cross: CrossExamination | undefined,
  passageChars: number,
  signal?: AbortSignal,
): Promise<Judgment> {
  const messages = [new SystemMessage(JUDGE_SYSTEM), new HumanMessage(judgePrompt(q, pool, briefs, cross, passageChars))];
  // the closed set of citable passages: every handle the judge's prompt shows (pool and briefs)
  const handles = passageHandles()
    .entries()
    .map((e) => e.handle);
  const r = await invokeStructured(llm, messages, judgeSchema(letters, handles), { what: 'judge', signal });
  const v = r.value;
  return {
    verdict: v.verdict,
    rationale: [v.rationale[0], v.rationale[1], v.rationale[2]],
    checklist: v.checklist,
    unsupported: v.unsupported_citations,
    ...(r.attempts > 1 ? { raw: r.raw } : {}),
  };
}
