/**
 * CASE through the REAL @langchain/openai client (createChatModel) against the scripted
 * OpenAI-compatible HTTP server on 127.0.0.1: multi-step advocate tool loops, juror votes, a 429
 * that is retried, a malformed juror reply retried then recorded as an abstention, and an item
 * whose LLM requests keep failing (500) recorded as failed while the next item still runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel, llmStats } from '../../core/llm/factory.js';
import { UsageMeter } from '../../core/llm/usage.js';
import { deriveSeed } from '../../core/rng.js';
import {
  instanceOf,
  requestedSchema,
  startScriptedServer,
  type RecordedRequest,
  type ScriptReply,
  type ScriptedServer,
} from '../../tests/support/scripted-openai-server.js';
import type { SystemContext } from '../../eval/types.js';
import { createCase } from './index.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, searchTool, without } from './test-support/fixtures.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const corpus = without(PASSAGES, ['gold0']);
const bm25 = keywordRetriever('bm25', corpus);
const qld = keywordRetriever('qld', corpus);

function ctx(url: string, questionId = QUESTION.id, o: { cacheDir?: string; usage?: UsageMeter; maxTokens?: number } = {}): SystemContext {
  const llm = createChatModel(
    llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: o.cacheDir ?? false, maxRetries: 2, retryBaseMs: 1, retryMaxMs: 5, timeoutMs: 5000 }),
    o.usage ? { usage: o.usage } : {},
  );
  return {
    seed: deriveSeed(7, questionId),
    tools: [searchTool('bm25_search', bm25, corpus), searchTool('qld_search', qld, corpus)],
    retrievers: { bm25, qld },
    llm,
    getPassage: getPassageFrom(corpus),
    options: { k: 2, ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}) },
  };
}

const text = (req: RecordedRequest) => JSON.stringify(req.body.messages);
const isJuror = (req: RecordedRequest) => /juror on a panel/.test(text(req));

/** Advocate: bm25 search, then qld search with a refined query, then pick the first two ids seen. */
function advocateReply(req: RecordedRequest): ScriptReply {
  const msgs = req.body.messages as { role: string; content: string }[];
  const toolMsgs = msgs.filter((m) => m.role === 'tool');
  const hyp = /Hypothesis to support:\\n([^"]*)/.exec(text(req))?.[1] ?? '';
  if (toolMsgs.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: `witness ${hyp}` } }] };
  if (toolMsgs.length === 1) return { toolCalls: [{ name: 'qld_search', args: { query: 'relevant evidence admissible' } }] };
  const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((r: { id: string }) => r.id));
  return { content: JSON.stringify({ analysis: 'done', evidence: [...new Set(ids)].slice(0, 2).map((id) => ({ id, justification: `on point: ${id}` })) }) };
}

