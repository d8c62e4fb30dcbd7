/** `lexcase/agents/emar`: EMAR: parties and judge (agents/emar/). */
export { runEmar, type EmarOptions } from '../../agents/emar/emar.js';
export { createEmarSystem } from '../../agents/emar/system.js';
export { questionToCase, taskExampleToCase, TASK_FRAMINGS } from '../../agents/emar/cases.js';
export type { EmarCase, EmarResult, ClaimEmbedder } from '../../agents/emar/types.js';
