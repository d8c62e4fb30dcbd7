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

  it('a 413 (Payload Too Large) names the status once and hints a smaller --embed-batch (half the refused request), or --max-words for one text', async () => {
    // a server whose request size limit admits 8 passages (as text-embeddings-inference's --max-client-batch-size or a proxy's body limit)
    const sizes: number[] = [];
    const srv = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        const input: string[] = JSON.parse(raw).input;
        sizes.push(input.length);
        if (input.length > 8) res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":{"message":"Request Entity Too Large"}}');
        else
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: vectorFor(t) })) }));
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
      const emb = await createEmbedder({ provider: 'openai', baseURL: url, model: 'm', apiKey: 'k-0000', maxRetries: 2 });
      const texts = Array.from({ length: 40 }, (_, i) => `passage ${i} on the parol evidence rule`);
      const err = await emb.embed(texts, { kind: 'passage' }).then(
        () => undefined,
        (e: Error & { code?: string; details?: { hint?: string } }) => e,
      );
      // before: "failed: HTTP 413: HTTP 413: {…}" and no hint
      expect(err?.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(err?.message.match(/HTTP 413/g)).toHaveLength(1);
      expect(err?.message.split('\n')[0]).toMatch(
        /^embedding request to http:\/\/127\.0\.0\.1:\d+\/v1 failed: HTTP 413: \{"error":\{"message":"Request Entity Too Large"\}\}$/,
      );
      expect(err?.details?.hint).toBe(
        'the endpoint refused a request of 40 passages as too large: pass a smaller --embed-batch, e.g. --embed-batch 20 (a request holds at most --embed-batch and 64 passages), or fewer words of each with --max-words',
      );
      // not retried: the same request would be refused again
      expect(sizes).toEqual([1, 40]);
      // one text too large for the endpoint: --max-words
      const one = await createEmbedder({ provider: 'openai', baseURL: url, model: 'm', apiKey: 'k-0000', batchSize: 1, dimensions: 8 });
      srv.removeAllListeners('request');
      srv.on('request', (req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(413).end());
      });
      await expect(one.embed(['a very long passage'], { kind: 'passage' })).rejects.toMatchObject({
        message: expect.stringMatching(/failed: HTTP 413: \(empty body\)\n/),
        details: { hint: expect.stringContaining('--max-words') },
      });
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
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
        message: expect.stringMatching(/embedding request to http:\/\/127\.0\.0\.1:\d+\/v1 failed: HTTP 503 after 2 attempts: \{"error":"overloaded"\}$/),
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

/**
 * A server answering each input with `reply(texts)`'s data (its own vectors, order and fields), the
 * dimension probe (input "dimension") with a plain vector.
 */
async function quirkServer(reply: (texts: string[]) => unknown[]): Promise<{ url: string; close(): Promise<void> }> {
  const srv = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const input: string[] = JSON.parse(raw).input;
      const data = input.length === 1 && input[0] === 'dimension' ? [{ index: 0, embedding: [1, 2, 3] }] : reply(input);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((r) => srv.close(() => r())),
  };
}

