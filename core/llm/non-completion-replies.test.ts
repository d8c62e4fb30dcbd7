/**
 * A `200` that is not a chat completion — an empty body, a proxy's HTML sign-in page, JSON without
 * `choices` — is retried like a malformed body, and fails with a message that says what came back
 * (issue 26, item 10: the item failed after one request with "Cannot read properties of undefined
 * (reading 'message')").
 */
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { completionJson, startFaultyServer, type FaultyServer } from '../../tests/support/faulty-http-server.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel, llmStats } from './factory.js';

let srv: FaultyServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const model = (url: string) =>
  createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'm', timeoutMs: 5000, maxRetries: 2, retryBaseMs: 1, retryMaxMs: 5, cacheDir: false }));

const HTML = '<!doctype html><html><head><title>Sign in - Corporate Proxy</title></head><body><form>…</form></body></html>';

const REPLIES: [string, Record<string, string>, string, RegExp][] = [
  ['an empty JSON body', { 'content-type': 'application/json' }, '', /an empty body/],
  ['an empty body without a content type', {}, '', /an empty body/],
  ['an HTML page', { 'content-type': 'text/html; charset=utf-8' }, HTML, /an HTML page \("Sign in - Corporate Proxy"\)/],
  ['JSON without choices', { 'content-type': 'application/json' }, '{"status":"ok"}', /JSON without "choices" \(keys: status\)/],
  ['a completion whose choice has no message', { 'content-type': 'application/json' }, '{"choices":[{"index":0}]}', /a choice without a message/],
];

describe('a 200 that is not a chat completion', () => {
  it.each(REPLIES)('%s: retried (3 requests), then LLM_REQUEST_FAILED saying what came back', async (_name, headers, body, what) => {
    srv = await startFaultyServer((_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    });
    const m = model(srv.url);
    const err = await m.invoke([new HumanMessage('hello?')]).then(
      () => new Error('answered'),
      (e: Error) => e,
    );
    expect((err as { code?: string }).code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/^LLM request failed: malformed response after 3 attempts: the endpoint answered HTTP 200 with /);
    expect(err.message).toMatch(what);
    expect(err.message).toMatch(/check the base URL/);
    expect(srv.requests).toBe(3);
  });

  it('an empty 200 followed by a proper answer succeeds on the retry', async () => {
    srv = await startFaultyServer((_req, res, i) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(i === 0 ? '' : completionJson('fine'));
    });
    const m = model(srv.url);
    expect((await m.invoke([new HumanMessage('hello?')])).content).toBe('fine');
    expect(llmStats(m)).toMatchObject({ requests: 2, retries: 1 });
  });
});

describe('a 200 that streams though no stream was asked for', () => {
  it('fails at once (1 request, not retried) with LLM_REQUEST_FAILED saying the server streams and lexcase does not (before: 3 requests, "malformed response … check the base URL")', async () => {
    srv = await startFaultyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'B' }, finish_reason: null }] })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
    const m = model(srv.url);
    const err = await m.invoke([new HumanMessage('hello?')]).then(
      () => new Error('answered'),
      (e: Error) => e,
    );
    expect((err as { code?: string }).code).toBe('LLM_REQUEST_FAILED');
    expect(err.message).toMatch(/a stream \(server-sent events, text\/event-stream\) though lexcase asked for one reply: lexcase never streams/);
    expect(err.message).not.toMatch(/check the base URL/);
    expect(srv.requests).toBe(1);
  });
});
