/**
 * A query service (`serve`, `mcp`, the explorer) over an index whose dense vectors came from an
 * OpenAI-compatible endpoint that now refuses the key: before, dense (and hybrid) were left out
 * without a word and a dense search answered `method "dense" is not in index "fre" (available:
 * bm25)` — as if the index had no dense vectors. Now the server warns at start naming the method and
 * the endpoint's answer, and a dense search says why the method is not offered.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import { openQueryService } from './query-service.js';

const KEY = 'sk-rotated-away-4711';
let refuse = false;
let server: Server;
let base: string;
const tmp = mkdtempSync(join(tmpdir(), 'lexcase-dense-down-'));
const PASSAGES: Passage[] = Array.from({ length: 8 }, (_, i) => ({
  id: `fre${800 + i}`,
  text: `Rule ${800 + i}: hearsay exception ${i}, a statement against interest`,
  source: 'fre',
}));

beforeAll(async () => {
  // answers /v1/embeddings with 4-dim vectors, until it refuses every key with a 401
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (refuse) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"invalid api key"}}');
      const input: string[] = JSON.parse(raw).input;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: [1, t.length % 7, (t.charCodeAt(0) % 5) + 1, 2] })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(tmp, { recursive: true, force: true });
});

describe('a query service over a dense index whose embedding endpoint refuses the key', () => {
  it('warns at start and a dense search says why dense is not offered, not "not in index"', async () => {
    const dir = join(tmp, 'fre');
    await buildIndex(
      (async function* () {
        yield* PASSAGES;
      })(),
      { out: dir, corpusName: 'fre', methods: ['bm25'], workers: 0 },
    );
    await addDenseIndex(dir, { embedder: { provider: 'openai', baseURL: base, model: 'e5-small', apiKey: KEY, maxRetries: 0 } });
    refuse = true;
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const svc = await openQueryService({ indexes: [{ name: 'fre', dir }] });
    try {
      const warned = warn.mock.calls.map((c) => String(c[0]));
      expect(warned).toEqual([expect.stringMatching(/^index fre: method dense is not offered: embedding request to .* failed: HTTP 401: .*invalid api key/)]);
      expect(svc.listIndexes().indexes[0].methods).toEqual(['bm25']);
      const e = await svc.search({ query: 'hearsay exception', method: 'dense', k: 3 }).catch((x: Error) => x);
      expect(e).toMatchObject({ code: 'METHOD_UNAVAILABLE' });
      expect((e as Error).message).toMatch(/^method "dense" of index "fre" could not be opened when this server started: embedding request .* HTTP 401/);
      expect((e as Error).message).not.toContain('is not in index');
    } finally {
      warn.mockRestore();
      await svc.close();
    }
  });
});
