/**
 * The Judge: reads the question, the shared pool, the text of every further passage the briefs cite
 * (snippets debaters requested), every debater's final brief (it sees all, in every topology) and
 * the cross-examination, and returns a verdict letter, a 3-bullet rationale, the
 * paper's 5-item checklist for the winning brief and the winning brief's unsupported citation ids
 * (zod-parsed). Malformed twice → LLM_OUTPUT_INVALID (with the raw replies), which fails the item.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { Question } from '../../corpora/types.js';
import { invokeStructured } from '../../core/llm/structured.js';
import { JUDGE_SYSTEM, judgePrompt } from './prompts.js';
import { judgeSchema } from './schemas.js';
import { optionTexts } from '../common/option-letter.js';
import { passageHandles } from '../common/passage-handles.js';
import type { ShownPassage } from './cited-evidence.js';
import type { Brief, CrossExamination, Judgment, PoolPassage } from './types.js';

export async function judge(
  llm: BaseChatModel,
  q: Question,
  letters: string[],
  pool: PoolPassage[],
  cited: ShownPassage[],
  briefs: Brief[],
  cross: CrossExamination | undefined,
  passageChars: number,
  signal?: AbortSignal,
): Promise<Judgment> {
  const messages = [new SystemMessage(JUDGE_SYSTEM), new HumanMessage(judgePrompt(q, pool, cited, briefs, cross, passageChars))];
  // the closed set of citable passages: those whose text the judge's prompt shows (the pool and the
  // further passages the briefs cite), never a handle it saw only as a bare citation
  const h = passageHandles();
  const handles = [...pool, ...cited].map((p) => h.handle(p.id));
  const r = await invokeStructured(llm, messages, judgeSchema(letters, handles, optionTexts(q.choices)), { what: 'judge', signal });
  const v = r.value;
  const unsupported = h.cite(v.unsupported_citations); // the accepted reply's citations, read (and counted) once
  return {
    verdict: v.verdict,
    rationale: [v.rationale[0], v.rationale[1], v.rationale[2]],
    checklist: v.checklist,
    // a citation naming no handle shown (a real id written out, "P3, P5") is no passage: kept as written apart from
    // the passages, so it never marks the passage whose id it spells as unsupported (before 2026-12-01 it did)
    unsupported: unsupported.ids,
    ...(unsupported.unresolved.length ? { unsupportedUnresolved: unsupported.unresolved } : {}),
    snippets: cited.map((p) => p.id),
    ...(r.attempts > 1 ? { raw: r.raw } : {}),
  };
}
