/** `lexcase/agents/baselines`: the single-path baselines (agents/baselines/). */
export { createBaseline, BASELINE_MODES, type BaselineMode } from './index.js';
