/** `lexcase/agents/emar`: EMAR: parties and judge (agents/emar/). */
export { runEmar, type EmarOptions } from './emar.js';
export { createEmarSystem } from './system.js';
export { questionToCase, taskExampleToCase, TASK_FRAMINGS } from './cases.js';
export type { EmarCase, EmarResult, ClaimEmbedder } from './types.js';
