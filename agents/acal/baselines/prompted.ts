/**
 * The two prompting baselines of ACAL §4.2 (SP and CoT): one instruction template with few-shot
 * demonstrations; CoT asks for step-by-step reasoning before the label, SP for the label alone.
 */
import type { TaskExample } from '../../../corpora/types.js';
import type { AgentSystem } from '../../../eval/types.js';
import { errors } from '../../../core/errors.js';
import { acalTask, type AcalTask } from '../tasks.js';
import { answerSchema, askYesNo, fewShotBlock, labelSchema, question } from './answer.js';

export interface PromptedOptions {
  task: string;
  fewShot?: TaskExample[];
}

const STYLES = {
  sp: {
    task: 'TASK: answer the legal classification question directly.',
    steps: [],
    reply: 'Reply with JSON only: {"answer": "Yes" | "No"}',
    reasoning: false, // the request's schema is {answer} alone (answer.ts labelSchema)
    what: 'standard prompting answer',
  },
  cot: {
    task: 'TASK: answer the legal classification question, reasoning step by step first.',
    steps: ['Think step by step: identify the legal elements, apply each to the facts, then conclude.'],
    reply: 'Reply with JSON only: {"reasoning": "<your step-by-step reasoning>", "answer": "Yes" | "No"}',
    reasoning: true,
    what: 'chain-of-thought answer',
  },
} as const;

export type PromptedStyle = keyof typeof STYLES;

export const PROMPTED_SYSTEM = 'You are a legal expert.';

/** The user message of `style` for the case `text`. */
export function promptedUser(style: PromptedStyle, task: AcalTask, fewShot: TaskExample[], text: string): string {
  const s = STYLES[style];
  return [s.task, `LEGAL TEST: ${task.context}`, fewShotBlock(fewShot), `Case: ${text}`, question(task), ...s.steps, s.reply].filter(Boolean).join('\n\n');
}

/** The reply schema `style` asks for: SP {answer}, CoT {reasoning, answer}. */
export const promptedSchema = (style: PromptedStyle) => (STYLES[style].reasoning ? answerSchema : labelSchema);

export function createPromptedSystem(style: PromptedStyle, opts: PromptedOptions): AgentSystem<TaskExample> {
  const task = acalTask(opts.task);
  const s = STYLES[style];
  return async (item, ctx) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const user = promptedUser(style, task, opts.fewShot ?? [], item.text);
    const r = await askYesNo(ctx.llm, PROMPTED_SYSTEM, user, s.what, ctx.signal, s.reasoning);
    return { prediction: r.answer, trace: style === 'cot' ? { system: 'cot', reasoning: r.reasoning, raw: r.raw } : { system: 'sp', raw: r.raw } };
  };
}
