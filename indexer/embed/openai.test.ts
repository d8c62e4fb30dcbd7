import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEmbedder } from './create-embedder.js';

/** A tiny OpenAI-compatible /v1/embeddings server: deterministic 8-dim vectors from character codes. */
const calls: { auth?: string; body: { model: string; input: string[] } }[] = [];
const vectorFor = (s: string) => Array.from({ length: 8 }, (_, j) => [...s].reduce((a, c, i) => a + ((c.charCodeAt(0) * (i + 1) * (j + 3)) % 17), 0) + 1);
let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw);
      const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
      calls.push({ auth: req.headers.authorization, body: { model: body.model, input } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('openai-compatible embedder against a local server', () => {
  it('embeds in batches, normalises, adds e5 prefixes, and keeps the key out of logs', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    calls.length = 0;
    const key = 'sk-test-secret-key-123456';
    const emb = await createEmbedder({ provider: 'openai', baseURL, model: 'intfloat/e5-small-v2', apiKey: key, batchSize: 2 });
    expect(emb.dimension).toBe(8);
    expect(emb.id).toBe('openai:intfloat/e5-small-v2');
    const texts = ['hearsay rule', 'adverse possession', 'mens rea'];
    const progress: number[] = [];
    const vecs = await emb.embed(texts, { kind: 'passage', onProgress: (n) => progress.push(n) });
    expect(progress).toEqual([2, 3]);
    const sent = calls.slice(1).flatMap((c) => c.body.input);
    expect(sent).toEqual(texts.map((t) => `passage: ${t}`));
    expect(calls[1].auth).toBe(`Bearer ${key}`);
    vecs.forEach((v, i) => {
      const want = vectorFor(`passage: ${texts[i]}`);
      const n = Math.hypot(...want);
      want.forEach((x, j) => expect(v[j]).toBeCloseTo(x / n, 6));
    });
    const [q] = await emb.embed(['mens rea'], { kind: 'query' });
    expect(calls.at(-1)!.body.input).toEqual(['query: mens rea']);
    expect(q).toHaveLength(8);
    const { log } = await import('../../core/log.js');
    log.warn(`using key ${key}`);
    const printed = stderr.mock.calls.map((c) => String(c[0])).join('');
    stderr.mockRestore();
    expect(printed).not.toContain(key);
  });

  it('reads the endpoint and model from the environment and fails clearly without a model', async () => {
    vi.stubEnv('LEXCASE_EMBED_BASE_URL', baseURL);
    vi.stubEnv('LEXCASE_EMBED_MODEL', 'nomic-embed-text');
    try {
      const emb = await createEmbedder({ provider: 'openai' });
      expect(emb.model).toBe('nomic-embed-text');
      await emb.embed(['x'], { kind: 'query' });
      expect(calls.at(-1)!.body.input).toEqual(['search_query: x']);
      vi.stubEnv('LEXCASE_EMBED_MODEL', '');
      await expect(createEmbedder({ provider: 'openai' })).rejects.toMatchObject({
        code: 'EMBEDDER_UNAVAILABLE',
        message: expect.stringContaining('LEXCASE_EMBED_MODEL'),
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reports an unreachable endpoint as EMBEDDER_UNAVAILABLE', async () => {
    await expect(createEmbedder({ provider: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'k-0000', maxRetries: 0 })).rejects.toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
    });
  });

  it('reads base64 vectors from a server that honours encoding_format, and falls back to float for one that rejects it', async () => {
    const seen: string[] = [];
    const mk = (mode: 'base64' | 'reject') =>
      createServer((req, res) => {
        let raw = '';
        req.on('data', (d) => (raw += d));
        req.on('end', () => {
          const body = JSON.parse(raw) as { input: string[]; encoding_format?: string };
          seen.push(`${mode}:${body.encoding_format}`);
          if (mode === 'reject' && body.encoding_format === 'base64') {
            res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"encoding_format base64 is not supported"}}');
            return;
          }
          const enc = (t: string) =>
            body.encoding_format === 'base64' ? Buffer.from(Float32Array.from(vectorFor(t)).buffer).toString('base64') : vectorFor(t);
          // Out of order on purpose: the client must place each vector by its index.
          const data = body.input.map((t, index) => ({ object: 'embedding', index, embedding: enc(t) })).reverse();
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
        });
      });
    for (const mode of ['base64', 'reject'] as const) {
      const srv = mk(mode);
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
      try {
        const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1/`;
        const emb = await createEmbedder({ provider: 'openai', baseURL: url, model: 'm', apiKey: 'k-0000', batchSize: 2, concurrency: 2 });
        const texts = ['hearsay rule', 'adverse possession', 'mens rea', 'res judicata', 'estoppel'];
        const vecs = await emb.embed(texts, { kind: 'passage' });
        vecs.forEach((v, i) => {
          const want = vectorFor(texts[i]);
          const n = Math.hypot(...want);
          want.forEach((x, j) => expect(v[j]).toBeCloseTo(x / n, 6));
        });
      } finally {
        await new Promise<void>((r) => srv.close(() => r()));
      }
    }
    expect(seen.filter((s) => s.startsWith('base64:')).every((s) => s === 'base64:base64')).toBe(true);
    // The rejecting server is asked for base64 once (the dimension probe), then float for good.
    expect(seen.filter((s) => s.startsWith('reject:'))).toEqual(['reject:base64', 'reject:float', 'reject:float', 'reject:float', 'reject:float']);
  });

  it('fails with one clear error naming the server and its status after retries, and on a malformed reply', async () => {
    let hits = 0;
    let mode: 'error' | 'short' = 'error';
    const srv = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hits++;
        if (mode === 'error') res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"error":"overloaded"}');
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"index":0,"embedding":[1,2]}]}');
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
      await expect(
        createEmbedder({ provider: 'openai', baseURL: url, model: 'm', apiKey: 'k-0000', maxRetries: 1, dimensions: 2 }).then((e) =>
          e.embed(['a'], { kind: 'passage' }),
        ),
      ).rejects.toMatchObject({
        code: 'EMBEDDER_UNAVAILABLE',
        message: expect.stringMatching(
          /embedding request to http:\/\/127\.0\.0\.1:\d+\/v1 failed: HTTP 503 after 2 attempts: HTTP 503: \{"error":"overloaded"\}/,
        ),
      });
      expect(hits).toBe(2);
      mode = 'short';
      const emb = await createEmbedder({ provider: 'openai', baseURL: url, model: 'm', apiKey: 'k-0000', maxRetries: 0, dimensions: 2 });
      await expect(emb.embed(['a', 'b'], { kind: 'passage' })).rejects.toMatchObject({
        code: 'EMBEDDER_UNAVAILABLE',
        message: expect.stringContaining('1 embeddings for 2 inputs'),
      });
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
