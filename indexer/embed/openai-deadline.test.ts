/**
 * The openai embedder's per-attempt deadline is the LLM client's (core/llm/deadline.ts
 * withDeadline): an embeddings server on 127.0.0.1 that sends `200` and its headers and then
 * stalls the body is cut off after `timeoutMs`, the attempt is retried as a timeout, and when
 * every attempt stalls the error names the deadline (RequestDeadlineError), not a bare abort.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { drip, startFaultyServer, type FaultyHandler, type FaultyServer } from '../../tests/support/faulty-http-server.js';
import { requestEmbeddings, type EncodingFormat } from './openai-http.js';

let srv: FaultyServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const answer = (text: string) => {
  const { input } = JSON.parse(text) as { input: string[] };
  return JSON.stringify({
    object: 'list',
    data: input.map((_t, index) => ({ object: 'embedding', index, embedding: Buffer.from(Float32Array.of(index + 1, 2, 3).buffer).toString('base64') })),
  });
};
const headersThenSilence: FaultyHandler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
  res.flushHeaders();
};
const dripping: FaultyHandler = (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  drip(res, answer(req.text).padEnd(100_000, ' '), 50);
};
const ask = (s: FaultyServer, maxRetries: number) =>
  requestEmbeddings(
    { url: `${s.url}/embeddings`, apiKey: 'k-0000', model: 'm', input: ['hearsay', 'estoppel'], maxRetries, timeoutMs: 400 },
    { value: 'base64' as EncodingFormat },
  );

describe('openai embeddings: one deadline per attempt over headers and body', () => {
  it.each([
    ['headers with Content-Length: 500, then nothing', headersThenSilence],
    ['a body dripping one byte every 50 ms', dripping],
  ] as const)('%s: the attempt is cut off at the deadline and retried', async (_name, stall) => {
    srv = await startFaultyServer((req, res, i) => {
      if (i === 0) return stall(req, res, i);
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer(req.text));
    });
    const t0 = Date.now();
    const vecs = await ask(srv, 1);
    const ms = Date.now() - t0;
    expect(srv.requests).toBe(2);
    expect(vecs.map((v) => Array.from(v))).toEqual([
      [1, 2, 3],
      [2, 2, 3],
    ]);
    // 400 ms deadline + the retry's 500 ms backoff; far from the minutes a stalled body could hold it.
    expect(ms).toBeGreaterThanOrEqual(400);
    expect(ms).toBeLessThan(10_000);
  });

  it('every attempt stalls: one error saying the deadline passed, after all attempts', async () => {
    srv = await startFaultyServer(headersThenSilence);
    await expect(ask(srv, 1)).rejects.toMatchObject({
      code: 'LLM_REQUEST_FAILED',
      message: expect.stringMatching(/timeout after 2 attempts: no complete reply within 400 ms/),
    });
    expect(srv.requests).toBe(2);
  });
});
