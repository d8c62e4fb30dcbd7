import { describe, expect, it } from 'vitest';
import type { SystemContext } from '../../../eval/types.js';
import { FakeChatModel } from '../../../tests/support/fake-chat-model.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, without } from '../test-support/fixtures.js';
import { BASELINE_MODES, createBaseline, ragMethod } from './baseline-system.js';

/** Retrievers over an index WITHOUT the gold passage; the doc store still has it (as a real index would for the oracle). */
function ctxFor(llm: FakeChatModel, k = 3): SystemContext {
  const noGold = without(PASSAGES, ['gold0']);
  const retrievers = Object.fromEntries(['bm25', 'qld', 'dense', 'hybrid'].map((m) => [m, keywordRetriever(m, noGold)]));
  return { seed: 1, tools: [], retrievers, llm, getPassage: getPassageFrom(PASSAGES), options: { k } };
}

const GOLD_TEXT = PASSAGES.gold0.slice(0, 60);

describe('baselines', () => {
  it('llm-only sends the question and options with no passages', async () => {
    const model = new FakeChatModel(['{"reasoning":"relevance","answer":"B"}']);
    const out = await createBaseline('llm-only')(QUESTION, ctxFor(model));
    expect(out.prediction).toBe('B');
    expect(model.calls[0].text).toContain('B. admissible because Vic');
    expect(model.calls[0].text).not.toContain('Legal passages');
  });

  it('RAG modes prepend exactly the retriever top-k passages', async () => {
    for (const mode of ['bm25-rag', 'qld-rag', 'dense-rag', 'hybrid-rag'] as const) {
      const model = new FakeChatModel(['```json\n{"reasoning":"r","answer":"c"}\n```']);
      const out = await createBaseline(mode)(QUESTION, ctxFor(model, 3));
      expect(out.prediction).toBe('C');
      const t = out.trace as any;
      expect(t.retrieval.method).toBe(ragMethod(mode));
      expect(t.retrieval.ids).toHaveLength(3);
      const prompt = model.calls[0].text;
      // numbered [1]..[k] in retrieval order, never with their ids
      t.retrieval.ids.forEach((id: string, i: number) => expect(prompt).toContain(`[${i + 1}] ${PASSAGES[id].slice(0, 40)}`));
      for (const id of t.retrieval.ids.filter((x: string) => /\d/.test(x))) expect(prompt).not.toContain(id); // ("voucher" is also a word)
      expect((prompt.match(/^\[\d+\] /gm) ?? []).length).toBe(3);
      expect(out.metrics?.goldInContext).toBe(false);
    }
  });

  it('gold-leak check: no non-oracle mode puts the gold passage in a prompt; the oracle does (so the check can fail)', async () => {
    for (const mode of BASELINE_MODES) {
      const model = new FakeChatModel(() => '{"reasoning":"r","answer":"B"}');
      await createBaseline(mode, { k: 10 })(QUESTION, ctxFor(model, 10));
      const leaked = model.calls.some((c) => c.text.includes(GOLD_TEXT));
      expect([mode, leaked]).toEqual([mode, mode === 'oracle']);
    }
  });

  it('an answer unparseable twice fails the item (recorded), without throwing', async () => {
    const model = new FakeChatModel(['The answer is probably B', 'B!']);
    const out = await createBaseline('bm25-rag')(QUESTION, ctxFor(model));
    expect(out.prediction).toBeNull();
    // the code stays, so the report groups it under LLM_OUTPUT_INVALID (before: the message alone, grouped as OTHER)
    expect(out.error).toMatch(/^LLM_OUTPUT_INVALID: LLM output for .* could not be parsed/);
    expect(model.calls).toHaveLength(2);
  });

  it('a RAG mode whose retriever the index lacks stops with a clear error', async () => {
    const model = new FakeChatModel(['{"answer":"A"}']);
    const ctx = ctxFor(model);
    delete ctx.retrievers.dense;
    const out = await createBaseline('dense-rag')(QUESTION, ctx);
    expect(out.error).toMatch(/needs the "dense" retriever/);
  });
});
