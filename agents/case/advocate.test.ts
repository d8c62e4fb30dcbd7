import { describe, expect, it } from 'vitest';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { runAdvocate } from './advocate.js';
import { getPassageFrom, handleOf, keywordRetriever, PASSAGES, QUESTION, searchTool } from './test-support/fixtures.js';
import { factsOf } from '../common/question-text.js';
import { PassageHandles, withPassageHandles } from '../common/passage-handles.js';

const tools = [searchTool('bm25_search', keywordRetriever('bm25')), searchTool('qld_search', keywordRetriever('qld'))];
const hyp = { key: 'C', text: QUESTION.choices[2], letter: 'C' };

describe('LLM advocate (createAgent tool loop)', () => {
  it('searches, refines, and returns its k passages with justifications; every tool call is recorded', async () => {
    const model = new FakeChatModel((call) =>
      call.index === 0
        ? { toolCalls: [{ name: 'bm25_search', args: { query: 'impeach own witness' } }] }
        : call.index === 1
          ? { toolCalls: [{ name: 'qld_search', args: { query: 'voucher rule party vouches for its witness' } }] }
          : JSON.stringify({
              analysis: 'The voucher rule is the issue.',
              evidence: [
                { id: handleOf(call.text, 'At common law'), justification: 'states the common-law voucher rule' },
                { id: 'invented_99', justification: 'not from any tool' },
                { id: handleOf(call.text, 'Rule 607'), justification: 'modern rule' },
              ],
            }),
    );
    const a = await runAdvocate({ llm: model, tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 2, getPassage: getPassageFrom(PASSAGES) });
    expect(a.stop).toBe('final');
    expect(a.steps).toBe(3);
    expect(a.toolCalls.map((c) => [c.tool, c.query, c.step])).toEqual([
      ['bm25_search', 'impeach own witness', 1],
      ['qld_search', 'voucher rule party vouches for its witness', 2],
    ]);
    expect(a.toolCalls[0].ids).toContain('fre607');
    expect(a.toolCalls[1].ids[0]).toBe('voucher');
    expect(a.evidence.map((e) => e.id)).toEqual(['voucher', 'fre607']);
    expect(a.evidence[0].justification).toBe('states the common-law voucher rule');
    expect(a.evidence[0].text).toBe(PASSAGES.voucher);
    expect(a.evidence[0].score).toBeGreaterThan(0);
    expect(a.rejectedIds).toEqual(['invented_99']);
    expect(a.analysis).toMatch(/voucher/);
    expect(a.tokens).toBeGreaterThan(0);
    // the model saw the tools and the hypothesis
    expect(model.calls[0].tools.map((t) => t.function.name)).toEqual(['bm25_search', 'qld_search']);
    expect(model.calls[0].text).toContain(hyp.text);
    // tool results reached the model under handles only
    for (const c of model.calls) for (const id of Object.keys(PASSAGES).filter((x) => /\d/.test(x))) expect(c.text).not.toMatch(new RegExp(`\\b${id}\\b`));
  });

  it('stops at the step limit and compiles its evidence in one extra call', async () => {
    const model = new FakeChatModel((call) =>
      call.tools.length
        ? { toolCalls: [{ name: 'bm25_search', args: { query: `impeach witness ${call.index}` } }] }
        : JSON.stringify({ evidence: [{ id: /^(P\d+): Rule 607/m.exec(call.text)?.[1], justification: 'any party may impeach' }] }),
    );
    const a = await runAdvocate({ llm: model, tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 3, maxSteps: 2 });
    expect(a.stop).toBe('step-limit');
    expect(a.steps).toBe(2); // the loop's 2 model calls, not the limit's note (it said 3)
    expect(a.toolCalls).toHaveLength(2);
    expect(a.evidence.map((e) => e.id)).toEqual(['fre607']);
    expect(model.calls).toHaveLength(3);
    // the compile list shows handles (P1 = the first passage returned), never ids; the pick maps back
    expect(model.calls[2].text).toMatch(/^P1: Rule 607\./m);
    expect(model.calls[2].text).not.toContain('fre607');
  });

  it('stops at the token limit', async () => {
    const model = new FakeChatModel((call) =>
      call.tools.length
        ? { toolCalls: [{ name: 'bm25_search', args: { query: 'witness credibility' } }], usage: { input: 600, output: 10 } }
        : JSON.stringify({ evidence: [{ id: 'fre608', justification: 'character for truthfulness' }] }),
    );
    const a = await runAdvocate({ llm: model, tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 3, maxSteps: 10, maxTokens: 1000 });
    expect(a.stop).toBe('token-limit');
    expect(a.toolCalls).toHaveLength(2); // 610 < 1000 after one step, 1220 ≥ 1000 after two
    expect(a.steps).toBe(2);
  });

  it('a final reply whose only pick names no handle ("P1, P2") gets the compile call; the compiled picks are the evidence and only their citations count (before: the replaced pick counted too)', async () => {
    const model = new FakeChatModel((call) =>
      call.index === 0
        ? { toolCalls: [{ name: 'bm25_search', args: { query: 'impeach own witness' } }] }
        : call.tools.length
          ? JSON.stringify({ evidence: [{ id: 'P1, P2', justification: 'both' }] })
          : JSON.stringify({ evidence: [{ id: /^(P\d+): Rule 607/m.exec(call.text)?.[1], justification: 'any party may impeach' }] }),
    );
    const h = new PassageHandles();
    const a = await withPassageHandles(
      () => runAdvocate({ llm: model, tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 2, getPassage: getPassageFrom(PASSAGES) }),
      h,
    );
    expect(model.calls).toHaveLength(3); // search, the final reply, the compile call
    expect(a.evidence.map((e) => e.id)).toEqual(['fre607']);
    expect(h.unresolved).toBe(0);
  });

  it('only the accepted reply counts its picks naming no handle shown, and a real id written out is no pick: the compile call, re-asked once, picks by handle (before: the raw id was evidence, 2 counted for 1)', async () => {
    let last = '';
    const model = new FakeChatModel((call) => {
      if (call.index === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'impeach own witness' } }] };
      // the final reply writes fre607's real id, which no prompt showed, and two handles in one
      if (call.index === 1)
        return JSON.stringify({
          evidence: [
            { id: 'fre607', justification: 'a' },
            { id: 'P1, P2', justification: 'b' },
          ],
        });
      // the compile call: a reply its schema refuses (re-asked), then one naming Rule 607 by its handle and "P1 and P2"
      if (call.index === 2) return JSON.stringify({ evidence: [{ id: 'P7, P8', justification: ['not text'] }] });
      last = JSON.stringify({
        evidence: [
          { id: /^(P\d+): Rule 607/m.exec(call.text)?.[1], justification: 'any party may impeach' },
          { id: 'P1 and P2', justification: 'c' },
        ],
      });
      return last;
    });
    const h = new PassageHandles();
    const a = await withPassageHandles(
      () => runAdvocate({ llm: model, tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 2, getPassage: getPassageFrom(PASSAGES) }),
      h,
    );
    expect(model.calls).toHaveLength(4); // search, the final reply, the compile call twice
    expect(a.evidence.map((e) => e.id)).toEqual(['fre607']);
    expect(a.rejected).toEqual([{ id: 'P1 and P2', reason: 'names no handle' }]);
    // independently: the accepted (last) reply's picks that are no handle its compile list shows
    const shown = new Set([...model.calls[3].text.matchAll(/^(P\d+): /gm)].map((m) => m[1]));
    const accepted = JSON.parse(last).evidence as { id: string }[];
    expect(accepted.filter((p) => !shown.has(p.id))).toHaveLength(1);
    expect(h.unresolved).toBe(1);
  });

  it('a malformed final reply gets the compile call; two more failures fall back to evidence scores with the error recorded', async () => {
    const model = new FakeChatModel([
      { toolCalls: [{ name: 'bm25_search', args: { query: 'impeach own witness voucher' } }] },
      'I think the voucher rule applies.',
      'still no json',
      '{"evidence": "none"}',
    ]);
    const a = await runAdvocate({ llm: model, tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 2 });
    expect(a.error).toMatch(/could not be parsed/);
    expect(a.failedStep).toBe('compile');
    expect(a.evidence).toHaveLength(2);
    expect(a.evidence[0].justification).toMatch(/no parseable selection/);
    expect(a.evidence.map((e) => e.id).every((id) => a.toolCalls[0].ids.includes(id))).toBe(true);
  });

  // before: stop "final", no error, no evidence — read as an advocate that searched and found nothing
  it.each([
    [
      'a tool call written as text (wrong tool parser)',
      '<tool_call>\n{"name": "bm25_search", "arguments": {"query": "impeach own witness", "k": 3}}\n</tool_call>',
      /written as text/,
    ],
    ['an empty reply', '', /the reply was empty/],
    ['prose', 'The voucher rule no longer applies under Rule 607.', /no tool returned passages$/],
  ])('a final reply with no parseable selection and no passages from any tool (%s) is an error with the reply kept', async (_, reply, why) => {
    const model = new FakeChatModel([reply]);
    const a = await runAdvocate({ llm: model, tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 2 });
    expect(a.stop).toBe('final');
    expect(a.toolCalls).toEqual([]);
    expect(a.evidence).toEqual([]);
    expect(a.error).toMatch(/^final reply has no parseable selection and no tool returned passages/);
    expect(a.error).toMatch(why);
    expect(a.raw).toBe(reply);
    expect(a.failedStep).toBe('no passages');
    expect(model.calls).toHaveLength(1); // nothing to compile from: no extra call
  });

  it('keeps a long unparseable final reply cut, with a mark saying so', async () => {
    const reply = `<tool_call>${'x'.repeat(5000)}`;
    const a = await runAdvocate({ llm: new FakeChatModel([reply]), tools, facts: factsOf(QUESTION), hypothesis: hyp, k: 2 });
    expect(a.raw).toBe(`${reply.slice(0, 2000)}… [cut: 5011 characters]`);
  });
});
