/**
 * `lexcase mcp` as a user's MCP client meets it: the BUILT CLI in a child process, driven by the
 * official SDK's own Client over stdio and over streamable HTTP, against the bundled default index
 * (retrieval/default-index.ts, built here the way `lexcase mcp` builds it on first use). Every tool
 * is listed and called, and its structured result is checked against the library: the query
 * service in this process, and below it the retriever, the doc store and agents' findEvidence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEvidence } from '../../agents/case/find-evidence.js';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { DEFAULT_INDEX_DIR, ensureDefaultIndex } from '../../retrieval/default-index.js';
import { openIndex, type OpenedIndex } from '../../retrieval/open-index.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { openQueryService, type QueryService } from '../../serve/query/query-service.js';
import { SNIPPET_CHARS } from '../../serve/query/schemas.js';
import { httpMcpClient, runBuiltCli, startServerChild, stdioMcp, type ServerChild, type StdioMcp } from './test-support/children.js';
import { MCP_TOOLS, RESOURCE_NOT_FOUND } from './server.js';

let root: string;
let defaultIdx: string;
let tinyIdx: string;
let svc: QueryService;
let ix: OpenedIndex;

const HYPOTHESIS = "A statement against the declarant's own interest is admissible hearsay";
const QUERIES = [
  'hearsay statement against interest',
  'adverse possession of land under claim of right',
  'consideration for a promise to make a gift',
  'search incident to a lawful arrest',
  'strict liability for abnormally dangerous activities',
];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-mcp-'));
  // where `lexcase mcp` without --index looks, relative to its working directory
  defaultIdx = await ensureDefaultIndex(join(root, DEFAULT_INDEX_DIR));
  tinyIdx = join(root, 'tiny');
  const passages: Passage[] = [];
  for await (const p of loadPassages('legal_corpus')) if (passages.push(p) >= 300) break;
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: tinyIdx, corpusName: 'tiny', workers: 0 },
  );
  svc = await openQueryService({ indexes: [{ name: 'default', dir: defaultIdx }] });
  ix = await openIndex(defaultIdx);
}, 180_000);

afterAll(async () => {
  await svc?.close();
  await ix?.close();
  rmSync(root, { recursive: true, force: true });
});

type Structured = Record<string, any>;
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  // the text content is the same JSON, for clients that ignore structuredContent
  expect(JSON.parse((r.content as { type: string; text: string }[])[0].text)).toEqual(r.structuredContent);
  return r.structuredContent as Structured;
}

async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, JSON.stringify(r)).toBe(true);
  return (r.content as { text: string }[]).map((c) => c.text).join('\n');
}

/** Every tool called once; each result equal to the library's for the same input. */
async function checkEveryTool(client: Client, index?: string) {
  const named = index ? { index } : {};
  const tools = await client.listTools();
  expect(tools.tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
  for (const t of tools.tools) {
    expect(t.inputSchema.type).toBe('object');
    expect(t.outputSchema?.type, t.name).toBe('object');
    expect(t.description?.length, t.name).toBeGreaterThan(20);
  }
  const search = tools.tools.find((t) => t.name === 'search')!;
  expect(search.inputSchema.required).toEqual(['query']);
  expect((search.inputSchema.properties as any).query.description).toMatch(/query/);

  const list = await call(client, 'list_indexes', {});
  expect(list.indexes.find((x: any) => x.name === (index ?? 'default'))).toMatchObject({
    corpus: 'default',
    passages: ix.docs.size,
    methods: ['bm25', 'qld'],
    explainable: ['bm25', 'qld'],
  });
  expect(list.llm).toBe(false);

  const query = QUERIES[0];
  const hits = await call(client, 'search', { ...named, query, method: 'qld', k: 5 });
  expect(hits).toEqual({ ...(await svc.search({ query, method: 'qld', k: 5 })), index: index ?? 'default' });
  const lib = await (await ix.retriever('qld')).search(query, { k: 5 });
  expect(hits.hits.map((h: any) => [h.id, h.score, h.rank])).toEqual(lib.map((h) => [h.id, h.score, h.rank]));
  for (const h of hits.hits) {
    const p = (await ix.docs.get(h.id))!;
    expect(h.snippet).toBe(p.text.slice(0, SNIPPET_CHARS));
    expect(h.source).toBe(p.source);
  }

  const id = hits.hits[0].id;
  const ex = await call(client, 'explain', { ...named, query, method: 'qld', id });
  const libEx = await (await ix.retriever('qld')).explain!(query, id);
  expect(ex.terms).toEqual(libEx.terms);
  expect(ex.score).toBeCloseTo(hits.hits[0].score, 9);
  expect(ex.terms.reduce((s: number, t: any) => s + t.score, ex.base ?? 0)).toBeCloseTo(ex.score, 9);

  const p = await call(client, 'get_passage', { ...named, id });
  expect(p.text).toBe((await ix.docs.get(id))!.text);
  expect(p.uri).toBe(hits.hits[0].uri);

  const ev = await call(client, 'find_evidence', { ...named, hypothesis: HYPOTHESIS, k: 3 });
  const libEv = await findEvidence({ index: defaultIdx, hypothesis: HYPOTHESIS, k: 3 });
  expect(ev.mode).toBe('offline heuristic, no LLM');
  expect(ev.evidence.map((e: any) => [e.id, e.score, e.justification])).toEqual(libEv.evidence.map((e) => [e.id, e.score, e.justification]));
  expect(ev.toolCalls.map((c: any) => [c.tool, c.query, c.ids])).toEqual(libEv.toolCalls.map((c) => [c.tool, c.query, c.ids]));
  return { hits, ev };
}

/** Bad arguments are tool errors naming the field; the server goes on answering. */
async function checkBadArguments(client: Client) {
  const empty = await callError(client, 'search', { query: '   ', k: 0 });
  expect(empty).toMatch(/query/);
  expect(empty).toMatch(/\bk\b/);
  expect(await callError(client, 'search', { query: 'x', k: 'ten' })).toMatch(/\bk\b/);
  expect(await callError(client, 'search', {})).toMatch(/query/);
  expect(await callError(client, 'search', { query: 'hearsay', method: 'dense' })).toMatch(/method "dense" is not in index "default" \(available: bm25, qld\)/);
  expect(await callError(client, 'search', { query: 'hearsay', method: 'bm26' })).toMatch(
    /method "bm26" is not a lexcase retrieval method\n {2}hint: did you mean "bm25"\? known methods: bm25, qld, wink, dense, hybrid, lancedb-fts; index "default" has: bm25, qld/,
  );
  expect(await callError(client, 'search', { query: 'hearsay', index: 'nope' })).toMatch(/no index named "nope"/);
  expect(await callError(client, 'explain', { query: 'hearsay', id: 'no-such-passage' })).toMatch(/no passage "no-such-passage"/);
  expect(await callError(client, 'get_passage', { id: 'no-such-passage' })).toMatch(/no passage "no-such-passage" in index "default"/);
  expect(await callError(client, 'find_evidence', { hypothesis: 'x', mode: 'llm' })).toMatch(/no LLM is configured/);
  expect(await callError(client, 'find_evidence', { hypothesis: 'x', stance: 'neutral' })).toMatch(/stance/);
  expect(await callError(client, 'no_such_tool', {})).toMatch(/no_such_tool/);
  // still serving
  expect((await call(client, 'search', { query: QUERIES[1], k: 1 })).hits).toHaveLength(1);
}

describe('lexcase mcp over stdio (the built CLI, no --index: the bundled default index)', () => {
  let m: StdioMcp;
  beforeAll(async () => {
    m = await stdioMcp([], { cwd: root });
  }, 120_000);
  afterAll(async () => {
    await m?.close();
  });

  it("lists the five tools with schemas and calls each; results equal the library's", async () => {
    expect(m.client.getServerVersion()?.name).toBe('lexcase');
    expect(m.client.getInstructions()).toMatch(/list_indexes/);
    await checkEveryTool(m.client);
    expect(m.stderr()).toMatch(/lexcase MCP server on stdio: default/);
  });

  it('search filters: the top k among passages of the given sources, with their unfiltered scores', async () => {
    const r = await call(m.client, 'search', { query: QUERIES[0], k: 4, filters: { sources: ['fre'] } });
    expect(r.hits).toHaveLength(4);
    const all = await (await ix.retriever('bm25')).search(QUERIES[0], { k: ix.docs.size });
    const fre: { id: string; score: number }[] = [];
    for (const h of all) if ((await ix.docs.get(h.id))?.source === 'fre' && fre.length < 4) fre.push(h);
    expect(r.hits.map((h: any) => [h.id, h.score, h.source])).toEqual(fre.map((h) => [h.id, h.score, 'fre']));
    expect(r.hits.map((h: any) => h.rank)).toEqual([1, 2, 3, 4]);
    expect(await callError(m.client, 'search', { query: QUERIES[0], k: 4, filters: { sources: ['no-such-source'] } })).toMatch(
      /"no-such-source" is not a source of this index; its sources: .*\bfre\b/,
    );
  });

  it('bad arguments get MCP tool errors naming the field, not a crash', async () => {
    await checkBadArguments(m.client);
  });

  it('passages are resources lexcase://INDEX/passage/ID; an unknown one is a JSON-RPC "resource not found"', async () => {
    const templates = await m.client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['lexcase://{index}/passage/{id}']);
    const hit = (await call(m.client, 'search', { query: 'hearsay within hearsay', k: 1, filters: { sources: ['fre'] } })).hits[0];
    expect(hit.id).toContain('#'); // "fre-805#p0": the id is percent-encoded in the URI
    expect(hit.uri).toBe(`lexcase://default/passage/${encodeURIComponent(hit.id)}`);
    const res = await m.client.readResource({ uri: hit.uri });
    expect(res.contents).toEqual([{ uri: hit.uri, mimeType: 'text/plain', text: (await ix.docs.get(hit.id))!.text }]);
    await expect(m.client.readResource({ uri: 'lexcase://default/passage/no-such-passage' })).rejects.toMatchObject({
      code: RESOURCE_NOT_FOUND,
      message: expect.stringMatching(/no passage "no-such-passage"/),
    });
    await expect(m.client.readResource({ uri: `lexcase://other/passage/${encodeURIComponent(hit.id)}` })).rejects.toMatchObject({ code: RESOURCE_NOT_FOUND });
    // search results link their passages as resource_link content
    const r = await m.client.callTool({ name: 'search', arguments: { query: 'hearsay', k: 2 } });
    expect((r.content as any[]).filter((c) => c.type === 'resource_link').map((c) => c.uri)).toEqual((r.structuredContent as any).hits.map((h: any) => h.uri));
  });
});

