/** SP baseline (ACAL §4.2): fixed instruction template + few-shot demonstrations, direct answer. */
import type { TaskExample } from '../../../corpora/types.js';
import type { AgentSystem } from '../../../eval/types.js';
import { errors } from '../../../core/errors.js';
import { acalTask } from '../tasks.js';
import { askYesNo, fewShotBlock, question } from './answer.js';

export function createStandardPromptingSystem(opts: { task: string; fewShot?: TaskExample[] }): AgentSystem<TaskExample> {
  const task = acalTask(opts.task);
  return async (item, ctx) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const user = [
      'TASK: answer the legal classification question directly.',
      `LEGAL TEST: ${task.context}`,
      fewShotBlock(opts.fewShot ?? []),
      `Case: ${item.text}`,
      question(task),
      'Reply with JSON only: {"answer": "Yes" | "No"}',
    ]
      .filter(Boolean)
      .join('\n\n');
    const r = await askYesNo(ctx.llm, 'You are a legal expert.', user, 'standard prompting answer', ctx.signal);
    return { prediction: r.answer, trace: { system: 'sp', raw: r.raw } };
  };
}
