/** CoT baseline (ACAL §4.2): the same template as SP, asking for step-by-step reasoning before the label (prompted.ts). */
import type { TaskExample } from '../../../corpora/types.js';
import type { AgentSystem } from '../../../eval/types.js';
import { createPromptedSystem, type PromptedOptions } from './prompted.js';

export function createChainOfThoughtSystem(opts: PromptedOptions): AgentSystem<TaskExample> {
  return createPromptedSystem('cot', opts);
}
