import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema, type LlmConfig } from '../config.js';
import { LexcaseError } from '../errors.js';
import { redact, setLogLevel } from '../log.js';
import { createChatModel, llmStats, requireLlm } from './factory.js';
import type { LexcaseChatOpenAI } from './chat-openai.js';
import { endpointIdentity } from './endpoint.js';
import { ExchangeLog, withExchangeLog } from './record-replay.js';
import { UsageMeter, withUsageScope } from './usage.js';
import { tokensSection } from '../../eval/report/sections/tokens.js';

const KEY = 'sk-test-SECRETKEY1234567890';

function cfg(srv: ScriptedServer, over: Partial<LlmConfig> = {}): LlmConfig {
  return llmConfigSchema.parse({
    baseUrl: srv.url,
    model: 'scripted-model',
    apiKey: KEY,
    retryBaseMs: 1,
    retryMaxMs: 5,
    maxRetries: 2,
    timeoutMs: 2000,
    cacheDir: false,
    ...over,
  });
}

const search = tool(async ({ query }: { query: string }) => JSON.stringify({ results: [{ id: `p-${query.length}` }] }), {
  name: 'bm25_search',
  description: 'BM25 search over the passages',
  schema: z.object({ query: z.string(), k: z.number().int().min(1).max(50).optional() }),
});

let srv: ScriptedServer | undefined;
let cacheDir: string | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  cacheDir = undefined;
  setLogLevel('info');
});

