/** One single-agent answer with cited claims over the shared pool (used by both MAD baselines). */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { Question } from '../../corpora/types.js';
import { checkCitations } from './citation-check.js';
import { invokeStructured } from '../../core/llm/structured.js';
import { ANALYST_SYSTEM, citedAnswerPrompt } from './prompts.js';
import { citedAnswerSchema } from './schemas.js';
import { optionTexts } from '../common/option-letter.js';
import { passageHandles } from '../common/passage-handles.js';
import { citedClaims } from './cited-claims.js';
import type { CheckedCitation, Claim, PoolPassage } from './types.js';

export interface CitedAnswer {
  answer: string;
  reasoning: string;
  claims: Claim[];
  citations: CheckedCitation[];
  raw?: string[];
}

export async function citedAnswer(
  llm: BaseChatModel,
  q: Question,
  letters: string[],
  pool: PoolPassage[],
  passageChars: number,
  getPassage: (id: string) => Promise<{ text: string } | undefined>,
  what: string,
  signal?: AbortSignal,
): Promise<CitedAnswer> {
  const messages = [new SystemMessage(ANALYST_SYSTEM), new HumanMessage(citedAnswerPrompt(q, pool, passageChars))];
  const h = passageHandles();
  const r = await invokeStructured(
    llm,
    messages,
    citedAnswerSchema(
      letters,
      pool.map((p) => h.handle(p.id)),
      optionTexts(q.choices),
    ),
    { what, signal },
  );
  const claims = citedClaims(r.value.claims); // the accepted reply's citations, read (and counted) once
  const citations = await checkCitations(claims, new Set(pool.map((p) => p.id)), getPassage, passageChars);
  return { answer: r.value.answer, reasoning: r.value.reasoning, claims, citations, ...(r.attempts > 1 ? { raw: r.raw } : {}) };
}
