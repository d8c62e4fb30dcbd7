import { describe, expect, it } from 'vitest';
import { FakeChatModel, type FakeReply } from '../../tests/support/fake-chat-model.js';
import { runAdvocate } from '../case/advocate.js';
import { keywordRetriever, QUESTION, searchTool } from '../case/test-support/fixtures.js';
import { factsOf } from './question-text.js';

const tools = [searchTool('bm25_search', keywordRetriever('bm25')), searchTool('qld_search', keywordRetriever('qld'))];
const hyp = { key: 'C', text: QUESTION.choices[2], letter: 'C' };
const advocate = (replies: FakeReply[]) => runAdvocate({ llm: new FakeChatModel(replies), tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 2 });
const search = (query: string, id?: string) => ({ name: 'bm25_search', args: { query }, ...(id ? { id } : {}) });
const FINAL = JSON.stringify({ evidence: [{ id: 'P1', justification: 'on point' }] });

describe('an agent loop fails loudly on a reply that repeats an id, instead of merging it over an earlier message', () => {
  it('a model (not the factory) that repeats its completion id: the advocate throws LLM_OUTPUT_INVALID naming the id', async () => {
    const err = await advocate([
      { id: 'chatcmpl-same', toolCalls: [search('impeach own witness')] },
      { id: 'chatcmpl-same', content: FINAL },
    ]).catch((e) => e);
    expect(err).toMatchObject({ code: 'LLM_OUTPUT_INVALID' });
    expect(err.message).toMatch(/advocate C .*message id "chatcmpl-same" is already in the conversation/);
  });

  it('a tool-call id used again in a later turn, or twice in one reply: LLM_OUTPUT_INVALID', async () => {
    const later = await advocate([{ toolCalls: [search('impeach', 'call_0')] }, { toolCalls: [search('voucher rule', 'call_0')] }, FINAL]).catch((e) => e);
    expect(later).toMatchObject({ code: 'LLM_OUTPUT_INVALID', message: expect.stringMatching(/tool-call id "call_0" is already in the conversation/) });
    const twice = await advocate([{ toolCalls: [search('impeach', 'call_0'), search('voucher rule', 'call_0')] }, FINAL]).catch((e) => e);
    expect(twice).toMatchObject({ code: 'LLM_OUTPUT_INVALID', message: expect.stringMatching(/tool-call id "call_0" is used twice in one reply/) });
  });

  it('distinct ids pass: the same loop with distinct ids ends with its tool calls and final selection', async () => {
    const a = await advocate([
      { id: 'r1', toolCalls: [search('impeach', 'call_0'), search('voucher rule', 'call_1')] },
      { id: 'r2', toolCalls: [search('impeach own witness', 'call_2')] },
      { id: 'r3', content: FINAL },
    ]);
    expect(a.stop).toBe('final');
    expect(a.toolCalls).toHaveLength(3);
    expect(a.evidence).toHaveLength(1);
  });
});
