/**
 * What EMAR sends that decides its results, for the run's request fingerprint (config.json
 * `prompts`, eval/request-fingerprint.ts): each role's system message, its request rendered on the
 * fixed probe (agents/common/request-probe.ts) — a Bar Exam question and a hearsay example in
 * its framing — and its reply schema.
 */
import { PROBE_QUESTION, PROBE_TEXT } from '../common/request-probe.js';
import type { RequestParts } from '../../eval/request-fingerprint.js';
import { questionToCase, TASK_FRAMINGS, taskExampleToCase } from './cases.js';
import * as P from './prompts.js';
import { caseLetters, claimSchema, factsSchema, judgeSchema } from './schemas.js';
import type { Claim } from './types.js';

export function emarRequests(): RequestParts {
  const cases = [questionToCase(PROBE_QUESTION), taskExampleToCase({ id: 'probe', text: PROBE_TEXT, label: 'Yes' }, TASK_FRAMINGS.hearsay)];
  const claim: Claim = { answer: 'A', claim: '{claim}', argument: '{argument}', evidence: ['{fact}'] };
  const facts = ['{fact}'];
  return {
    facts: [P.FACT_EXTRACTION_SYSTEM, ...cases.map(P.caseText), factsSchema],
    proponent: [
      P.PROPONENT_SYSTEM,
      ...cases.flatMap((c) => [
        P.proponentRequest(c, facts),
        P.proponentRequest(c, facts, { own: claim, critique: claim }),
        claimSchema(caseLetters(c.choices)),
      ]),
    ],
    opponent: [P.OPPONENT_SYSTEM, ...cases.map((c) => P.opponentRequest(c, facts, claim))],
    judge: [P.JUDGE_SYSTEM, ...cases.flatMap((c) => [P.judgeRequest(c, facts, claim, claim), judgeSchema(caseLetters(c.choices))])],
  };
}
