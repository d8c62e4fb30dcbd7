/** CoT baseline (ACAL §4.2): the same template, asking for step-by-step reasoning before the label. */
import type { TaskExample } from '../../../corpora/types.js';
import type { AgentSystem } from '../../../eval/types.js';
import { errors } from '../../../core/errors.js';
import { acalTask } from '../tasks.js';
import { askYesNo, fewShotBlock, question } from './answer.js';

export function createChainOfThoughtSystem(opts: { task: string; fewShot?: TaskExample[] }): AgentSystem<TaskExample> {
  const task = acalTask(opts.task);
  return async (item, ctx) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const user = [
      'TASK: answer the legal classification question, reasoning step by step first.',
      `LEGAL TEST: ${task.context}`,
      fewShotBlock(opts.fewShot ?? []),
      `Case: ${item.text}`,
      question(task),
      'Think step by step: identify the legal elements, apply each to the facts, then conclude.',
      'Reply with JSON only: {"reasoning": "<your step-by-step reasoning>", "answer": "Yes" | "No"}',
    ]
      .filter(Boolean)
      .join('\n\n');
    const r = await askYesNo(ctx.llm, 'You are a legal expert.', user, 'chain-of-thought answer', ctx.signal);
    return { prediction: r.answer, trace: { system: 'cot', reasoning: r.reasoning, raw: r.raw } };
  };
}
