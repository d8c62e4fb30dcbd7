/**
 * The evidence query of ACAL and its RAG baseline is the task's terms and the whole item text. A
 * Learned Hands post tells its story first and asks its question last; before this, the courts
 * task searched with the post's first 600 characters only, so a question that starts near the end
 * of a long post never reached the retriever (and config.json did not say so).
 */
import { describe, expect, it } from 'vitest';
import type { TaskExample } from '../../corpora/types.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { getPassageFrom, keywordRetriever, searchTool } from '../case/test-support/fixtures.js';
import { createSingleAgentRagSystem } from './baselines/single-agent-rag.js';
import { acalTask } from './tasks.js';

const STORY =
  'I rented a two-bedroom apartment in Columbus for three years and always paid the rent on time. When I moved out in June the landlord walked through with me, ' +
  'said the place looked fine and promised to mail my security deposit back within a month. Two months later I got a letter saying he was keeping all of it ' +
  'for repainting, new blinds and a carpet cleaning, none of which he mentioned at the walk-through. I have photos from the day I moved in and the day I moved ' +
  'out, and my roommate was there both times. I sent him a certified letter asking for an itemized list and he never answered it. ';
// the question: what the courts category is about (how to deal with the court system)
const QUESTION = 'How do I file a small claims case against him myself, and do I need to hire a lawyer for the hearing?';
const POST = STORY + QUESTION;

const PASSAGES: Record<string, string> = {
  deposit:
    'A landlord must return the security deposit within thirty days after the tenant moves out, with an itemized list of any deductions for damage beyond normal wear.',
  walkthrough: 'A move-out walk-through lets the landlord and the tenant note the condition of the apartment, the carpet, the blinds and the paint.',
  smallclaims:
    'Small claims court: a person may file a claim himself at the clerk of court, pay the filing fee and represent himself at the hearing of the case; he need not hire a lawyer.',
};

describe('ACAL evidence query (learned_hands_courts)', () => {
  it('searches with the whole post: a question that starts at character 588 reaches the retriever and its passage is retrieved', async () => {
    expect(POST.indexOf(QUESTION)).toBeGreaterThanOrEqual(588);
    const queries: string[] = [];
    const retriever = keywordRetriever('bm25', PASSAGES);
    const recording = { ...retriever, search: (q: string, o?: { k?: number }) => (queries.push(q), retriever.search(q, o)) };
    const llm = new FakeChatModel(['{"reasoning":"asks how to file in small claims","answer":"Yes"}']);
    const item = { id: 'lhc-long', text: POST, label: 'Yes' } as TaskExample;
    const out = await createSingleAgentRagSystem({ task: 'learned_hands_courts', k: 1 })(item, {
      llm,
      tools: [searchTool('bm25_search', recording, PASSAGES)],
      getPassage: getPassageFrom(PASSAGES),
    } as never);
    expect(queries).toEqual([acalTask('learned_hands_courts').query(POST)]);
    expect(queries[0].endsWith(QUESTION)).toBe(true);
    expect(out.trace).toMatchObject({ evidenceIds: ['smallclaims'] });
    expect(String(llm.calls[0].messages[1].content)).toContain(PASSAGES.smallclaims);
  });
});
