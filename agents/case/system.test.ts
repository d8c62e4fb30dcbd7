import { describe, expect, it } from 'vitest';
import type { SystemContext } from '../../eval/types.js';
import { errors } from '../../core/errors.js';
import { deriveSeed } from '../../core/rng.js';
import { FakeChatModel, type FakeCall, type FakeReply } from '../../tests/support/fake-chat-model.js';
import { SCHEMA_VALID_FAILURES } from '../../tests/support/local-model.js';
import { createCase } from './index.js';
import { panelFor } from './jury-panel.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, searchTool, without } from './test-support/fixtures.js';

function ctxFor(llm: FakeChatModel | undefined, passages: Record<string, string>, options: Record<string, unknown> = {}): SystemContext {
  const bm25 = keywordRetriever('bm25', passages);
  return {
    seed: deriveSeed(13, QUESTION.id),
    tools: [searchTool('bm25_search', bm25, passages)],
    retrievers: { bm25 },
    llm,
    getPassage: getPassageFrom(passages),
    options: { k: 2, ...options },
  };
}

/** Advocates search with their hypothesis text and pick the top two hits; jurors vote by `vote`. */
function pipelineScript(vote: (call: FakeCall) => FakeReply) {
  return (call: FakeCall): FakeReply => {
    if (/juror on a panel/.test(call.text)) return vote(call);
    if (call.tools.length === 0) return '{"evidence":[]}';
    const last = call.messages[call.messages.length - 1];
    if (last.getType() === 'human') {
      const hyp = call.text.split('Hypothesis to support:\n')[1] ?? '';
      return { toolCalls: [{ name: 'bm25_search', args: { query: `witness ${hyp}` } }] };
    }
    const ids: string[] = JSON.parse(String(last.content)).results.map((r: { id: string }) => r.id);
    return JSON.stringify({ evidence: ids.slice(0, 2).map((id) => ({ id, justification: `supports via ${id}` })) });
  };
}

