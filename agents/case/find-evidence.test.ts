import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { type FakeCall, FakeChatModel, type FakeReply } from '../../tests/support/fake-chat-model.js';
import { findEvidence } from './find-evidence.js';
import { getPassageFrom, handleOf, keywordRetriever, PASSAGES, QUESTION, searchTool } from './test-support/fixtures.js';
import { factsOf } from '../common/question-text.js';

const retrievers = { bm25: keywordRetriever('bm25'), qld: keywordRetriever('qld') };
/** One search, then a final reply picking Rule 607 by the handle its tool result showed (models never see ids; a real id written out is no pick). */
const searchThenPick607 =
  (search: FakeReply, analysis: string) =>
  (call: FakeCall, i: number): FakeReply =>
    i === 0 ? search : JSON.stringify({ analysis, evidence: [{ id: handleOf(call.text, 'Rule 607'), justification: 'any party may attack credibility' }] });

describe('findEvidence', () => {
  it('offline: the query plan (hypothesis, key terms) through bm25, fused evidence, labelled, with the tool calls made', async () => {
    const r = await findEvidence({ hypothesis: 'any party may attack the credibility of a witness', k: 3, retrievers, getPassage: getPassageFrom(PASSAGES) });
    expect(r.mode).toBe('offline heuristic, no LLM');
    expect(r.stance).toBe('for');
    expect(r.evidence).toHaveLength(3);
    expect(r.evidence[0].id).toBe('fre607');
    expect(r.evidence[0].text).toBe(PASSAGES.fre607);
    expect(r.evidence[0].justification).toMatch(/bm25 #1 for the hypothesis/);
    // no facts given: the facts + hypothesis query would repeat the hypothesis, so it is not sent
    expect(r.toolCalls.map((c) => [c.tool, c.query])).toEqual([
      ['bm25_search', 'any party may attack the credibility of a witness'],
      ['bm25_search', 'party attack credibility witness'],
    ]);
  });

  it('offline with k past what its searches return: every passage they hold, and a shortfall saying why', async () => {
    const r = await findEvidence({ hypothesis: 'any party may attack the credibility of a witness', k: 50, retrievers, getPassage: getPassageFrom(PASSAGES) });
    const held = new Set(r.toolCalls.flatMap((c) => c.ids));
    expect(r.evidence).toHaveLength(held.size);
    expect(r.shortfall).toEqual({
      k: 50,
      returned: held.size,
      reason: `${held.size} of the 50 passages asked for: the offline advocate ranks only the passages its 2 searches returned (the top 100 hits of each), and they held ${held.size}`,
    });
    const three = await findEvidence({ hypothesis: 'any party may attack the credibility of a witness', k: 3, retrievers });
    expect(three.shortfall).toBeUndefined();
  });

  it('offline --against ranks case-relevant passages the hypothesis does not pull up', async () => {
    const r = await findEvidence({ hypothesis: 'Paul cannot impeach his own witness', facts: factsOf(QUESTION), against: true, k: 2, retrievers });
    expect(r.stance).toBe('against');
    expect(r.toolCalls).toHaveLength(4); // hypothesis run + facts run, per method
    const forIds = (await findEvidence({ hypothesis: 'Paul cannot impeach his own witness', facts: factsOf(QUESTION), k: 2, retrievers })).evidence.map(
      (e) => e.id,
    );
    expect(r.evidence.map((e) => e.id)).not.toEqual(forIds);
    await expect(findEvidence({ hypothesis: 'x y', against: true, retrievers })).rejects.toThrow(/needs the facts/);
  });

  it('LLM: one advocate with tools, stance in the prompt, and its justifications', async () => {
    const model = new FakeChatModel(
      searchThenPick607({ toolCalls: [{ name: 'bm25_search', args: { query: 'exceptions to impeaching own witness' } }] }, 'FRE 607 defeats it'),
    );
    const r = await findEvidence({
      hypothesis: 'Paul cannot impeach his own witness',
      facts: factsOf(QUESTION),
      against: true,
      llm: model,
      tools: [searchTool('bm25_search', retrievers.bm25), searchTool('qld_search', retrievers.qld)],
      use: ['bm25'],
      getPassage: getPassageFrom(PASSAGES),
    });
    expect(r.mode).toBe('llm');
    expect(model.calls[0].text).toMatch(/AGAINST the hypothesis/);
    expect(model.calls[0].tools.map((t) => t.function.name)).toEqual(['bm25_search']);
    expect(r.evidence).toEqual([{ id: 'fre607', score: expect.any(Number), justification: 'any party may attack credibility', text: PASSAGES.fre607 }]);
    expect(r.toolCalls[0]).toMatchObject({ tool: 'bm25_search', query: 'exceptions to impeaching own witness' });
  });

  it('LLM over an index dir: the search tools it makes return k passages when the model asks without a k', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'find-evidence-'));
    try {
      const passages = Object.entries(PASSAGES).map(([id, text]) => ({ id, text }));
      await buildIndex(
        (async function* () {
          yield* passages;
        })(),
        { out: join(dir, 'idx'), corpusName: 'fre', methods: ['bm25', 'qld'], workers: 0 },
      );
      for (const k of [2, 3]) {
        // four passages mention a witness; the model's search names no k, so the tool's default decides
        const model = new FakeChatModel(searchThenPick607({ toolCalls: [{ name: 'bm25_search', args: { query: 'witness' } }] }, 'FRE 607'));
        const r = await findEvidence({ hypothesis: 'Paul cannot impeach his own witness', index: join(dir, 'idx'), llm: model, use: ['bm25'], k });
        expect(r.toolCalls[0]).toMatchObject({ tool: 'bm25_search', query: 'witness' });
        expect(r.toolCalls[0].ids).toHaveLength(k);
      }
    } finally {
      await closeSparseIndexes();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('LLM with retrievers and no tools: the advocate gets search tools made from them (not none), as `lexcase evidence` does', async () => {
    const model = new FakeChatModel(
      // fre607 matches all four words; "impeach own witness" alone tied it with voucher and surprise, and a search returns
      // a tie at the cut in trec_eval's order (ids descending), as `lexcase search` prints it
      searchThenPick607({ toolCalls: [{ name: 'qld_search', args: { query: 'impeach witness credibility attack' } }] }, 'FRE 607'),
    );
    const r = await findEvidence({ hypothesis: 'Paul may impeach his own witness', llm: model, retrievers, getPassage: getPassageFrom(PASSAGES), k: 2 });
    expect(model.calls[0].tools.map((t) => t.function.name)).toEqual(['bm25_search', 'qld_search', 'rewrite_query']);
    expect(r.mode).toBe('llm');
    expect(r.error).toBeUndefined();
    expect(r.toolCalls[0]).toMatchObject({ tool: 'qld_search', query: 'impeach witness credibility attack' });
    expect(r.toolCalls[0].ids).toHaveLength(2);
    expect(r.evidence).toEqual([{ id: 'fre607', score: expect.any(Number), justification: 'any party may attack credibility', text: PASSAGES.fre607 }]);
  });

  it('LLM with nothing to search with, or retrievers without passage texts: one clear USAGE error before any model call', async () => {
    const model = new FakeChatModel([]);
    await expect(findEvidence({ hypothesis: 'Paul may impeach his own witness', llm: model })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/nothing to search with/),
    });
    await expect(findEvidence({ hypothesis: 'Paul may impeach his own witness', llm: model, retrievers })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/need the passage texts/),
    });
    expect(model.calls).toHaveLength(0);
  });

  it('rejects an empty hypothesis and a bad k', async () => {
    await expect(findEvidence({ hypothesis: '  ', retrievers })).rejects.toThrow(/invalid hypothesis/);
    await expect(findEvidence({ hypothesis: 'x', k: 0, retrievers })).rejects.toThrow(/invalid k/);
  });
});