describe('createChatModel against the scripted OpenAI-compatible server (real ChatOpenAI client)', () => {
  it('sends model, messages and temperature, returns the reply and sums token usage', async () => {
    srv = await startScriptedServer([{ content: 'Answer: B', usage: { prompt_tokens: 11, completion_tokens: 3 } }]);
    const usage = new UsageMeter();
    const model = createChatModel(cfg(srv, { temperature: 0.3, maxTokens: 64 }), { usage });
    const reply = await model.invoke([new HumanMessage('Which option?')]);
    expect(reply.content).toBe('Answer: B');
    const body = srv.requests[0].body;
    expect(body.model).toBe('scripted-model');
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(64);
    expect(body.messages).toEqual([{ role: 'user', content: 'Which option?' }]);
    expect(srv.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(usage.snapshot()).toEqual({ input: 11, output: 3, total: 14, calls: 1, cached: 0 });
  });

  it('runs a multi-step tool loop with bindTools: tool call → tool result → final answer', async () => {
    srv = await startScriptedServer([
      { toolCalls: [{ name: 'bm25_search', args: { query: 'adverse possession', k: 3 } }] },
      { toolCalls: [{ name: 'bm25_search', args: { query: 'hostile open notorious' } }] },
      { content: 'Evidence: p-18, p-22' },
    ]);
    const model = createChatModel(cfg(srv)).bindTools!([search]);
    const convo: BaseMessage[] = [new HumanMessage('Find evidence for hypothesis A')];
    let steps = 0;
    for (; steps < 5; steps++) {
      const reply = (await model.invoke(convo)) as AIMessage;
      convo.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls) {
        const out = await search.invoke(call.args as { query: string });
        convo.push(new ToolMessage({ content: out, tool_call_id: call.id! }));
      }
    }
    expect(steps).toBe(2);
    expect((convo.at(-1) as AIMessage).content).toBe('Evidence: p-18, p-22');
    expect(srv.requests).toHaveLength(3);
    expect(srv.requests[0].body.tools[0].function.name).toBe('bm25_search');
    expect(srv.requests[0].body.tools[0].function.parameters.properties.query.type).toBe('string');
    const second = srv.requests[1].body.messages;
    const assistant = second.find((m: { role: string }) => m.role === 'assistant');
    expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual({ query: 'adverse possession', k: 3 });
    const toolMsg = second.find((m: { role: string }) => m.role === 'tool');
    expect(toolMsg.tool_call_id).toBe(assistant.tool_calls[0].id);
    expect(JSON.parse(toolMsg.content).results[0].id).toBe('p-18');
  });

  it('retries a 429 with backoff and succeeds; the retry is counted', async () => {
    srv = await startScriptedServer([{ status: 429, error: 'Rate limit reached' }, { content: 'ok' }]);
    const model = createChatModel(cfg(srv));
    const reply = await model.invoke('hi');
    expect(reply.content).toBe('ok');
    expect(srv.requests).toHaveLength(2);
    expect(llmStats(model)).toMatchObject({ requests: 2, retries: 1 });
  });

  it('gives up on a persistent 500 after maxRetries with LLM_REQUEST_FAILED', async () => {
    srv = await startScriptedServer(() => ({ status: 500, error: 'upstream exploded' }));
    const model = createChatModel(cfg(srv, { maxRetries: 2 }));
    const err = await model.invoke('hi').catch((e) => e);
    expect(err).toBeInstanceOf(LexcaseError);
    expect(err.code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/HTTP 500 after 3 attempts/);
    expect(srv.requests).toHaveLength(3);
  });

  it('does not retry a 400 (bad request)', async () => {
    srv = await startScriptedServer(() => ({ status: 400, error: 'bad request: unknown field' }));
    const err = await createChatModel(cfg(srv))
      .invoke('hi')
      .catch((e) => e);
    expect(err.code).toBe('LLM_REQUEST_FAILED');
    expect(srv.requests).toHaveLength(1);
  });

  it('times out a slow reply and retries it', async () => {
    srv = await startScriptedServer([{ content: 'too late', delayMs: 1500 }, { content: 'on time' }]);
    const model = createChatModel(cfg(srv, { timeoutMs: 200 }));
    const reply = await model.invoke('hi');
    expect(reply.content).toBe('on time');
    expect(llmStats(model)).toMatchObject({ requests: 2, retries: 1 });
  });

  it('reports a persistent timeout as LLM_REQUEST_FAILED naming the timeout', async () => {
    srv = await startScriptedServer(() => ({ content: 'never', delayMs: 1000 }));
    const err = await createChatModel(cfg(srv, { timeoutMs: 100, maxRetries: 1 }))
      .invoke('hi')
      .catch((e) => e);
    expect(err.code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/timeout/);
  });

  it('treats a malformed JSON body as a failed attempt: retried, then an error if it persists', async () => {
    srv = await startScriptedServer([{ raw: '{"id": "x", "choices": [' }, { content: 'recovered' }]);
    const model = createChatModel(cfg(srv));
    expect((await model.invoke('hi')).content).toBe('recovered');
    await srv.close();
    srv = await startScriptedServer(() => ({ raw: 'not json at all {' }));
    const err = await createChatModel(cfg(srv, { maxRetries: 1 }))
      .invoke('hi')
      .catch((e) => e);
    expect(err.code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/malformed response/);
    expect(srv.requests).toHaveLength(2);
  });

  it('a reply without usage (none sent, or 0 tokens in and out) is counted as unreported, not as 0 tokens spent; a reply cut short at the token limit as cutShort; the report says both', async () => {
    srv = await startScriptedServer([
      { content: 'a', usage: { prompt_tokens: 9, completion_tokens: 2 } },
      { content: 'b', usage: null },
      { content: 'c', usage: { prompt_tokens: 0, completion_tokens: 0 } },
      { content: 'cut sho', usage: { prompt_tokens: 9, completion_tokens: 3 }, finishReason: 'length' },
    ]);
    const usage = new UsageMeter();
    const model = createChatModel(cfg(srv), { usage });
    setLogLevel('error'); // the once-per-process warnings are not what this checks
    for (const q of ['1', '2', '3', '4']) await model.invoke([new HumanMessage(q)]);
    // before: { input: 18, output: 5, total: 23, calls: 4, cached: 0 } — two calls read as spending nothing, the cut reply as complete
    const tokens = usage.snapshot();
    expect(tokens).toEqual({ input: 18, output: 5, total: 23, calls: 4, cached: 0, unreported: 2, cutShort: 1 });
    const section = await tokensSection({ results: [{ id: 'q1', prediction: 'A', gold: 'A', correct: true, tokens, ms: 1 }] } as never, {} as never);
    expect(section?.markdown).toMatch(/\| calls without usage \(endpoint reported none\) +\| +2 \|/);
    expect(section?.markdown).toMatch(/\| replies cut short \(finish_reason "length"\) +\| +1 \|/);
    expect(section?.markdown).toMatch(/reported no token usage for 2 of 4 calls/);
    expect(section?.json).toMatchObject({ total: 23, unreported: 2, cutShort: 1 });
  });

  it('serves an identical second call from the disk cache (no HTTP request), tool calls included', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lexcase-llm-cache-'));
    srv = await startScriptedServer([
      { toolCalls: [{ name: 'bm25_search', args: { query: 'easement by necessity' } }], usage: { prompt_tokens: 20, completion_tokens: 5 } },
      { content: 'different temperature' },
      { content: 'no tools bound' },
    ]);
    const usage = new UsageMeter();
    const c = cfg(srv, { cacheDir });
    const ask = [new HumanMessage('Search for the rule')];
    const first = (await createChatModel(c, { usage }).bindTools!([search]).invoke(ask)) as AIMessage;
    // A fresh model (as in a resumed run) with the same config reads the same cache.
    const model2 = createChatModel(c, { usage });
    const second = (await model2.bindTools!([search]).invoke(ask)) as AIMessage;
    expect(srv.requests).toHaveLength(1);
    expect(second.tool_calls).toEqual(first.tool_calls);
    expect(second.tool_calls?.[0]).toMatchObject({ name: 'bm25_search', args: { query: 'easement by necessity' } });
    expect(llmStats(model2)).toMatchObject({ requests: 0, cacheHits: 1 });
    expect(usage.snapshot()).toEqual({ input: 20, output: 5, total: 25, calls: 2, cached: 1 });
    expect((await readdir(cacheDir)).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    // Changed parameters or tools are different requests.
    await createChatModel({ ...c, temperature: 0.7 }).bindTools!([search]).invoke(ask);
    await createChatModel(c).invoke(ask);
    expect(srv.requests).toHaveLength(3);
  });

  it('a reply cached for one endpoint query value (?deployment=a) is not served for another (?deployment=b); the values reach no cache file', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lexcase-llm-cache-'));
    srv = await startScriptedServer((req) => ({ content: `Answer from ${new URL(req.path, 'http://x').searchParams.get('deployment')}` }));
    const ask = [new HumanMessage('Is the statement hearsay?')];
    const at = (query: string) => createChatModel(cfg(srv!, { cacheDir, baseUrl: `${srv!.url}?${query}` }));
    expect((await at('deployment=a&api-version=2024-02-01').invoke(ask)).content).toBe('Answer from a');
    expect((await at('deployment=b&api-version=2024-02-01').invoke(ask)).content).toBe('Answer from b');
    expect(srv.requests).toHaveLength(2);
    // the same values in another order are the same endpoint: served from the cache
    const again = at('api-version=2024-02-01&deployment=a');
    expect((await again.invoke(ask)).content).toBe('Answer from a');
    expect(llmStats(again)).toMatchObject({ requests: 0, cacheHits: 1 });
    expect(srv.requests).toHaveLength(2);
    const files = (await readdir(cacheDir)).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(2);
    for (const f of files) expect(await readFile(join(cacheDir, f), 'utf8')).not.toMatch(/2024-02-01|deployment=/);
    expect(endpointIdentity({ baseUrl: `${srv.url}?key=s3cr3t-value` })).not.toContain('s3cr3t-value');
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    srv = await startScriptedServer((req) => ({ content: `reply ${req.index}`, delayMs: 60 }));
    const model = createChatModel(cfg(srv, { concurrency: 2 }));
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => model.invoke(`question ${i}`)));
    expect(replies).toHaveLength(6);
    expect(srv.maxInFlight).toBe(2);
    expect(llmStats(model)?.maxInFlight).toBe(2);
  });

  it("records a call's latency from its send, and its wait for a concurrency slot apart as queuedMs (not as latency)", async () => {
    // an injected clock: each request takes exactly the time its server handler advances it by
    let clock = 0;
    srv = await startScriptedServer((req) => {
      clock += req.index === 0 ? 1000 : 500;
      return { content: `reply ${req.index}` };
    });
    const model = createChatModel(cfg(srv, { concurrency: 1 })) as unknown as LexcaseChatOpenAI;
    model.lexcase.now = () => clock;
    const log = new ExchangeLog('q1');
    await withExchangeLog(log, () => Promise.all([model.invoke('first'), model.invoke('second')]));
    const byReply = Object.fromEntries(log.recorded.map((x) => [x.reply!.generations[0].text, x]));
    // the first was sent at once and answered in 1,000 ms; the second waited those 1,000 ms for the
    // only slot, then took 500 (before: recorded as 1,500 ms of latency, no wait said)
    expect(byReply['reply 0']).toMatchObject({ ms: 1000 });
    expect(byReply['reply 0'].queuedMs).toBeUndefined();
    expect(byReply['reply 1']).toMatchObject({ ms: 500, queuedMs: 1000 });
  });

  it('shares the concurrency limit with bound copies of the model', async () => {
    srv = await startScriptedServer(() => ({ content: 'x', delayMs: 40 }));
    const model = createChatModel(cfg(srv, { concurrency: 1 }));
    const bound = model.bindTools!([search]);
    await Promise.all([model.invoke('a'), bound.invoke('b'), model.invoke('c'), bound.invoke('d')]);
    expect(srv.maxInFlight).toBe(1);
  });

  it('attributes tokens to the current usage scope (per-item accounting) as well as the run meter', async () => {
    srv = await startScriptedServer((req) => ({ content: 'x', usage: { prompt_tokens: 10 * (req.index + 1), completion_tokens: 1 } }));
    const run = new UsageMeter();
    const model = createChatModel(cfg(srv), { usage: run });
    const itemA = run.fork();
    const itemB = new UsageMeter();
    await withUsageScope(itemA, () => model.invoke('a'));
    await withUsageScope(itemB, async () => {
      await model.invoke('b');
      await model.invoke('c');
    });
    expect(itemA.snapshot()).toMatchObject({ input: 10, output: 1, calls: 1 });
    expect(itemB.snapshot()).toMatchObject({ input: 50, output: 2, calls: 2 });
    expect(run.snapshot()).toMatchObject({ input: 60, output: 3, calls: 3 });
  });

  it('never lets the API key reach logs or error messages', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      setLogLevel('debug');
      srv = await startScriptedServer(() => ({ status: 503, error: `Incorrect API key provided: ${KEY}` }));
      const err = await createChatModel(cfg(srv, { maxRetries: 1 }))
        .invoke('hi')
        .catch((e) => e);
      expect(err.code).toBe('LLM_REQUEST_FAILED');
      const { log } = await import('../log.js');
      log.error(err.message);
      expect(written.join('')).toContain('Incorrect API key provided');
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).not.toContain(KEY);
    expect(redact(`Authorization: Bearer ${KEY}`)).not.toContain(KEY);
  });

  it('stops at once with LLM_NOT_CONFIGURED (and how to configure) when no endpoint is set', () => {
    const empty = llmConfigSchema.parse({});
    expect(() => requireLlm(empty)).toThrow(/LEXCASE_LLM_BASE_URL/);
    const err = (() => {
      try {
        createChatModel(llmConfigSchema.parse({ baseUrl: 'http://127.0.0.1:9/v1' }));
      } catch (e) {
        return e as LexcaseError;
      }
    })();
    expect(err?.code).toBe('LLM_NOT_CONFIGURED');
  });
});