describe('lexcase mcp --http (streamable HTTP on 127.0.0.1)', () => {
  let s: ServerChild;
  let client: Client;
  beforeAll(async () => {
    s = await startServerChild(['mcp', '--http', '--port', '0', '--index', `default=${defaultIdx}`, '--index', tinyIdx]);
    client = await httpMcpClient(s.info.url);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    expect(await s?.stop()).toBe(0);
  });

  it('binds 127.0.0.1, serves two indexes, and answers every tool as the library does', async () => {
    expect(s.info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(s.info.indexes).toEqual(['default', 'tiny']);
    await checkEveryTool(client, 'default');
    const tiny = await call(client, 'search', { index: 'tiny', query: 'court', k: 3 });
    expect(tiny.index).toBe('tiny');
    expect(tiny.hits[0].uri).toMatch(/^lexcase:\/\/tiny\/passage\//);
  });

  it('bad arguments get MCP tool errors naming the field, not a crash', async () => {
    await checkBadArguments(client);
  });

  it('50 concurrent calls return what the same calls return one at a time', async () => {
    const ids = (await call(client, 'search', { query: QUERIES[0], k: 10 })).hits.map((h: any) => h.id);
    const calls: [string, Record<string, unknown>][] = [];
    for (let i = 0; i < 50; i++) {
      const q = QUERIES[Math.floor(i / 5) % QUERIES.length];
      const id = ids[Math.floor(i / 5) % ids.length];
      const kind = i % 5;
      if (kind === 0) calls.push(['search', { query: q, method: 'bm25', k: 10 }]);
      else if (kind === 1) calls.push(['search', { query: q, method: 'qld', k: 7, filters: i % 2 ? { sources: ['barexam_qa', 'fre'] } : undefined }]);
      else if (kind === 2) calls.push(['explain', { query: q, method: i % 2 ? 'qld' : 'bm25', id }]);
      else if (kind === 3) calls.push(['get_passage', { id }]);
      else
        calls.push([
          'find_evidence',
          { hypothesis: `${q} is the rule`, k: 3, facts: i % 2 ? 'The defendant made the statement to a friend.' : '', stance: i % 2 ? 'against' : 'for' },
        ]);
    }
    const serial: Structured[] = [];
    for (const [name, args] of calls) serial.push(await call(client, name, args));
    const concurrent = await Promise.all(calls.map(([name, args]) => call(client, name, args)));
    expect(concurrent).toEqual(serial);
    expect(new Set(serial.map((x) => JSON.stringify(x))).size).toBeGreaterThan(30);
  }, 180_000);

  it('refuses a foreign Host (DNS rebinding), a GET and a body that is not JSON, and keeps serving', async () => {
    const u = new URL(s.info.url);
    const post = (headers: Record<string, string>, body: string) =>
      fetch(s.info.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    const { request } = await import('node:http');
    const foreign = await new Promise<number>((r, j) => {
      const req = request(
        { host: u.hostname, port: u.port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${u.port}`, 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          r(res.statusCode ?? 0);
        },
      );
      req.on('error', j);
      req.end('{}');
    });
    expect(foreign).toBe(403);
    expect((await fetch(s.info.url)).status).toBe(405);
    const bad = await post({}, '{"jsonrpc": "2.0", "method":');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe(-32700);
    expect((await call(client, 'list_indexes', {})).indexes).toHaveLength(2);
  });
});

describe('lexcase mcp --http with a token', () => {
  it('a non-loopback address without --token refuses to start; with a token, calls need the bearer', async () => {
    const refused = await runBuiltCli(['mcp', '--http', '--host', '0.0.0.0', '--port', '0', '--index', tinyIdx]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/binding 0\.0\.0\.0 \(not a loopback address\) needs an API token/);
    const stdio = await runBuiltCli(['mcp', '--port', '9', '--index', tinyIdx]);
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toMatch(/--port goes with --http/);
    const short = await runBuiltCli(['mcp', '--http', '--port', '0', '--token', 'abc', '--index', tinyIdx]);
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/--token.*at least 16/);

    const token = 'test-token-0123456789abcdef';
    const s = await startServerChild(['mcp', '--http', '--port', '0', '--index', tinyIdx], { env: { LEXCASE_API_TOKEN: token } });
    try {
      expect(s.info.token).toBe(true);
      await expect(httpMcpClient(s.info.url)).rejects.toThrow(/401|bearer/i);
      await expect(httpMcpClient(s.info.url, 'wrong-token-0123456789')).rejects.toThrow(/401|bearer/i);
      const c = await httpMcpClient(s.info.url, token);
      expect((await call(c, 'list_indexes', {})).indexes.map((x: any) => x.name)).toEqual(['tiny']);
      await c.close();
      expect(s.stderr()).not.toContain(token);
    } finally {
      await s.stop();
    }
  }, 240_000);
});

describe('find_evidence with an LLM configured (the real OpenAI client against a scripted server)', () => {
  it("mode auto runs the LLM advocate over the index's retrieval tools; ids no tool returned are dropped", async () => {
    const advocate = (req: RecordedRequest): ScriptReply => {
      const msgs = req.body.messages as { role: string; content: string }[];
      const tools = msgs.filter((x) => x.role === 'tool');
      if (tools.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'statement against interest hearsay exception' } }] };
      const ids = tools.flatMap((x) => JSON.parse(x.content).results.map((r: { id: string }) => r.id));
      return {
        content: JSON.stringify({
          analysis: 'the rule and its exception',
          evidence: [
            { id: ids[0], justification: 'states the exception' },
            { id: 'invented-id', justification: 'made up' },
          ],
        }),
      };
    };
    const srv = await startScriptedServer(advocate);
    const m = await stdioMcp(['--index', defaultIdx, '--no-cache'], {
      env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_API_KEY: 'sk-test-secret-000000' },
    });
    try {
      expect((await call(m.client, 'list_indexes', {})).llm).toBe(true);
      const ev = await call(m.client, 'find_evidence', { hypothesis: HYPOTHESIS, k: 2 });
      const top = (await (await ix.retriever('bm25')).search('statement against interest hearsay exception', { k: 5 })).map((h) => h.id);
      expect(ev.mode).toBe('llm');
      expect(ev.toolCalls[0]).toMatchObject({ tool: 'bm25_search', query: 'statement against interest hearsay exception', step: 1 });
      expect(ev.evidence.map((e: any) => [e.id, e.justification])).toEqual([[top[0], 'states the exception']]);
      expect(ev.rejectedIds).toEqual(['invented-id']);
      expect(ev.analysis).toBe('the rule and its exception');
      expect(ev.tokens).toBeGreaterThan(0);
      expect(srv.requests[0].body.tools.map((t: any) => t.function.name)).toEqual(expect.arrayContaining(['bm25_search', 'qld_search']));
      // mode offline still runs the heuristic, with no request to the model
      const before = srv.requests.length;
      expect((await call(m.client, 'find_evidence', { hypothesis: HYPOTHESIS, k: 2, mode: 'offline' })).mode).toBe('offline heuristic, no LLM');
      expect(srv.requests.length).toBe(before);
      expect(m.stderr()).not.toContain('sk-test-secret');
    } finally {
      await m.close();
      await srv.close();
    }
  }, 180_000);
});
