/**
 * `lexcase mcp --http` and a JSON-RPC batch whose requests share an id. The SDK's transport keeps
 * one reply per id, so before, of two requests with id 1 — a search for "hearsay" and one for
 * "contract" — one was run and answered and the other dropped without a word (one reply to a batch
 * of two, HTTP 200). Now such a batch is refused whole (400, JSON-RPC -32600 naming the id); a
 * batch whose ids differ gets one reply per request, each for its own query, and the server keeps
 * serving.
 *
 * Data: the legal-120 index (serve/query/test-support/legal-120.ts: 120 real passages of the FRE,
 * the Constitution and Arkansas cases), bm25; the MCP HTTP server runs in this process on 127.0.0.1.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { openQueryService, type QueryService } from '../../serve/query/query-service.js';
import { buildLegal120 } from '../../serve/query/test-support/legal-120.js';
import { startMcpHttp, type McpHttpServer } from './http.js';

const tmp = tempDir('lexcase-mcp-batch-');
let svc: QueryService;
let http: McpHttpServer;

beforeAll(async () => {
  const dir = join(tmp.dir, 'legal-120');
  await buildLegal120(dir, ['bm25']);
  svc = await openQueryService({ indexes: [{ name: 'legal', dir }] });
  http = await startMcpHttp(svc, { port: 0 });
}, 60_000);
afterAll(async () => {
  await http?.close();
  await svc?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

const searchCall = (id: number | string, query: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search', arguments: { query, k: 2 } },
});

const post = async (body: unknown) => {
  const res = await fetch(http.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
};

describe('mcp --http: a batch with a request id used twice', () => {
  it('is refused whole with -32600 naming the id, not answered for one request and silent on the other', async () => {
    const r = await post([searchCall(1, 'hearsay statement against interest'), searchCall(1, 'due process of law')]);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'request id 1 is used by more than one request in this batch: give each request its own id (nothing in the batch was run)',
      },
    });
  });

  it('a batch with distinct ids (1 and "1" are distinct) gets one reply per request, each for its own query; the server keeps serving', async () => {
    const queries = ['hearsay statement against interest', 'due process of law', 'search and seizure warrant'];
    const r = await post([searchCall(1, queries[0]), searchCall('1', queries[1]), searchCall(3, queries[2])]);
    expect(r.status).toBe(200);
    expect(r.json).toHaveLength(3);
    for (const [i, id] of [1, '1', 3].entries()) {
      const reply = r.json.find((m: { id: unknown }) => m.id === id);
      expect(reply.result.structuredContent.query).toBe(queries[i]);
      const alone = await svc.search({ query: queries[i], k: 2 });
      expect(reply.result.structuredContent.hits).toEqual(alone.hits);
    }
  });
});
