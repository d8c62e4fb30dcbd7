/** RAG baseline (ACAL §4.2): one agent, top-k (k = 5) retrieved passages in the prompt, then the label. */
import type { TaskExample } from '../../../corpora/types.js';
import type { AgentSystem } from '../../../eval/types.js';
import { errors } from '../../../core/errors.js';
import { gatherEvidence } from '../evidence.js';
import { evidenceCutTrace, formatEvidence } from '../prompts.js';
import { acalTask, type AcalTask } from '../tasks.js';
import type { EvidencePassage } from '../llm/common.js';
import { withPassageHandles } from '../../common/passage-handles.js';
import { askYesNo, question } from './answer.js';
import { DEFAULT_K } from '../../../retrieval/default-k.js';

export const RAG_SYSTEM = 'You are a legal expert.';

/** The user message for the case `text` with its retrieved `passages` (inside an item's passage-handle scope). */
export function ragUser(task: AcalTask, passages: EvidencePassage[], text: string, passageChars?: number): string {
  return [
    'TASK: answer the legal classification question using the retrieved evidence.',
    `LEGAL TEST: ${task.context}`,
    `EVIDENCE:\n${formatEvidence(passages, passageChars)}`,
    `Case: ${text}`,
    question(task),
    'Reply with JSON only: {"reasoning": "<brief>", "answer": "Yes" | "No"}',
  ].join('\n\n');
}

/** `passageChars`: characters of each passage shown (default passage-chars.ts). */
export function createSingleAgentRagSystem(opts: { task: string; k?: number; passageChars?: number }): AgentSystem<TaskExample> {
  const task = acalTask(opts.task);
  const k = opts.k ?? DEFAULT_K; // once, here (runAcal passes the k it resolved)
  return async (item, ctx) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const ev = await gatherEvidence(ctx, task.query(item.text), k);
    // one handle map for the item: the passages are [P1]..[Pk] in retrieval order
    return withPassageHandles(async () => {
      const user = ragUser(task, ev.passages, item.text, opts.passageChars);
      const r = await askYesNo(ctx.llm!, RAG_SYSTEM, user, 'RAG answer', ctx.signal); // reply schema: answer.ts answerSchema
      return {
        prediction: r.answer,
        trace: {
          system: 'rag',
          evidenceTool: ev.tool,
          evidenceIds: ev.passages.map((p) => p.id),
          ...evidenceCutTrace(ev.passages, opts.passageChars),
          raw: r.raw,
        },
      };
    });
  };
}
