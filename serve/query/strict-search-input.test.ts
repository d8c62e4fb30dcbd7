/**
 * search refuses a field it does not take. searchInput and its `filters` were non-strict zod
 * objects, so a typo was dropped without a word: POST /v1/search {"query":"fee simple","filters":
 * {"source":["fre"]}} (for `sources`) answered 200 with unfiltered hits, {"kk":3} gave 10 hits, and
 * MCP did the same. Now each surface refuses it, naming the field and the fields taken: the query
 * service (INVALID_INPUT), /v1/search (400) and the MCP search tool (a tool error).
 *
 * Data: 120 passages of the bundled legal_corpus (Federal Rules of Evidence, the Constitution, an
 * Arkansas opinion), bm25; the service, the /v1 server and the MCP server run in-process.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { startApiServer, type ApiServer } from '../../src/api/server.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { openQueryService, type QueryService } from './query-service.js';

const tmp = tempDir('lexcase-strict-search-');
const dir = join(tmp.dir, 'legal-120');
const SOURCES = ['cap_arkansas_sample', 'fre', 'us_constitution'];
let svc: QueryService;
let api: ApiServer;
let mcp: Client;

beforeAll(async () => {
  const passages: Passage[] = [];
  const per = new Map<string, number>();
  for await (const p of loadPassages('legal_corpus')) {
    if (!SOURCES.includes(p.source) || (per.get(p.source) ?? 0) >= 40) continue;
    per.set(p.source, (per.get(p.source) ?? 0) + 1);
    passages.push(p);
  }
  await buildIndex(passages, { out: dir, methods: ['bm25'], workers: 0 });
  svc = await openQueryService({ indexes: [{ name: 'legal', dir }] });
  api = await startApiServer(svc, { port: 0, indexes: [{ name: 'legal', dir }] });
  const [client, server] = InMemoryTransport.createLinkedPair();
  await createMcpServer(svc).connect(server);
  mcp = new Client({ name: 'strict-search-test', version: '1' });
  await mcp.connect(client);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await api?.close();
  await svc?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

const TYPO_FILTER = { query: 'hearsay statement against interest', filters: { source: ['fre'] } };
const TYPO_K = { query: 'hearsay statement against interest', kk: 3 };
const FILTER_MSG = 'search: unknown field "filters.source"; did you mean "sources"? search takes filters.{sources}';
const K_MSG = 'search: unknown field "kk"; did you mean "k"? search takes {index, query, method, k, filters, rm3}';

const post = async (body: unknown) => {
  const res = await fetch(`${api.url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as { error?: { code: string; message: string }; hits?: unknown[] } };
};

describe('search refuses an unknown field instead of ignoring it', () => {
  it('the query service: filters.source (for sources) and kk (for k) are INVALID_INPUT naming the field', async () => {
    await expect(svc.search(TYPO_FILTER as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: FILTER_MSG, details: { field: 'filters.source' } });
    await expect(svc.search(TYPO_K as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: K_MSG, details: { field: 'kk' } });
  });

  it('POST /v1/search: 400 naming the field (was: 200 with unfiltered hits, or 10 hits for kk 3)', async () => {
    for (const [body, message] of [
      [TYPO_FILTER, FILTER_MSG],
      [TYPO_K, K_MSG],
    ] as const) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'INVALID_INPUT' });
      expect(r.json.error?.message).toContain(message);
    }
    const ok = await post({ query: 'hearsay statement against interest', k: 3, filters: { sources: ['fre'] } });
    expect(ok.status).toBe(200);
    expect(ok.json.hits).toHaveLength(3);
  });

  it('the MCP search tool: a tool error naming the field', async () => {
    for (const [args, field] of [
      [TYPO_FILTER, 'source'],
      [TYPO_K, 'kk'],
    ] as const) {
      const r = (await mcp.callTool({ name: 'search', arguments: args })) as { isError?: boolean; content: Array<{ text?: string }> };
      expect(r.isError).toBe(true);
      expect(r.content.map((c) => c.text ?? '').join('\n')).toContain(`"${field}"`);
    }
    const ok = (await mcp.callTool({ name: 'search', arguments: { query: 'hearsay statement against interest', k: 2, filters: { sources: ['fre'] } } })) as {
      isError?: boolean;
      structuredContent?: { hits: Array<{ source: string }> };
    };
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent?.hits.map((h) => h.source)).toEqual(['fre', 'fre']);
  });
});
