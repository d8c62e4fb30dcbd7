/**
 * Two server faults of a long run that the retry policy (retry.ts) promises to handle, met through
 * the real LLM client against a raw server on 127.0.0.1:
 *  - a connection closed while the body is read (a proxy or server restarting mid-reply): fetch
 *    throws TypeError "terminated", whose cause is undici's SocketError "other side closed". Before,
 *    only the outer error was read, so the cut was an "error", not retried: the item failed at once
 *    (a 1,101-item run against a server that cut 1 reply in 43 lost 26 items this way);
 *  - a 429 whose Retry-After is an HTTP-date, not seconds (RFC 9110 allows both): before, the date
 *    was ignored and the retry came after the short exponential backoff (211 ms after a 429 that
 *    asked for 3 s), so a rate-limited run spent its retries at once and failed its items; the same
 *    for a 429 that says its wait in `retry-after-ms` alone (Azure OpenAI), which was not read.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completionJson, startFaultyServer, type FaultyServer } from '../../tests/support/faulty-http-server.js';
import { llmConfigSchema, type LlmConfig } from '../config.js';
import { setLogLevel } from '../log.js';
import { createChatModel, llmStats } from './factory.js';

function cfg(url: string, over: Partial<LlmConfig> = {}): LlmConfig {
  return llmConfigSchema.parse({ baseUrl: url, model: 'faulty', retryBaseMs: 1, retryMaxMs: 5, maxRetries: 2, timeoutMs: 5000, cacheDir: false, ...over });
}

let srv: FaultyServer | undefined;

/** stderr at debug level (the retry lines), captured. */
function debugLines(): string[] {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  setLogLevel('debug');
  return written;
}
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
  vi.restoreAllMocks();
});

describe('LLM retries of faults a long run meets', () => {
  it('a reply whose connection is closed midway through its body is retried as a connection error, and the retry answers', async () => {
    srv = await startFaultyServer((_req, res, i) => {
      const body = completionJson('the second try');
      if (i > 0) return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      // headers and half the promised body, then the socket closes
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.write(body.slice(0, Math.floor(body.length / 2)));
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const model = createChatModel(cfg(srv.url));
    const reply = await model.invoke('hi');
    expect(reply.content).toBe('the second try');
    expect(srv.requests).toBe(2);
    expect(llmStats(model)).toMatchObject({ requests: 2, retries: 1 });
  });

  it('a connection closed midway on every try fails after the retries, naming a connection error', async () => {
    srv = await startFaultyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"id": "chatcmpl-cut", "choices": [');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const err = await createChatModel(cfg(srv.url, { maxRetries: 1 }))
      .invoke('hi')
      .catch((e) => e);
    expect(err.code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/connection error after 2 attempts/);
    expect(srv.requests).toBe(2);
  });

  it.each([
    ['an HTTP-date an hour ahead', () => new Date(Date.now() + 3_600_000).toUTCString(), 400],
    ['delay-seconds', () => '3600', 400],
    ['an HTTP-date already past', () => new Date(Date.now() - 60_000).toUTCString(), 1],
  ])('a 429 whose Retry-After is %s waits what it asks (up to retryMaxMs), not the exponential backoff', async (_what, retryAfter, expectedMs) => {
    srv = await startFaultyServer((_req, res, i) => {
      if (i === 0)
        return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter() }).end('{"error":{"message":"rate limited"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(completionJson('after the wait'));
    });
    const written = debugLines();
    // backoff alone: 1 ms; the hint (an hour, or nothing left of a past date) is capped at retryMaxMs 400
    const reply = await createChatModel(cfg(srv.url, { retryBaseMs: 1, retryMaxMs: 400 })).invoke('hi');
    expect(reply.content).toBe('after the wait');
    expect(written.join('')).toContain(`LLM request failed (HTTP 429); retry 1/2 in ${expectedMs} ms`);
  });

  it('a 429 with only retry-after-ms (Azure OpenAI) waits what it asks, and the run is answered where the backoff alone spent every retry', async () => {
    // the gateway refuses every request for 300 ms after the first, and says so in retry-after-ms alone
    let until = 0;
    srv = await startFaultyServer((_req, res) => {
      if (until === 0) until = Date.now() + 300;
      if (Date.now() < until)
        return void res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': String(until - Date.now()) })
          .end('{"error":{"message":"rate limited"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(completionJson('after the wait'));
    });
    const written = debugLines();
    // backoff alone: 1, 2 ms — both retries refused, the call failed (before)
    const model = createChatModel(cfg(srv.url, { retryBaseMs: 1, retryMaxMs: 1000 }));
    const reply = await model.invoke('hi');
    expect(reply.content).toBe('after the wait');
    expect(srv.requests).toBe(2);
    expect(written.join('')).toMatch(/LLM request failed \(HTTP 429\); retry 1\/2 in (2\d\d|300) ms/);
  });
});
