/** `lexcase/agents/threeply`: 3-ply argumentation: scenarios, system, metrics (agents/threeply/). */
export { buildScenarios, classifyTriple, SCENARIO_MODES, type CaseTriple, type ScenarioMode } from './scenarios.js';
export { createThreePlySystem, generateArgument } from './system.js';
export { scoreTriple, summarizeByScenario, hallucinationAccuracy, utilizationRecall } from './metrics.js';
export { THREEPLY_SYSTEMS, type ThreePlySystemKind, type ArgumentResult } from './types.js';