describe('openai embedder: vectors a server gets wrong', () => {
  const texts = ['hearsay is an out-of-court statement', 'an easement runs with the land', 'consideration is a bargained-for exchange'];
  const good = (t: string) => [t.length, 1, 2];

  it('refuses a null, NaN or infinite component and an all-zero vector, naming the input, instead of ranking by it', async () => {
    const cases: Array<[string, (texts: string[]) => unknown[], RegExp]> = [
      // JSON floats: null became 0 (Float32Array.from), a silently different vector
      [
        'null',
        (ts) => ts.map((t, index) => ({ index, embedding: index === 1 ? [null, 1, 2] : good(t) })),
        /data\[1\]\.embedding\[0\] is null, not a number \(input "an easement runs with the land"\)/,
      ],
      // base64 float32: NaN reached the ranking (every score NaN: recall by chance)
      [
        'NaN',
        (ts) =>
          ts.map((t, index) => ({ index, embedding: Buffer.from(Float32Array.from(index === 2 ? [1, Number.NaN, 2] : good(t)).buffer).toString('base64') })),
        /data\[2\]\.embedding\[1\] is NaN \(input "consideration is a bargained-for exchange"\)/,
      ],
      [
        'Infinity',
        (ts) =>
          ts.map((t, index) => ({ index, embedding: Buffer.from(Float32Array.from(index === 0 ? [Infinity, 0, 0] : good(t)).buffer).toString('base64') })),
        /data\[0\]\.embedding\[0\] is Infinity/,
      ],
      // an empty vector: LanceDB's raw schema error before, naming no input
      [
        'empty',
        (ts) => ts.map((t, index) => ({ index, embedding: index === 2 ? [] : good(t) })),
        /data\[2\]\.embedding is empty \(input "consideration is a bargained-for exchange"\)/,
      ],
      // all zeros: cosine 0 with every query, ranked among the real scores
      [
        'zero',
        (ts) => ts.map((t, index) => ({ index, embedding: index === 1 ? [0, 0, 0] : good(t) })),
        /data\[1\]\.embedding is all zeros \(no direction to rank by\) \(input "an easement runs with the land"\)/,
      ],
    ];
    for (const [name, reply, message] of cases) {
      const srv = await quirkServer(reply);
      try {
        const emb = await createEmbedder({ provider: 'openai', baseURL: srv.url, model: 'm', apiKey: 'k-0000', maxRetries: 0 });
        await expect(emb.embed(texts, { kind: 'passage' }), name).rejects.toMatchObject({
          code: 'EMBEDDER_UNAVAILABLE',
          message: expect.stringMatching(message),
        });
      } finally {
        await srv.close();
      }
    }
  });

  it('refuses a vector of another dimension with DIMENSION_MISMATCH naming its input (index and start of the text)', async () => {
    // the reply's vectors matched to inputs by index (given in reverse), input 1's of 2 components instead of 3
    const srv = await quirkServer((ts) => ts.map((t, index) => ({ index, embedding: index === 1 ? [1, 2] : good(t) })).reverse());
    try {
      const emb = await createEmbedder({ provider: 'openai', baseURL: srv.url, model: 'm', apiKey: 'k-0000', maxRetries: 0 });
      await expect(emb.embed(texts, { kind: 'passage' })).rejects.toMatchObject({
        code: 'DIMENSION_MISMATCH',
        message: 'openai embedder m, the vector for input 1 of 3 (input "an easement runs with the land"): vector dimension 2 does not match the index (3)',
      });
    } finally {
      await srv.close();
    }
  });

  it('matches vectors to inputs by their index field, and warns once when a reply has none (vectors then taken in order)', async () => {
    const { log } = await import('../../core/log.js');
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const reversed = await quirkServer((ts) => ts.map((t, index) => ({ index, embedding: good(t) })).reverse());
    const unindexed = await quirkServer((ts) => ts.map((t) => ({ embedding: good(t) })));
    try {
      const byIndex = await createEmbedder({ provider: 'openai', baseURL: reversed.url, model: 'm', apiKey: 'k-0000' });
      const v = await byIndex.embed(texts, { kind: 'passage' });
      v.forEach((x, i) => expect(x[0] / x[1]).toBeCloseTo(texts[i].length, 4));
      expect(warn).not.toHaveBeenCalled();
      const inOrder = await createEmbedder({ provider: 'openai', baseURL: unindexed.url, model: 'm', apiKey: 'k-0000' });
      const w = await inOrder.embed([...texts, ...texts], { kind: 'passage' });
      w.forEach((x, i) => expect(x[0] / x[1]).toBeCloseTo(texts[i % 3].length, 4));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/its reply has no "index" field on each vector; vectors are taken in the order they came/);
    } finally {
      warn.mockRestore();
      await reversed.close();
      await unindexed.close();
    }
  });
});

describe('openai embedder: index fields a server gets wrong', () => {
  const texts = ['hearsay is an out-of-court statement', 'an easement runs with the land', 'consideration is a bargained-for exchange'];
  const good = (t: string) => [t.length, 1, 2];

  it('refuses an index that is a string or a fraction, or present on some vectors only, instead of placing vectors by arrival order', async () => {
    const { log } = await import('../../core/log.js');
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const cases: Array<[string, (texts: string[]) => unknown[], RegExp]> = [
      // indexes as strings, reversed: taken as "no index field", so each passage got another's vector
      ['string', (ts) => ts.map((t, index) => ({ index: String(index), embedding: good(t) })).reverse(), /data\[0\]\.index is "2", not an integer/],
      // a fractional index left a hole: "Cannot read properties of undefined"
      ['fraction', (ts) => ts.map((t, index) => ({ index: index === 0 ? 0.5 : index, embedding: good(t) })), /data\[0\]\.index is 0\.5, not an integer/],
      // one vector without its index: taken at its position, whatever the others say
      [
        'some',
        (ts) => [{ index: 2, embedding: good(ts[2]) }, { embedding: good(ts[0]) }, { index: 1, embedding: good(ts[1]) }],
        /data\[1\] has no "index" field, 2 of the 3 vectors have one/,
      ],
    ];
    try {
      for (const [name, reply, message] of cases) {
        const srv = await quirkServer(reply);
        try {
          const emb = await createEmbedder({ provider: 'openai', baseURL: srv.url, model: 'm', apiKey: 'k-0000', maxRetries: 0 });
          await expect(emb.embed(texts, { kind: 'passage' }), name).rejects.toMatchObject({
            code: 'EMBEDDER_UNAVAILABLE',
            message: expect.stringMatching(message),
          });
        } finally {
          await srv.close();
        }
      }
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe('openai embedder: the model a server says it used', () => {
  it('warns once when the reply names another model than the one asked for (the index records the one asked for)', async () => {
    const { log } = await import('../../core/log.js');
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const srv = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        const input: string[] = JSON.parse(raw).input;
        // LM Studio-like: answers with the model it has loaded, whatever was asked
        const data = input.map((t, index) => ({ index, embedding: [t.length, 1, 2] }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: 'nomic-embed-text-v1.5', data }));
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
      const emb = await createEmbedder({ provider: 'openai', baseURL: url, model: 'bge-m3', apiKey: 'k-0000' });
      await emb.embed(['hearsay', 'easement'], { kind: 'passage' });
      await emb.embed(['mens rea'], { kind: 'query' });
      expect(emb.id).toBe('openai:bge-m3');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/asked for model "bge-m3", its reply names "nomic-embed-text-v1\.5"; lexcase records "bge-m3"/);
    } finally {
      warn.mockRestore();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
