/**
 * Paper 002 §3.2 grants each debater "one new snippet" in a rebuttal; lexcase runs the debater's
 * search at k = 1, whose top hit is often a passage the debater already has. report.md's MAD section
 * says how many requested snippets were already in the debater's evidence (a Round-0 pool passage, or
 * one it had requested in an earlier round). The first item is a real debate's trace (Bar Exam QA
 * val, mbe_1030, bm25, k = 5, against a server whose debaters search with their option's text): all
 * four requests returned mbe_789, a pool passage.
 */
import { describe, expect, it } from 'vitest';
import type { RunData } from '../../eval/report/types.js';
import { madSection, snippetsAlreadyShown } from './report-section.js';

const brief = (letter: string, round: number, ids?: string[], query = 'q') => ({
  letter,
  round,
  kind: round === 1 ? 'opening' : 'rebuttal',
  saw: [],
  argument: `option ${letter}`,
  claims: [],
  citations: [],
  ...(ids ? { request: { tool: 'bm25_search', query, ids, passageChars: 600 } } : {}),
});

const mbe1030 = {
  pool: ['ussc-4154602#p67', 'mbe_789', 'cap-32044078577194_0054#p11', 'ussc-4106441#p18', 'mbe_575', 'mbe_393', 'fre-901#p2', 'mbe_12'].map((id) => ({
    id,
    query: 'q',
  })),
  rounds: [
    { round: 1, briefs: ['A', 'B', 'C', 'D'].map((l) => brief(l, 1)) },
    {
      round: 2,
      briefs: [
        brief('A', 2, ['mbe_789'], 'committed both forgery and false pretenses.'),
        brief('B', 2, ['mbe_789'], 'committed forgery, because she created a false document with the intent to defraud, …'),
        brief('C', 2, ['mbe_789'], 'not committed forgery, because the document had no apparent legal significance, …'),
        brief('D', 2, ['mbe_789'], 'not committed forgery, because the document had no apparent legal significance, and …'),
      ],
    },
  ],
};
// A's round-2 snippet is new; in round 3 A gets the same passage again and B a pool passage
const threeRounds = {
  pool: [
    { id: 'mbe_2', query: 'q' },
    { id: 'mbe_3', query: 'q' },
  ],
  rounds: [
    { round: 1, briefs: [brief('A', 1), brief('B', 1)] },
    { round: 2, briefs: [brief('A', 2, ['mbe_9']), brief('B', 2)] },
    { round: 3, briefs: [brief('A', 3, ['mbe_9']), brief('B', 3, ['mbe_3'])] },
  ],
};

describe('MAD report: requested snippets already in the debater’s evidence', () => {
  it('counts a snippet whose hit is a pool passage or the debater’s own earlier snippet, and report.md says so', async () => {
    const traces = new Map<string, Record<string, unknown>>([
      ['mbe_1030', mbe1030],
      ['mbe_2', threeRounds],
    ]);
    expect(snippetsAlreadyShown(traces.values())?.json).toEqual({ requests: 7, alreadyShown: 6, items: 2, itemsWith: 2 });
    const results = [...traces.keys()].map((id) => ({ id, prediction: 'A', gold: 'A', correct: true }));
    const run = { dir: '/nonexistent', results, traces, config: { config: { system: 'mad/mad', rounds: 3, passageChars: 600 } } } as unknown as RunData;
    const section = await madSection(run, { seed: 13, iterations: 2000 } as never);
    expect(section!.markdown).toContain(
      '**6 of 7 snippets the debaters requested** (in 2 of 2 items) **were already in their evidence**: the search\'s top hit (k = 1) was a pool passage or one the debater had requested before, so it read nothing new where the paper\'s rebuttal grants "one new snippet"',
    );
    expect(section!.json).toMatchObject({ snippetsAlreadyShown: { requests: 7, alreadyShown: 6 } });
  });

  it('a trace of the new-only rule counts the requests that found no new passage and the shown hits passed over, not the k = 1 line', () => {
    const req = (ids: string[], skipped: number) => ({ tool: 'bm25_search', query: 'q', ids, rule: 'new-only', k: 3, skipped, passageChars: 600 });
    const trace = {
      pool: [{ id: 'mbe_2' }, { id: 'mbe_3' }],
      rounds: [
        { round: 1, briefs: [brief('A', 1), brief('B', 1)] },
        {
          round: 2,
          briefs: [
            { ...brief('A', 2), request: req(['mbe_9'], 2) },
            { ...brief('B', 2), request: req([], 2) },
          ],
        },
      ],
    };
    const r = snippetsAlreadyShown([trace])!;
    expect(r.json).toEqual({ requests: 0, alreadyShown: 0, items: 0, itemsWith: 0, newOnly: { requests: 2, noNew: 1, itemsWith: 1, skipped: 4 } });
    expect(r.line).toContain(
      "4 higher-ranked hits already in the debater's evidence were passed over): **1 of 2 snippet requests** (in 1 of 1 item) **found no new passage**",
    );
    expect(r.line).not.toContain('were already in');
  });

  it('says nothing when no debater requested a snippet', () => {
    expect(snippetsAlreadyShown([{ pool: [{ id: 'mbe_2' }], rounds: [{ round: 1, briefs: [brief('A', 1)] }] }])).toBeNull();
  });
});
