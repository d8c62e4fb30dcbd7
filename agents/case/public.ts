/** `lexcase/agents/case`: CASE: advocates, jurors, find-evidence (agents/case/). */
export { findEvidence, type FindEvidenceOptions, type EvidenceResult } from './find-evidence.js';
export {
  createCase,
  createCaseLlmSystem,
  createCaseOfflineSystem,
  runAdvocate,
  runOfflineAdvocate,
  majorityVote,
  samplePanel,
  panelFor,
  PERSONAS,
  evidenceRecall,
  withGoldGuard,
  OFFLINE_LABEL,
  type CaseOptions,
} from './index.js';
export { caseMetrics, caseMetricsMarkdown, type CaseMetrics } from './metrics.js';
export { evalCaseOffline, type OfflineEvalResult } from './offline-eval.js';
