/** ACAL public surface: semantics, argument graphs, contestation, the arena, the runner glue. */
import '../systems.js'; // the system list hands itself to eval: writeReport finds this system's section
export { computeStrengths, quadraticEnergy, dfQuad, acalCompat, isSemanticsName, SEMANTICS, ACAL_COMPAT } from './semantics/index.js';
export type { Qbaf, QbafNode, QbafEdge, SemanticsName, SemanticsOptions, SemanticsResult } from './semantics/types.js';
export { recompute, withResult, toQbaf } from './graph/recompute.js';
export { findClashes, clashDeltas, type ClashPair } from './graph/clash.js';
export { compareSemantics, type SemanticsComparison } from './graph/compare.js';
export { readGraph, writeGraph, readAudit, graphPath, auditPath, parseGraph } from './graph/store.js';
export {
  PAPER_DEFAULTS,
  ACAL_CODE_VALUES,
  graphSchema,
  type AcalGraph,
  type AcalArgument,
  type AcalRelation,
  type ClashOutcome,
  type GraphResult,
} from './graph/types.js';
export { contest, type ContestOptions } from './contest/contest.js';
export { applyContest, type AuditEntry, type ContestMeta } from './contest/apply-contest.js';
export { parseContestAction, CONTEST_ACTIONS, type ContestAction } from './contest/actions.js';
export { runArena, type ArenaOptions, type ArenaInput, type ArenaTrace } from './arena.js';
export { createAcalSystem, type AcalSystemOptions } from './system.js';
export { createStandardPromptingSystem, createChainOfThoughtSystem, createSingleAgentRagSystem } from './baselines/index.js';
export { runAcal, ACAL_SYSTEMS, type RunAcalOptions, type RunAcalResult, type AcalSystemName } from './experiment.js';
export { acalMetrics, metricsTable as acalMetricsTable, type AcalMetrics } from './metrics.js';
export { LEGAL_ROLES, ROLE_NAMES, type LegalRole } from './roles.js';
export { ACAL_TASKS, acalTask, type AcalTask } from './tasks.js';
export { acalSection, ACAL_REPORT_SYSTEMS } from './report-section.js';
