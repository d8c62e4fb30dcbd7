/** SP baseline (ACAL §4.2): fixed instruction template + few-shot demonstrations, direct answer (prompted.ts). */
import type { TaskExample } from '../../../corpora/types.js';
import type { AgentSystem } from '../../../eval/types.js';
import { createPromptedSystem, type PromptedOptions } from './prompted.js';

export function createStandardPromptingSystem(opts: PromptedOptions): AgentSystem<TaskExample> {
  return createPromptedSystem('sp', opts);
}
