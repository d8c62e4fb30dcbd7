/**
 * What MAD (or one of its baselines) sends that decides its results, for the run's request
 * fingerprint (config.json `prompts`, eval/request-fingerprint.ts): each role's system message, its
 * request rendered on the fixed probe (agents/common/request-probe.ts), its reply schema, and the
 * retrieval tools a debater may call.
 */
import { withPassageHandles } from '../common/passage-handles.js';
import { PROBE_LETTERS, PROBE_PASSAGE, PROBE_QUESTION } from '../common/request-probe.js';
import type { RequestParts } from '../../eval/request-fingerprint.js';
import { POOL_ORDER } from './evidence-pool.js';
import { SNIPPET_RULE } from './new-snippet.js';
import * as P from './prompts.js';
import { briefSchema, citedAnswerSchema, crossAnswerSchema, crossExamSchema, judgeSchema } from './schemas.js';
import type { MadSystemName } from './system-names.js';
import type { Brief, PoolPassage } from './types.js';

/** `tools`: the retrieval tools the debaters are given; `passageChars`: the characters of each passage shown. */
export function madRequests(system: MadSystemName, o: { passageChars: number; tools: readonly unknown[] }): RequestParts {
  const q = PROBE_QUESTION;
  const pool: PoolPassage[] = [{ ...PROBE_PASSAGE, query: '{query}' }];
  const handles = ['P1'];
  // a snippet a debater requested, cited in a brief: the judge, the cross-examiner and the rebutting debaters are shown its text
  const snippet = { id: '{snippet}', text: '{requested snippet text}' };
  return withPassageHandles(() => {
    // the order of the Round-0 pool every system is shown (evidence-pool.ts); it was the options' fixed order before
    const poolOrder = POOL_ORDER;
    if (system !== 'mad')
      return { answer: [P.ANALYST_SYSTEM, P.citedAnswerPrompt(q, pool, o.passageChars), citedAnswerSchema(PROBE_LETTERS, handles)], poolOrder };
    const brief = (letter: string): Brief => ({
      letter,
      round: 1,
      kind: 'opening',
      saw: [],
      argument: '{argument}',
      claims: [{ text: '{claim}', cites: [PROBE_PASSAGE.id] }],
      citations: [],
    });
    const [a, b] = [brief('A'), brief('B')];
    return {
      debater: [
        ...PROBE_LETTERS.map(P.debaterSystem),
        P.openingPrompt(q, 'A', pool, o.passageChars),
        P.rebuttalPrompt(q, 'A', 2, 3, pool, a, [b], o.passageChars, true, [snippet]),
        P.rebuttalPrompt(q, 'A', 3, 3, pool, a, [b], o.passageChars, false, [snippet]),
        briefSchema(handles, 'opening'),
        briefSchema(handles, 'rebuttal'),
      ],
      tools: [...o.tools],
      // which hit a requested snippet is (new-snippet.ts); before, the k = 1 top hit, often a passage already shown
      snippetRule: SNIPPET_RULE,
      crossExaminer: [
        P.CROSS_EXAMINER_SYSTEM,
        P.crossExamPrompt(q, [a, b], ['A', 'B'], [PROBE_PASSAGE, snippet], o.passageChars),
        crossExamSchema(['A', 'B']),
        P.crossAnswerPrompt(q, a, '{question}'),
        crossAnswerSchema,
      ],
      poolOrder,
      judge: [
        P.JUDGE_SYSTEM,
        P.judgePrompt(q, pool, [snippet], [a, b], { questions: [{ letter: 'A', question: '{question}', answer: '{answer}' }] }, o.passageChars),
        judgeSchema(PROBE_LETTERS, [...handles, 'P2']),
      ],
    };
  });
}
