/** `lexcase/agents/baselines`: CASE's single-path baselines (they live in agents/case/baselines/, beside the experiment that runs them). */
export { createBaseline, BASELINE_MODES, type BaselineMode } from '../case/baselines/index.js';
