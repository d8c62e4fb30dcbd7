/**
 * /v1/search and MCP `search` with rm3 say when the expansion gained no feedback term, as
 * `lexcase search --rm3 --json` does (rm3NoFeedback): on the filler corpus
 * (tests/support/rm3-filler-corpus.ts) the query "filler" finds only passages whose terms are each
 * in more than 10 % of the documents, so its RM3 hits are bm25's. Before, both surfaces returned
 * those hits as RM3's with no word. A query that gained terms carries no such field.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { startApiServer, type ApiServer } from '../../src/api/server.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { FILLER_PASSAGES } from '../../tests/support/rm3-filler-corpus.js';
import { openQueryService, type QueryService } from './query-service.js';

const tmp = tempDir('lexcase-rm3-nofb-surfaces-');
const dir = `${tmp.dir}/idx`;
let svc: QueryService;
let api: ApiServer;
let mcp: Client;

beforeAll(async () => {
  await buildIndex(fromArray(FILLER_PASSAGES.map((p) => ({ ...p, source: 'toy' }))), { out: dir, corpusName: 'toy', workers: 0 });
  const indexes = [{ name: 'toy', dir }];
  svc = await openQueryService({ indexes });
  api = await startApiServer(svc, { port: 0, indexes });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await createMcpServer(svc).connect(serverEnd);
  mcp = new Client({ name: 'rm3-no-feedback-test', version: '1' });
  await mcp.connect(clientEnd);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await api?.close();
  await svc?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

const postSearch = async (body: unknown) => {
  const res = await fetch(`${api.url}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};
const NOTE = /^the query gained no RM3 feedback term: every term of the feedback documents is in more than 10% of the documents/;

describe('rm3 search that gained no feedback term, on /v1 and MCP', () => {
  it('/v1/search: rm3NoFeedback, and the hits are bm25’s; a query that gained terms has none', async () => {
    const r = await postSearch({ query: 'filler', method: 'bm25', rm3: true, k: 5 });
    expect(r.status).toBe(200);
    expect(r.json.method).toBe('bm25+rm3');
    expect(r.json.rm3NoFeedback).toMatch(NOTE);
    const plain = await postSearch({ query: 'filler', method: 'bm25', k: 5 });
    expect(r.json.hits.map((h: { id: string }) => h.id)).toEqual(plain.json.hits.map((h: { id: string }) => h.id));
    expect(plain.json.rm3NoFeedback).toBeUndefined();
    const gained = await postSearch({ query: 'shared even', method: 'bm25', rm3: true, k: 5 });
    expect(gained.json.rm3NoFeedback).toBeUndefined();
  });

  it('MCP search: rm3NoFeedback in its structured content (checked against the output schema)', async () => {
    const r = (await mcp.callTool({ name: 'search', arguments: { query: 'filler', method: 'bm25', rm3: true, k: 5 } })) as {
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent?.method).toBe('bm25+rm3');
    expect(r.structuredContent?.rm3NoFeedback).toMatch(NOTE);
  });
});
