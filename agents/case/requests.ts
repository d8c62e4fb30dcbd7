/**
 * What CASE (with an LLM) and its single-path baselines send that decides their results, for the
 * run's request fingerprint (config.json `prompts`, eval/request-fingerprint.ts): each role's
 * system message, its request rendered on the fixed probe (agents/common/request-probe.ts), its
 * reply schema and the tools the advocates may call. The offline CASE sends nothing.
 */
import { withPassageHandles } from '../common/passage-handles.js';
import { optionLetters } from '../common/question-text.js';
import { PROBE_PASSAGE, PROBE_QUESTION } from '../common/request-probe.js';
import type { RequestParts } from '../../eval/request-fingerprint.js';
import { REWRITE_STYLES, rewritePrompt } from '../../retrieval/tools/rewrite-query.js';
import { evidenceSelectionSchema } from './advocate.js';
import { answerSchema, MCQ_SYSTEM, mcqPrompt } from './baselines/mcq-prompt.js';
import { exploratorySchema } from './hypotheses-exploratory.js';
import { jurorCaseFile, voteSchema } from './juror.js';
import { PERSONAS } from './personas.js';
import * as P from './prompts.js';
import type { AdvocateResult } from './types.js';

/** CASE's parts: `k` passages an advocate selects, the `tools` it is given, its hypotheses mode. */
export function caseRequests(o: { k: number; tools: readonly { name: string }[]; hypotheses: 'direct' | 'exploratory' }): RequestParts {
  const q = PROBE_QUESTION;
  const letters = optionLetters(q);
  const names = o.tools.map((t) => t.name);
  return withPassageHandles(() => {
    const advocate = {
      hypothesis: { key: 'A', text: '{hypothesis}', letter: 'A' },
      evidence: [{ ...PROBE_PASSAGE, justification: '{note}' }],
    } as unknown as AdvocateResult;
    return {
      advocate: [
        ...(['for', 'against'] as const).flatMap((s) => [
          P.advocateSystemPrompt(o.k, s, names),
          P.advocateTask('{facts}', '{hypothesis}', s),
          P.advocateCompilePrompt(o.k, '{hypothesis}', s, '{candidates}', { shown: 1, of: 2 }),
        ]),
        evidenceSelectionSchema(['P1']),
      ],
      tools: [
        ...o.tools,
        ...(names.includes('rewrite_query') ? REWRITE_STYLES.map((style) => rewritePrompt({ query: '{query}', facts: '{facts}', style })) : []),
      ],
      ...(o.hypotheses === 'exploratory' ? { hypotheses: [P.exploratoryPrompt('{facts}', 4), exploratorySchema(4)] } : {}),
      juror: [...PERSONAS.map(P.jurorSystemPrompt), jurorCaseFile(q, [advocate]), voteSchema(letters)],
    };
  });
}

/** A baseline's parts: the unified multiple-choice prompt, with a passage unless `mode` is llm-only. */
export function baselineRequests(mode: string): RequestParts {
  const q = PROBE_QUESTION;
  return { answer: [MCQ_SYSTEM, mcqPrompt(q, mode === 'llm-only' ? [] : [PROBE_PASSAGE]), answerSchema(optionLetters(q))] };
}
