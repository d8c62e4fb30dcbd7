/**
 * Every query-service input refuses a field it does not take. searchInput and its `filters` were
 * non-strict zod objects, so a typo was dropped without a word: POST /v1/search {"query":"fee simple",
 * "filters":{"source":["fre"]}} (for `sources`) answered 200 with unfiltered hits, {"kk":3} gave 10
 * hits, and MCP did the same; explain, passage and evidence stayed so after search was made strict
 * ({"hypothesis":…,"kk":3} answered 200 with 5 passages, {"stance":…} typed "stanse" argued for
 * instead of against). Now each surface refuses it, naming the field and the fields taken: the query
 * service (INVALID_INPUT), /v1 (400) and the MCP tools (a tool error).
 *
 * Data: 120 passages of the bundled legal_corpus (Federal Rules of Evidence, the Constitution, an
 * Arkansas opinion), bm25; the service, the /v1 server and the MCP server run in-process.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../indexer/build-test-helpers.js';
import type { ApiServer } from '../../src/api/server.js';
import { type Legal120Surfaces, startLegal120Surfaces } from '../../src/mcp/test-support/legal-120-surfaces.js';
import type { QueryService } from './query-service.js';

const tmp = tempDir('lexcase-strict-search-');
const dir = join(tmp.dir, 'legal-120');
let svc: QueryService;
let api: ApiServer;
let mcp: Client;
let surfaces: Legal120Surfaces | undefined;

beforeAll(async () => {
  surfaces = await startLegal120Surfaces(dir, ['bm25'], 'strict-search-test');
  ({ svc, api, mcp } = surfaces);
}, 60_000);
afterAll(async () => {
  await surfaces?.close();
  tmp.cleanup();
});

const TYPO_FILTER = { query: 'hearsay statement against interest', filters: { source: ['fre'] } };
const TYPO_K = { query: 'hearsay statement against interest', kk: 3 };
const FILTER_MSG = 'search: unknown field "filters.source"; did you mean "sources"? search takes filters.{sources}';
const K_MSG = 'search: unknown field "kk"; did you mean "k"? search takes {index, query, method, k, filters, rm3}';

const send = async (path: string, body?: unknown) => {
  const res = await fetch(
    `${api.url}${path}`,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return { status: res.status, json: (await res.json()) as { error?: { code: string; message: string }; hits?: unknown[]; evidence?: unknown[] } };
};
const post = (body: unknown) => send('/v1/search', body);
const toolText = (r: unknown) => (r as { content: Array<{ text?: string }> }).content.map((c) => c.text ?? '').join('\n');

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
      const r = await mcp.callTool({ name: 'search', arguments: args });
      expect(r.isError).toBe(true);
      expect(toolText(r)).toContain(`"${field}"`);
    }
    const ok = (await mcp.callTool({ name: 'search', arguments: { query: 'hearsay statement against interest', k: 2, filters: { sources: ['fre'] } } })) as {
      isError?: boolean;
      structuredContent?: { hits: Array<{ source: string }> };
    };
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent?.hits.map((h) => h.source)).toEqual(['fre', 'fre']);
  });
});

describe('explain, passage and evidence refuse an unknown field instead of answering with defaults', () => {
  const Q = 'hearsay statement against interest';
  let id: string;
  beforeAll(async () => {
    id = (await svc.search({ query: Q, k: 1 })).hits[0].id;
  });
  const EXPLAIN = () => ({ quey: Q, id });
  const EXPLAIN_MSG = 'explain: unknown field "quey"; did you mean "query"? explain takes {index, query, method, id, rm3}';
  const EVIDENCE = { hypothesis: 'a statement against interest is admissible hearsay', kk: 3 };
  const EVIDENCE_MSG = 'find_evidence: unknown field "kk"; did you mean "k"? find_evidence takes {index, hypothesis, facts, stance, k, mode}';
  const PASSAGE_MSG = 'get_passage: unknown field "indx"; did you mean "index"? get_passage takes {index, id}';

  it('the query service: INVALID_INPUT naming the field and the fields taken', async () => {
    await expect(svc.explain(EXPLAIN() as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: EXPLAIN_MSG, details: { field: 'quey' } });
    await expect(svc.findEvidence(EVIDENCE as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: EVIDENCE_MSG, details: { field: 'kk' } });
    await expect(svc.getPassage({ id, indx: 'legal' } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: PASSAGE_MSG });
  });

  it('/v1/explain, /v1/evidence and GET /v1/passage: 400 naming the field (was: 200 with the defaults)', async () => {
    for (const [path, body, message] of [
      ['/v1/explain', EXPLAIN(), EXPLAIN_MSG],
      ['/v1/evidence', EVIDENCE, EVIDENCE_MSG],
      [`/v1/passage?id=${encodeURIComponent(id)}&indx=legal`, undefined, PASSAGE_MSG],
    ] as const) {
      const r = await send(path, body);
      expect(r.status, path).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'INVALID_INPUT', message });
    }
    const ok = await send('/v1/evidence', { hypothesis: EVIDENCE.hypothesis, k: 3 });
    expect(ok.status).toBe(200);
    expect(ok.json.evidence).toHaveLength(3);
  });

  it('the MCP explain, get_passage, find_evidence and list_indexes tools: a tool error naming the field', async () => {
    for (const [name, args, field] of [
      ['explain', EXPLAIN(), 'quey'],
      ['find_evidence', EVIDENCE, 'kk'],
      ['get_passage', { id, indx: 'legal' }, 'indx'],
      ['list_indexes', { verbose: true }, 'verbose'],
    ] as const) {
      const r = await mcp.callTool({ name, arguments: args });
      expect(r.isError, name).toBe(true);
      expect(toolText(r)).toContain(`"${field}"`);
    }
    expect((await mcp.callTool({ name: 'list_indexes', arguments: {} })).isError).toBeFalsy();
  });
});
