/**
 * What ACAL and its baselines send that decides their results, for the run's request fingerprint
 * (config.json `prompts`, eval/request-fingerprint.ts): each stage's system message, its request
 * rendered on the fixed probe (agents/common/request-probe.ts) and its reply schema.
 */
import { withPassageHandles } from '../common/passage-handles.js';
import { PROBE_PASSAGE, PROBE_TEXT } from '../common/request-probe.js';
import type { RequestParts } from '../../eval/request-fingerprint.js';
import { answerSchema } from './baselines/answer.js';
import { PROMPTED_SYSTEM, promptedSchema, promptedUser } from './baselines/prompted.js';
import { RAG_SYSTEM, ragUser } from './baselines/single-agent-rag.js';
import type { AcalGraph } from './graph/types.js';
import type { CaseInput } from './llm/common.js';
import { argumentsSchema } from './llm/generate-arguments.js';
import { relationsSchema } from './llm/identify-relations.js';
import { judgeSchema } from './llm/judge.js';
import { clashSchema } from './llm/resolve-clashes.js';
import { scoresSchema } from './llm/score-arguments.js';
import { teamSchema } from './llm/select-team.js';
import * as P from './prompts.js';
import { LEGAL_ROLES } from './roles.js';
import type { AcalSystemName } from './system-names.js';
import { acalTask } from './tasks.js';

const support = { side: 'support' as const, text: '{argument A}' };
const attack = { side: 'attack' as const, text: '{argument B}' };

/** A one-argument-a-side graph at the threshold, for the judge's request. */
const probeGraph = {
  arguments: [
    { id: 's1', side: 'support', agent: '{role}', text: support.text, citedPassageIds: [PROBE_PASSAGE.id], status: 'accepted' },
    { id: 'a1', side: 'attack', agent: '{role}', text: attack.text, citedPassageIds: [], status: 'accepted' },
  ],
  relations: [{ from: 'a1', to: 's1', kind: 'attack' }],
  result: { effectiveBase: { s1: 0.5, a1: 0.5 }, strengths: { s1: 0.5, a1: 0.5 }, claimStrength: 0.5 },
  settings: { threshold: 0.5 },
} as unknown as AcalGraph;

/** ACAL's (`acal`) or a baseline's request parts for `task`, showing `passageChars` of each passage. */
export function acalRequests(system: AcalSystemName, o: { task: string; passageChars: number }): RequestParts {
  const task = acalTask(o.task);
  if (system === 'sp' || system === 'cot')
    return { system: PROMPTED_SYSTEM, answer: promptedUser(system, task, [], PROBE_TEXT), schema: promptedSchema(system) };
  return withPassageHandles(() => {
    if (system === 'rag') return { system: RAG_SYSTEM, answer: ragUser(task, [PROBE_PASSAGE], PROBE_TEXT, o.passageChars), schema: answerSchema };
    const c: CaseInput = { task, claim: task.claim, caseText: PROBE_TEXT, evidence: [PROBE_PASSAGE], passageChars: o.passageChars };
    const scored = [{ id: 's1', side: 'support' as const, text: support.text, citedPassageIds: [PROBE_PASSAGE.id] }];
    return {
      selectTeam: [P.SELECT_TEAM_SYSTEM, P.selectTeamPrompt(c, 'support', 3), P.selectTeamPrompt(c, 'attack', 3), teamSchema(3)],
      generateArguments: [
        ...LEGAL_ROLES.map((r) => P.generateArgumentsSystem(r.role)),
        P.generateArgumentsPrompt(c, '{role}', 'support'),
        P.generateArgumentsPrompt(c, '{role}', 'attack'),
        argumentsSchema(['P1']),
      ],
      score: [P.SCORE_SYSTEM, P.scorePrompt(c, scored), scoresSchema(['s1'])],
      relations: [P.RELATIONS_SYSTEM, P.relationsPrompt('{context}', [{ pair: 's1~a1', a: support, b: attack }]), relationsSchema(['s1~a1'])],
      clash: [P.CLASH_SYSTEM, P.clashPrompt(c, support, attack), clashSchema],
      judge: [P.JUDGE_SYSTEM, P.judgePrompt(c, probeGraph), judgeSchema],
    };
  });
}
