/** `lexcase/agents/threeply`: 3-ply argumentation: scenarios, system, metrics (agents/threeply/). */
export { buildScenarios, classifyTriple, SCENARIO_MODES, type CaseTriple, type ScenarioMode } from '../../agents/threeply/scenarios.js';
export { createThreePlySystem, generateArgument } from '../../agents/threeply/system.js';
export { scoreTriple, summarizeByScenario, hallucinationAccuracy, utilizationRecall } from '../../agents/threeply/metrics.js';
export { THREEPLY_SYSTEMS, type ThreePlySystemKind, type ArgumentResult } from '../../agents/threeply/types.js';