describe('CASE against the scripted OpenAI-compatible server', () => {
  it("a server that reports only total_tokens: the advocates' --max-tokens budget counts each reply's total and stops them where it stops them on a server that splits it (and the trace's stage tallies match)", async () => {
    /** Three searches then a pick; every reply reports 500 tokens, split 450 + 50 or as a total alone. */
    const script =
      (usage: Partial<ScriptReply>) =>
      (req: RecordedRequest): ScriptReply => {
        if (isJuror(req)) return { content: JSON.stringify({ reasoning: 'r', vote: 'B' }), ...usage };
        if (/You searched a legal corpus/.test(text(req))) return { json: instanceOf(requestedSchema(req)), ...usage };
        const searched = (req.body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;
        if (searched < 3) return { toolCalls: [{ name: 'bm25_search', args: { query: `witness ${searched}` } }], ...usage };
        return { content: JSON.stringify({ analysis: 'done', evidence: [{ id: 'p1', justification: 'x' }] }), ...usage };
      };
    const advocates = async (usage: Partial<ScriptReply>) => {
      srv = await startScriptedServer(script(usage));
      const t = (await createCase()(QUESTION, ctx(srv.url, QUESTION.id, { maxTokens: 800 }))).trace as any;
      await srv.close();
      srv = undefined;
      return { stops: t.advocates.map((a: any) => [a.stop, a.steps, a.tokens]), tokens: t.tokens };
    };
    const split = await advocates({ usage: { prompt_tokens: 450, completion_tokens: 50 } });
    const totalOnly = await advocates({ rawUsage: { total_tokens: 500 } });
    // 500 + 500 ≥ 800: each advocate stops after its second reply, whichever way the server reports it
    expect(split.stops.every(([stop, steps]: [string, number]) => stop === 'token-limit' && steps === 2)).toBe(true);
    expect(totalOnly).toEqual(split);
  });

  it('a rerun answered wholly from the response cache spent 0 tokens in every stage, as the run meter says; its advocates stop where the live run stopped (the token budget counts the conversation)', async () => {
    srv = await startScriptedServer((req) => {
      if (isJuror(req)) return { content: JSON.stringify({ reasoning: 'Step 1: relevance.', vote: 'B' }) };
      // after a token-limit stop the advocate compiles its evidence in one structured request: a valid one (a malformed reply is never cached)
      if (/You searched a legal corpus/.test(text(req))) return { json: instanceOf(requestedSchema(req)) };
      return advocateReply(req);
    });
    const cacheDir = await mkdtemp(join(tmpdir(), 'lexcase-case-cache-'));
    try {
      const run = async (maxTokens?: number) => {
        const usage = new UsageMeter();
        const out = await createCase()(QUESTION, ctx(srv!.url, QUESTION.id, { cacheDir, usage, maxTokens }));
        return { out, t: out.trace as any, usage: usage.snapshot() };
      };
      // a budget of 1 token ends each advocate after its first reply (token-limit), live and cached alike
      for (const maxTokens of [undefined, 1]) {
        const live = await run(maxTokens);
        const sent = srv.requests.length;
        const again = await run(maxTokens);
        expect(srv.requests.length, 'the rerun sent no request').toBe(sent);
        expect(live.usage.total).toBeGreaterThan(0);
        expect(live.t.tokens.total).toBe(live.t.tokens.hypotheses + live.t.tokens.advocates + live.t.tokens.jury);
        expect(live.t.tokens.advocates).toBeGreaterThan(0);
        expect(again.usage).toMatchObject({ total: 0, cached: again.usage.calls });
        // before: every stage kept the cached replies' usage (e.g. advocates 94,769 tokens on a run that spent none)
        expect(again.t.tokens).toEqual({ hypotheses: 0, advocates: 0, jury: 0, total: 0 });
        expect(again.t.advocates.map((a: any) => [a.stop, a.steps])).toEqual(live.t.advocates.map((a: any) => [a.stop, a.steps]));
        if (maxTokens) expect(live.t.advocates.every((a: any) => a.stop === 'token-limit')).toBe(true);
        expect(again.out.prediction).toBe(live.out.prediction);
      }
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('a rerun against a server whose final advocate reply was unparseable once is answered wholly from the cache and repeats the run', async () => {
    // each advocate's first final reply is prose (its compile call recovers the step); asked again, the
    // server would pick other passages: before, that reply was dropped from the cache, so the rerun
    // re-sent it (and everything after it) and got a different selection, silently
    const askedFinal = new Set<string>();
    srv = await startScriptedServer((req) => {
      if (isJuror(req)) return { content: JSON.stringify({ reasoning: 'Step 1: relevance.', vote: 'B' }) };
      if (/You searched a legal corpus/.test(text(req))) {
        const handles: string[] = requestedSchema(req)?.properties.evidence.items.properties.id.enum ?? [];
        return { json: { analysis: 'compiled', evidence: handles.slice(0, 2).map((id) => ({ id, justification: `compiled: ${id}` })) } };
      }
      const r = advocateReply(req);
      if (!r.content) return r;
      const hyp = /Hypothesis to support:\\n([^"]*)/.exec(text(req))?.[1] ?? '';
      if (!askedFinal.has(hyp)) {
        askedFinal.add(hyp);
        return { content: 'I have gathered the passages above; they support the hypothesis.' };
      }
      const { evidence } = JSON.parse(r.content);
      return { content: JSON.stringify({ analysis: 'asked again', evidence: evidence.reverse().slice(0, 1) }) };
    });
    const cacheDir = await mkdtemp(join(tmpdir(), 'lexcase-case-cache-'));
    try {
      const run = async () => {
        const usage = new UsageMeter();
        const out = await createCase()(QUESTION, ctx(srv!.url, QUESTION.id, { cacheDir, usage }));
        return { out, t: out.trace as any, usage: usage.snapshot() };
      };
      const live = await run();
      expect(live.t.advocates.map((a: any) => a.analysis)).toEqual(['compiled', 'compiled', 'compiled', 'compiled']);
      expect(live.out.stepFailures).toBeUndefined();
      const sent = srv.requests.length;
      const again = await run();
      expect(srv.requests.length, 'the rerun sent no request').toBe(sent);
      expect(again.usage).toMatchObject({ total: 0, cached: again.usage.calls });
      expect(again.t.advocates.map((a: any) => [a.analysis, a.evidence])).toEqual(live.t.advocates.map((a: any) => [a.analysis, a.evidence]));
      expect(again.out.prediction).toBe(live.out.prediction);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('runs multi-step advocate loops, retries a 429, records a twice-malformed juror as abstaining, and votes', async () => {
    let jurorReqs = 0;
    srv = await startScriptedServer((req) => {
      if (!isJuror(req)) return advocateReply(req);
      jurorReqs++;
      if (jurorReqs === 1) return { status: 429, error: 'rate limited', headers: { 'retry-after': '0' } };
      if (jurorReqs === 2 || jurorReqs === 3) return { content: 'I vote for B because relevance.' }; // first juror: malformed twice
      return { content: JSON.stringify({ reasoning: 'Step 1: relevance. Step 2: FRE 402.', vote: 'B' }) };
    });
    const c = ctx(srv.url);
    const out = await createCase()(QUESTION, c);
    const t = out.trace as any;
    expect(out.error).toBeUndefined();
    expect(out.prediction).toBe('B');
    expect(out.confidence).toBe('low'); // 2–0 with one abstention
    expect(t.jurors[0]).toMatchObject({ abstained: true, vote: null, raw: ['I vote for B because relevance.', 'I vote for B because relevance.'] });
    expect(t.jurors.slice(1).map((j: any) => j.vote)).toEqual(['B', 'B']);
    for (const a of t.advocates) {
      expect(a.steps).toBe(3);
      expect(a.toolCalls.map((x: any) => x.tool)).toEqual(['bm25_search', 'qld_search']);
      expect(a.toolCalls[1].query).toBe('relevant evidence admissible');
      expect(a.evidence).toHaveLength(2);
      expect(a.evidence[0].justification).toMatch(/^on point: /);
    }
    // wire-level: tools were offered, tool results went back as role "tool" messages
    const advReqs = srv.requests.filter((r) => !isJuror(r));
    expect(advReqs).toHaveLength(12);
    expect(advReqs[0].body.tools.map((x: any) => x.function.name)).toEqual(['bm25_search', 'qld_search']);
    expect(advReqs[2].body.messages.filter((m: any) => m.role === 'tool')).toHaveLength(2);
    expect(llmStats(c.llm)?.retries).toBe(1);
    // tokens come from the server's usage figures
    expect(t.tokens.advocates).toBeGreaterThan(0);
    expect(t.tokens.jury).toBeGreaterThan(0);
    // no prompt carried the (unindexed) gold passage
    for (const r of srv.requests) expect(r.text).not.toContain(PASSAGES.gold0.slice(0, 50));
  }, 30_000);

  it('an item whose requests keep failing is recorded as failed; the next item still runs', async () => {
    const second = { ...QUESTION, id: 'mbe_second' };
    let failing = true;
    srv = await startScriptedServer((req) => {
      if (isJuror(req)) return failing ? { status: 500, error: 'upstream down' } : { content: '{"reasoning":"r","vote":"B"}' };
      return advocateReply(req);
    });
    const system = createCase();
    const results = [];
    for (const q of [QUESTION, second]) {
      results.push(await system(q, ctx(srv.url, q.id)));
      failing = false;
    }
    expect(results[0].prediction).toBeNull();
    expect(results[0].error).toMatch(/LLM request failed.*500/s);
    expect((results[0].trace as any).advocates).toHaveLength(4);
    expect(results[1].prediction).toBe('B');
    expect(results[1].confidence).toBe('high');
  }, 30_000);
});
