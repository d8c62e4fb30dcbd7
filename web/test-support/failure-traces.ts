/**
 * Two item traces with the failures a run records and the explorer must show, as the systems write
 * them: a CASE item whose advocate A got a tool call written as text (`error` and the reply as `raw`,
 * agents/case/advocate.ts) beside an advocate that worked, and a MAD item whose debaters' snippet
 * requests were refused in round 2 (`refused: [{name, reason}]`, agents/mad/debater.ts) — one extra
 * call, a tool not offered, a tool call written as text. Plain data (no imports: the web/app tests
 * type-check under web/app's tsconfig): the in-process view tests (web/app) and the API tests
 * (web/server) read the same traces.
 */

/** agents/common/text-tool-call.ts TEXT_TOOL_CALL_HINT as a trace records it (web/server/trace-failures.test.ts checks it is). */
export const RECORDED_HINT = "a tool call written as text: check the server's tool-call parsing, e.g. vLLM's --tool-call-parser, llama.cpp's --jinja";

/** What a server without tool-call parsing sent advocate A: markup in the reply, to be shown as text. */
export const ADVOCATE_RAW = '<tool_call>\n{"name": "bm25_search", "arguments": {"query": "impeach own witness <b>voucher rule</b>"}}\n</tool_call>';
export const ADVOCATE_ERROR = `final reply has no parseable selection and no tool returned passages (it looks like ${RECORDED_HINT})`;

const runner = (prediction: string | null, gold: string, ms: number, confidence?: string) => ({
  prediction,
  gold,
  correct: prediction === gold,
  ...(confidence ? { confidence } : {}),
  seed: 1913,
  ms,
  tokens: { input: 5210, output: 640, total: 5850, calls: 7, cached: 0 },
  toolCalls: [],
});

export const CASE_ITEM = { id: 'mbe_137', prediction: 'B', gold: 'B', confidence: 'high', ms: 4210 };

export const caseFailureTrace = {
  id: CASE_ITEM.id,
  system: 'case',
  mode: 'jury',
  hypotheses: [
    { key: 'A', text: 'Paul may not impeach Vic, because a party vouches for the witnesses it calls.', letter: 'A' },
    { key: 'B', text: 'Paul may impeach Vic, because any party may attack the credibility of a witness.', letter: 'B' },
  ],
  advocates: [
    {
      key: 'A',
      letter: 'A',
      hypothesis: 'Paul may not impeach Vic, because a party vouches for the witnesses it calls.',
      stance: 'for',
      stop: 'final',
      steps: 1,
      tokens: 812,
      toolCalls: [],
      evidence: [],
      error: ADVOCATE_ERROR,
      raw: ADVOCATE_RAW,
    },
    {
      key: 'B',
      letter: 'B',
      hypothesis: 'Paul may impeach Vic, because any party may attack the credibility of a witness.',
      stance: 'for',
      stop: 'final',
      steps: 2,
      tokens: 1930,
      toolCalls: [{ tool: 'bm25_search', query: 'party impeach own witness credibility', ids: ['caselaw_4411', 'caselaw_902'], step: 1 }],
      evidence: [
        {
          id: 'caselaw_4411',
          score: 0.82,
          justification: 'Rule 607 lets any party attack a witness’s credibility.',
          snippet: 'The credibility of a witness may be attacked by any party, including the party that called the witness.',
        },
      ],
    },
  ],
  panel: ['Textualist'],
  jurors: [{ persona: 'Textualist', reasoning: 'Rule 607 ends the voucher rule.', vote: 'B', abstained: false, tokens: 640 }],
  verdict: { answer: 'B', confidence: 'high', tally: { B: 1 } },
  tokens: { hypotheses: 0, advocates: 2742, jury: 640, total: 3382 },
  runner: runner(CASE_ITEM.prediction, CASE_ITEM.gold, CASE_ITEM.ms, CASE_ITEM.confidence),
};

/** The refusals of MAD's debater turn (agents/mad/debater.ts), by debater letter. */
export const MAD_REFUSED = {
  B: [{ name: 'bm25_search', reason: 'one snippet per round' }],
  C: [{ name: 'web_search', reason: 'not a tool offered this round' }],
  D: [{ name: 'bm25_search', reason: RECORDED_HINT }],
} as const;

export const MAD_ITEM = { id: 'mbe_581', prediction: 'B', gold: 'B', ms: 9120 };

const brief = (letter: string, round: number, extra: Record<string, unknown> = {}) => ({
  letter,
  round,
  kind: round === 1 ? 'opening' : 'rebuttal',
  saw: round === 1 ? [] : ['A', 'B', 'C', 'D'].filter((l) => l !== letter),
  argument: `Option ${letter} follows from the rule on impeachment.`,
  claims: [{ text: 'Any party may attack a witness’s credibility.', cites: ['caselaw_4411'] }],
  citations: [{ id: 'caselaw_4411', claim: 'Any party may attack a witness’s credibility.', exists: true, seen: true, supportive: true, overlap: 0.71 }],
  ...extra,
});

export const madFailureTrace = {
  id: MAD_ITEM.id,
  system: 'mad',
  settings: { rounds: 2, topology: 'full', crossExaminer: false, k: 2, method: 'bm25', passageChars: 1200, judgeEachRound: false },
  pool: [{ id: 'caselaw_4411', query: 'impeachment of own witness' }],
  rounds: [
    { round: 1, briefs: ['A', 'B', 'C', 'D'].map((l) => brief(l, 1)) },
    {
      round: 2,
      briefs: [
        brief('A', 2),
        brief('B', 2, {
          request: { tool: 'bm25_search', query: 'party impeach own witness credibility', ids: ['caselaw_902'] },
          refused: MAD_REFUSED.B,
        }),
        brief('C', 2, { refused: MAD_REFUSED.C }),
        brief('D', 2, { refused: MAD_REFUSED.D }),
      ],
    },
  ],
  judge: {
    verdict: 'B',
    rationale: ['Rule 607 governs.', 'The voucher rule is gone.', 'B applies it.'],
    checklist: { doctrine_named: true, on_point_authority: true, accurate_use: true, logical_application: true, opponent_addressed: true },
    unsupported: [],
  },
  runner: runner(MAD_ITEM.prediction, MAD_ITEM.gold, MAD_ITEM.ms),
};
