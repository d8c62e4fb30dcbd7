import { getEventListeners } from 'node:events';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema, type LlmConfig } from '../config.js';
import { setLogLevel } from '../log.js';
import { createChatModel, llmStats } from './factory.js';

function cfg(srv: ScriptedServer, over: Partial<LlmConfig> = {}): LlmConfig {
  return llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', retryBaseMs: 1, retryMaxMs: 5, maxRetries: 1, cacheDir: false, ...over });
}

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
});

describe('LLM request timeout', () => {
  it('defaults to 120 s per request', () => {
    expect(llmConfigSchema.parse({}).timeoutMs).toBe(120_000);
  });

  it('a server that accepts and never answers fails the call after timeoutMs per attempt, retried like a 5xx', async () => {
    srv = await startScriptedServer(() => ({ hang: true }));
    const model = createChatModel(cfg(srv, { timeoutMs: 300, maxRetries: 2 }));
    const t0 = performance.now();
    const err = await model.invoke([new HumanMessage('hello?')]).catch((e) => e);
    const ms = performance.now() - t0;
    expect(err.code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/timeout after 3 attempts/);
    // 3 attempts; under heavy load the last may be abandoned before this in-process server has read it.
    expect(llmStats(model)).toMatchObject({ requests: 3, retries: 2, inFlight: 0 });
    expect(srv.requests.length).toBeGreaterThanOrEqual(2);
    expect(ms).toBeGreaterThanOrEqual(850);
    expect(ms).toBeLessThan(5000);
  });

  it('a hang followed by an answer succeeds on the retry', async () => {
    srv = await startScriptedServer((_req, i) => (i === 0 ? { hang: true } : { content: 'late but fine' }));
    const model = createChatModel(cfg(srv, { timeoutMs: 300 }));
    const reply = await model.invoke([new HumanMessage('hello?')]);
    expect(reply.content).toBe('late but fine');
    expect(llmStats(model)).toMatchObject({ requests: 2, retries: 1 });
  });
});

describe('abort listeners under retries', () => {
  it('one run-long signal over many failing-then-retried requests keeps no listeners (no MaxListenersExceededWarning)', async () => {
    srv = await startScriptedServer((_req, i) => (i % 2 === 0 ? { status: 500 } : { content: 'ok' }));
    const model = createChatModel(cfg(srv, { maxRetries: 2 }));
    const run = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 15; i++) await model.invoke([new HumanMessage(`q${i}`)], { signal: run.signal });
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(srv.requests).toHaveLength(30);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
