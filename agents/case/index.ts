/** CASE public surface: systems for the runner, single advocates, and findEvidence. */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem } from '../../eval/types.js';
import { createCaseLlmSystem, type CaseOptions } from './system.js';
import { createCaseOfflineSystem, type EvidenceMode } from './case-offline-system.js';
import type { QueryPlan } from './advocate-offline.js';
import type { SelectorModel } from './evidence-selector.js';
import { withGoldGuard } from '../common/gold-guard.js';

export { runAdvocate, EvidenceSelection, type AdvocateOptions } from './advocate.js';
export { runOfflineAdvocate, OFFLINE_LABEL, offlineMethods } from './advocate-offline.js';
export { majorityVote } from './majority-vote.js';
export { samplePanel, panelFor } from './jury-panel.js';
export { PERSONAS, type Persona } from './personas.js';
export { evidenceRecall, type EvidenceRecall } from '../common/evidence-recall.js';
export { withGoldGuard, blindQuestion } from '../common/gold-guard.js';
export { evidenceScoreVerdict } from './offline-solver.js';
export { caseTraceSchema, jurorRecordSchema } from './trace-schema.js';
export { createCaseLlmSystem, createCaseOfflineSystem, type CaseOptions };
export type * from './types.js';

/** The CASE system the runner calls: offline heuristic or LLM pipeline, behind the gold guard. */
export function createCase(
  opts: CaseOptions & { offline?: boolean; plan?: QueryPlan; evidence?: EvidenceMode; selector?: SelectorModel } = {},
): AgentSystem<Question> {
  return withGoldGuard(
    opts.offline
      ? createCaseOfflineSystem({ k: opts.k, tools: opts.tools, plan: opts.plan, evidence: opts.evidence, selector: opts.selector })
      : createCaseLlmSystem(opts),
  );
}
import './trace-schema.js';
