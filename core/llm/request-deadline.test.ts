/**
 * One wall-clock deadline per LLM request, covering the headers, the body and a stream (issue 26,
 * item 5): a server that sends `200` and `Content-Length: 500` then nothing, one that drips a byte
 * at a time, and one that opens an SSE stream and never ends it, each fail the call within about
 * `timeoutMs` per attempt — `createChatModel({timeoutMs: 1000}).invoke()` used to be pending after
 * 20 s — and the request's concurrency slot is free again (the next call on the same model, with
 * `concurrency: 1`, is answered).
 */
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { completionJson, drip, startFaultyServer, type FaultyHandler, type FaultyServer } from '../../tests/support/faulty-http-server.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel, llmStats } from './factory.js';

let srv: FaultyServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const model = (url: string, over: Record<string, unknown> = {}) =>
  createChatModel(
    llmConfigSchema.parse({
      baseUrl: url,
      model: 'faulty',
      timeoutMs: 1000,
      maxRetries: 0,
      retryBaseMs: 1,
      retryMaxMs: 5,
      concurrency: 1,
      cacheDir: false,
      ...over,
    }),
  );

/** The first request stalls as `stall` does; every later one gets a proper answer. */
const firstStalls =
  (stall: FaultyHandler): FaultyHandler =>
  (req, res, i) => {
    if (i === 0) return stall(req, res, i);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completionJson('fine'));
  };

const STALLS: [string, FaultyHandler][] = [
  [
    'headers with Content-Length: 500, then nothing',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.flushHeaders();
    },
  ],
  [
    'a body dripping one byte every 100 ms',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      drip(res, completionJson('slow').padEnd(100_000, ' '), 100);
    },
  ],
  [
    'an SSE stream that never ends',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const t = setInterval(
        () => res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'a' } }] })}\n\n`),
        100,
      );
      res.on('close', () => clearInterval(t));
    },
  ],
];

describe('a request that starts and stalls', () => {
  it.each(STALLS)('%s: the call fails after ~timeoutMs with a timeout, and frees its concurrency slot', async (_name, stall) => {
    srv = await startFaultyServer(firstStalls(stall));
    const m = model(srv.url);
    const t0 = performance.now();
    const err = await Promise.race([
      m.invoke([new HumanMessage('hello?')]).then(
        () => new Error('answered'),
        (e: Error) => e,
      ),
      new Promise<Error>((r) => setTimeout(() => r(new Error('still pending after 10 s')), 10_000)),
    ]);
    const ms = performance.now() - t0;
    expect(err.message).toMatch(/^LLM request failed: timeout: .*1000 ms/);
    expect((err as { code?: string }).code).toBe('LLM_REQUEST_FAILED');
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(5000);
    expect(llmStats(m)).toMatchObject({ inFlight: 0 });
    // concurrency 1: the next call gets the slot and its answer.
    expect((await m.invoke([new HumanMessage('again')])).content).toBe('fine');
  });

  it('a stall is retried like a 5xx: stalled, then answered, succeeds', async () => {
    srv = await startFaultyServer(firstStalls(STALLS[0][1]));
    const m = model(srv.url, { maxRetries: 2 });
    expect((await m.invoke([new HumanMessage('hello?')])).content).toBe('fine');
    expect(llmStats(m)).toMatchObject({ requests: 2, retries: 1, inFlight: 0 });
  });

  it("the caller's abort still ends the call at once, as an abort (not retried)", async () => {
    srv = await startFaultyServer(STALLS[0][1]);
    const m = model(srv.url, { timeoutMs: 60_000, maxRetries: 3 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('stop')), 200);
    const t0 = performance.now();
    await expect(m.invoke([new HumanMessage('hello?')], { signal: ac.signal })).rejects.toThrow();
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(srv.requests).toBe(1);
  });
});
