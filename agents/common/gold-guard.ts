/**
 * Structural gold-leak guard for every non-oracle system: the wrapped system receives a blind copy
 * of the question (no answer, no gold passage ids, no meta), so nothing it builds into a prompt can
 * come from the dataset's gold annotations. After it returns, the guard scores the trace against
 * the real question (advocate evidence recall) and merges those flags into the per-item metrics.
 * Only the oracle baseline is run without this guard.
 */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem, SystemOutcome } from '../../eval/types.js';
import { evidenceRecall, type TraceAdvocate } from './evidence-recall.js';

export function blindQuestion(q: Question): Question {
  return { id: q.id, prompt: q.prompt, question: q.question, choices: [...q.choices], answer: '', goldPassageIds: [] };
}

export function advocatesOfTrace(trace: Record<string, unknown>): TraceAdvocate[] | undefined {
  const a = trace.advocates;
  return Array.isArray(a) ? (a as TraceAdvocate[]) : undefined;
}

export function withGoldGuard(system: AgentSystem<Question>): AgentSystem<Question> {
  return async (item, ctx): Promise<SystemOutcome> => {
    const out = await system(blindQuestion(item), ctx);
    const advocates = advocatesOfTrace(out.trace);
    if (!advocates) return out;
    const recall = evidenceRecall(advocates, item.goldPassageIds, item.answer);
    return { ...out, metrics: { ...(out.metrics ?? {}), ...recall } };
  };
}