describe('CASE LLM pipeline (fake chat model)', () => {
  it('runs advocates for every option, a seeded 3-juror panel, and a majority verdict with a full trace', async () => {
    let j = 0;
    const model = new FakeChatModel(pipelineScript(() => JSON.stringify({ reasoning: 'Relevant evidence is admissible.', vote: ['B', 'B', 'C'][j++] })));
    const out = await createCase()(QUESTION, ctxFor(model, without(PASSAGES, ['gold0'])));
    expect(out.error).toBeUndefined();
    expect(out.prediction).toBe('B');
    expect(out.confidence).toBe('low');
    const t = out.trace as any;
    expect(t.hypotheses.map((h: any) => h.letter)).toEqual(['A', 'B', 'C', 'D']);
    expect(t.advocates).toHaveLength(4);
    expect(t.advocates[0].toolCalls[0]).toMatchObject({ tool: 'bm25_search', step: 1 });
    expect(t.advocates[0].toolCalls[0].query).toContain('surprised');
    expect(t.advocates[0].evidence[0].justification).toMatch(/^supports via/);
    expect(t.panel).toEqual(panelFor(13, QUESTION.id).map((p) => p.name));
    expect(t.jurors.map((x: any) => x.vote)).toEqual(['B', 'B', 'C']);
    expect(t.jurors[0].persona).toBe(t.panel[0]);
    expect(t.tokens.total).toBe(t.tokens.advocates + t.tokens.jury);
    expect(t.tokens.jury).toBeGreaterThan(0);
    // the juror saw every hypothesis with its evidence
    const jurorCall = model.calls.find((c) => /juror on a panel/.test(c.text))!;
    for (const l of ['A', 'B', 'C', 'D']) expect(jurorCall.text).toContain(`Hypothesis ${l}:`);
    expect(jurorCall.text).toContain(t.panel[0]);
  });

  it('gold-leak guard: with the gold passage absent from the index, no prompt contains its text', async () => {
    const model = new FakeChatModel(pipelineScript(() => '{"reasoning":"r","vote":"B"}'));
    const out = await createCase()(QUESTION, ctxFor(model, without(PASSAGES, ['gold0'])));
    expect(out.prediction).toBe('B');
    expect(model.calls.length).toBeGreaterThan(8);
    for (const c of model.calls) expect(c.text).not.toContain(PASSAGES.gold0.slice(0, 60));
    expect(out.metrics).toMatchObject({ goldInCorrectEvidence: false, goldInAnyEvidence: false, goldEverReturned: false });
  });

  it('every passage in a juror prompt came from a tool result, and evidence recall is measured when retrieval finds the gold passage', async () => {
    const model = new FakeChatModel(pipelineScript(() => '{"reasoning":"r","vote":"B"}'));
    const out = await createCase()(QUESTION, ctxFor(model, PASSAGES));
    const t = out.trace as any;
    const returned = new Set(t.advocates.flatMap((a: any) => a.toolCalls.flatMap((c: any) => c.ids)));
    for (const a of t.advocates) for (const e of a.evidence) expect(returned.has(e.id)).toBe(true);
    expect(returned.has('gold0')).toBe(true);
    expect(out.metrics?.goldEverReturned).toBe(true);
    const inB = t.advocates.find((a: any) => a.letter === 'B').evidence.some((e: any) => e.id === 'gold0');
    expect(out.metrics?.goldInCorrectEvidence).toBe(inB);
  });

  it('a juror whose reply is unparseable twice abstains (recorded) and the vote goes on', async () => {
    let j = 0;
    const replies = ['not json', 'still {not json', '{"reasoning":"r","vote":"d"}', '{"reasoning":"r","vote":"(D) because"}'];
    const model = new FakeChatModel(pipelineScript(() => replies[j++]));
    const out = await createCase()(QUESTION, ctxFor(model, PASSAGES));
    const t = out.trace as any;
    expect(t.jurors[0]).toMatchObject({ abstained: true, vote: null });
    expect(t.jurors[0].raw).toEqual(['not json', 'still {not json']);
    expect(t.jurors[0].error).toMatch(/could not be parsed/);
    expect(t.jurors.slice(1).map((x: any) => x.vote)).toEqual(['D', 'D']);
    expect(out.prediction).toBe('D');
    expect(out.confidence).toBe('low');
    expect(out.metrics?.abstentions).toBe(1);
  });

  it("an advocate whose reply is a tool call written as text keeps its error and the reply (raw) in the item's trace", async () => {
    const asText = '<tool_call>\n{"name": "bm25_search", "arguments": {"query": "impeach own witness"}}\n</tool_call>';
    const base = pipelineScript(() => '{"reasoning":"r","vote":"B"}');
    const model = new FakeChatModel((call) =>
      call.tools.length && call.text.endsWith(`Hypothesis to support:\n${QUESTION.choices[0].trim()}`) ? asText : base(call),
    );
    const out = await createCase()(QUESTION, ctxFor(model, PASSAGES));
    const a = (out.trace as any).advocates[0];
    expect(a).toMatchObject({ key: 'A', stop: 'final', evidence: [], toolCalls: [] });
    expect(a.error).toMatch(/^final reply has no parseable selection and no tool returned passages \(it looks like a tool call written as text/);
    // before: the trace had the error but not the reply, so nothing showed what the server sent
    expect(a.raw).toBe(asText);
    expect((out.trace as any).advocates.slice(1).every((x: any) => x.raw === undefined && x.error === undefined)).toBe(true);
    expect(out.stepFailures).toEqual({ 'advocate reply without selection or passages': 1 });
  });

  it('an LLM request failure fails the item with the error and the partial trace (no throw)', async () => {
    const model = new FakeChatModel((call) =>
      /juror on a panel/.test(call.text) ? { error: errors.llmRequestFailed('HTTP 500 after 3 retries') } : pipelineScript(() => '')(call),
    );
    const out = await createCase()(QUESTION, ctxFor(model, PASSAGES));
    expect(out.prediction).toBeNull();
    expect(out.error).toMatch(/^LLM_REQUEST_FAILED: .*HTTP 500/);
    expect((out.trace as any).advocates).toHaveLength(4);
  });

  it('records an advocate that found no passage apart from one whose compile call failed (the contract tests allow only the former)', async () => {
    // advocates A and B answer in prose without searching: nothing to compile from; C and D search,
    // then neither their final reply nor the compile call (twice) holds a selection
    const model = new FakeChatModel((call) => {
      if (/juror on a panel/.test(call.text)) return JSON.stringify({ reasoning: 'Relevant evidence is admissible.', vote: 'B' });
      if (call.tools.length === 0) return 'still no json';
      const hyp = call.text.split(/Hypothesis to (?:support|challenge):\n/)[1] ?? '';
      if (QUESTION.choices.slice(0, 2).some((c) => hyp.startsWith(c))) return 'The rule plainly decides it.';
      if (call.messages[call.messages.length - 1].getType() === 'human') return { toolCalls: [{ name: 'bm25_search', args: { query: `witness ${hyp}` } }] };
      return 'I think the voucher rule applies.';
    });
    const out = await createCase()(QUESTION, ctxFor(model, PASSAGES));
    expect(out.error).toBeUndefined();
    // before: { 'advocate evidence selection': 4 } for both kinds
    expect(out.stepFailures).toEqual({ 'advocate reply without selection or passages': 2, 'advocate evidence selection': 2 });
    expect((out.trace as any).advocates.map((a: any) => a.failedStep)).toEqual(['no passages', 'no passages', 'compile', 'compile']);
    // a failed compile call is not one of the failed steps a schema-valid reply may cause
    expect(SCHEMA_VALID_FAILURES).toContain('advocate reply without selection or passages');
    expect(SCHEMA_VALID_FAILURES).not.toContain('advocate evidence selection');
  });

  it('exploratory mode: hypotheses come from the facts alone and are mapped back to options', async () => {
    const model = new FakeChatModel((call) => {
      if (/propose between 2 and/.test(call.text))
        return JSON.stringify({
          hypotheses: ['Vic testimony admissible because relevant to material issues', 'Paul cannot impeach his own witness under the voucher rule'],
        });
      return pipelineScript(() => '{"reasoning":"r","vote":"B"}')(call);
    });
    const out = await createCase({ hypotheses: 'exploratory' })(QUESTION, ctxFor(model, PASSAGES));
    const t = out.trace as any;
    const gen = model.calls.find((c) => /propose between 2 and/.test(c.text))!;
    for (const choice of QUESTION.choices) expect(gen.text).not.toContain(choice);
    expect(t.hypotheses.map((h: any) => [h.key, h.letter])).toEqual([
      ['H1', 'B'],
      ['H2', 'C'],
    ]);
    expect(t.advocates).toHaveLength(2);
    expect(out.prediction).toBe('B');
    expect(t.tokens.hypotheses).toBeGreaterThan(0);
  });

  it('exploratory mode: a hypothesis equally close to two options maps to neither, and the juror reads "equally close to options C, D", not "closest to option C"', async () => {
    // {inadmissible, paul, own, witness}: Jaccard 4/6 with option C and 4/6 with option D
    const model = new FakeChatModel((call) => {
      if (/propose between 2 and/.test(call.text))
        return JSON.stringify({ hypotheses: ['Inadmissible: Paul and his own witness', 'Vic testimony admissible because relevant to material issues'] });
      return pipelineScript(() => '{"reasoning":"r","vote":"B"}')(call);
    });
    const out = await createCase({ hypotheses: 'exploratory' })(QUESTION, ctxFor(model, PASSAGES));
    const t = out.trace as any;
    // before: ['H1', 'C'] — the first of the tied options, always the lowest letter
    expect(t.hypotheses.map((h: any) => [h.key, h.letter, h.tiedLetters])).toEqual([
      ['H1', null, ['C', 'D']],
      ['H2', 'B', undefined],
    ]);
    const juror = model.calls.find((c) => /juror on a panel/.test(c.text))!;
    expect(juror.text).toContain('Hypothesis H1 (equally close to options C, D): Inadmissible: Paul and his own witness');
    expect(juror.text).not.toContain('closest to option C');
    expect(juror.text).toContain('Hypothesis H2 (closest to option B):');
  });

  it('exploratory mode: a reply whose hypotheses are blank fails the item — no jury votes on no hypothesis (before: a unanimous "high" verdict)', async () => {
    const model = new FakeChatModel((call) => {
      if (/propose between 2 and/.test(call.text)) return JSON.stringify({ hypotheses: ['', '  '] });
      return pipelineScript(() => '{"reasoning":"r","vote":"A"}')(call);
    });
    const out = await createCase({ hypotheses: 'exploratory' })(QUESTION, ctxFor(model, PASSAGES));
    expect(out.prediction).toBeNull();
    expect(out.error).toMatch(/LLM_OUTPUT_INVALID/);
    expect(out.error).toContain('only 0 of the 2 hypotheses have text');
    expect(model.calls.filter((c) => /propose between 2 and/.test(c.text))).toHaveLength(1);
    expect(model.calls.some((c) => /juror on a panel/.test(c.text))).toBe(false);
  });

  it('exploratory mode: a blank hypothesis beside two with text is dropped and counted as a failed step', async () => {
    const model = new FakeChatModel((call) => {
      if (/propose between 2 and/.test(call.text))
        return JSON.stringify({
          hypotheses: ['Vic testimony admissible because relevant to material issues', ' ', 'Paul cannot impeach his own witness under the voucher rule'],
        });
      return pipelineScript(() => '{"reasoning":"r","vote":"B"}')(call);
    });
    const out = await createCase({ hypotheses: 'exploratory' })(QUESTION, ctxFor(model, PASSAGES));
    expect((out.trace as any).hypotheses).toHaveLength(2);
    expect(out.prediction).toBe('B');
    expect(out.stepFailures).toEqual({ 'exploratory hypothesis with empty text': 1 });
  });

  it('exploratory mode: a hypothesis repeating one (case and spacing aside) is dropped and counted — it argued twice and its evidence counted twice in the tie rule', async () => {
    const model = new FakeChatModel((call) => {
      if (/propose between 2 and/.test(call.text))
        return JSON.stringify({
          hypotheses: [
            'Vic testimony admissible because relevant to material issues',
            'Paul cannot impeach his own witness under the voucher rule',
            ' paul cannot  impeach his own witness under the Voucher rule',
          ],
        });
      return pipelineScript(() => '{"reasoning":"r","vote":"B"}')(call);
    });
    const out = await createCase({ hypotheses: 'exploratory' })(QUESTION, ctxFor(model, PASSAGES));
    expect((out.trace as any).hypotheses).toHaveLength(2);
    expect((out.trace as any).advocates).toHaveLength(2);
    expect(out.stepFailures).toEqual({ 'exploratory hypothesis repeating an earlier one': 1 });
  });

  it('exploratory mode: ["X", "X"] is one hypothesis, not two competing ones: the item fails', async () => {
    const model = new FakeChatModel((call) => {
      if (/propose between 2 and/.test(call.text)) return JSON.stringify({ hypotheses: ['The voucher rule applies', 'the voucher rule  applies'] });
      return pipelineScript(() => '{"reasoning":"r","vote":"A"}')(call);
    });
    const out = await createCase({ hypotheses: 'exploratory' })(QUESTION, ctxFor(model, PASSAGES));
    expect(out.prediction).toBeNull();
    expect(out.error).toMatch(/LLM_OUTPUT_INVALID/);
    expect(out.error).toContain('only 1 of the 2 hypotheses is distinct');
    expect(model.calls.some((c) => /juror on a panel/.test(c.text))).toBe(false);
  });

  it('with no LLM the pipeline stops with the not-configured error', async () => {
    await expect(createCase()(QUESTION, ctxFor(undefined, PASSAGES))).rejects.toThrow(/no endpoint is configured/);
  });
});
