/**
 * find_evidence on /v1 and MCP says what `lexcase evidence --json` says about its numbers: the
 * temperature the LLM advocate sampled at, and, offline, a `shortfall` when fewer passages than k
 * came back. The query service dropped both (its evidence reply listed neither), so /v1/evidence
 * with k 20 over this index answered 10 passages without a word where the CLI warns "10 of the 20
 * passages asked for: …", and nothing on /v1 or MCP said the advocate ran at 0.3.
 *
 * Data: the first 14 passages of the Federal Rules of Evidence in the bundled legal_corpus, bm25 +
 * qld; the LLM is a scripted OpenAI-compatible server; the service, /v1 and MCP run in-process.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEvidence } from '../../agents/case/find-evidence.js';
import { loadConfig } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { startApiServer } from '../../src/api/server.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { runCli } from '../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { openQueryService, type QueryService } from './query-service.js';
import type { EvidenceOutput } from './schemas.js';

const tmp = tempDir('lexcase-evidence-output-');
const dir = join(tmp.dir, 'fre-14');
const H = 'a witness may be impeached by any party, including the party that called the witness';
let srv: ScriptedServer;

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('legal_corpus')) if (p.source === 'fre' && passages.length < 14) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld'], workers: 0 });
  srv = await startScriptedServer(() => ({ content: '{"analysis":"FRE 607","evidence":[]}' }));
}, 60_000);
afterAll(async () => {
  await srv?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

/** The service, /v1/evidence and the MCP find_evidence tool, each asked `input`. */
async function onEverySurface(svc: QueryService, input: Record<string, unknown>): Promise<Record<string, EvidenceOutput>> {
  const api = await startApiServer(svc, { port: 0 });
  const [client, server] = InMemoryTransport.createLinkedPair();
  await createMcpServer(svc).connect(server);
  const mcp = new Client({ name: 'evidence-output-test', version: '1' });
  await mcp.connect(client);
  try {
    const res = await fetch(`${api.url}/v1/evidence`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) });
    expect(res.status).toBe(200);
    const tool = await mcp.callTool({ name: 'find_evidence', arguments: input });
    expect(tool.isError).toBeFalsy();
    return { service: await svc.findEvidence(input as never), v1: (await res.json()) as EvidenceOutput, mcp: tool.structuredContent as EvidenceOutput };
  } finally {
    await mcp.close();
    await api.close();
  }
}

const modelFrom = async (env: Record<string, string>) => {
  const { llm } = await loadConfig({ env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', ...env }, cwd: tmp.dir });
  llm.cacheDir = false;
  return createChatModel(llm);
};

describe('find_evidence carries the temperature and the shortfall `lexcase evidence --json` gives', () => {
  it('offline, k past what the searches return: every surface says how many came back and why, as findEvidence does', async () => {
    const svc = await openQueryService({ indexes: [{ name: 'fre', dir }] });
    try {
      const lib = await findEvidence({ hypothesis: H, index: dir, k: 20 });
      expect(lib.evidence.length).toBeLessThan(20);
      expect(lib.shortfall).toMatchObject({ k: 20, returned: lib.evidence.length });
      const cli = await runCli(['--json', 'evidence', H, '--index', dir, '--offline', '-k', '20']);
      expect(cli.code).toBe(0);
      expect(JSON.parse(cli.stdout).shortfall).toEqual(lib.shortfall);
      for (const [where, out] of Object.entries(await onEverySurface(svc, { hypothesis: H, k: 20, mode: 'offline' }))) {
        expect(
          out.evidence.map((e) => e.id),
          where,
        ).toEqual(lib.evidence.map((e) => e.id));
        expect(out.shortfall, where).toEqual(lib.shortfall);
        expect(out.shortfall?.reason, where).toMatch(
          /^\d+ of the 20 passages asked for: the offline advocate ranks only the passages its \d+ searches returned/,
        );
        expect(out.temperature, where).toBeUndefined();
      }
      // enough passages: no shortfall
      expect((await svc.findEvidence({ hypothesis: H, k: 3, mode: 'offline' })).shortfall).toBeUndefined();
    } finally {
      await svc.close();
    }
  });

  it('LLM asked again with the response cache on: /v1/evidence, MCP find_evidence and the service say "2 of 2 LLM calls were answered from the response cache" and who wrote it', async () => {
    // an advocate that searches once, then picks the first passage it was shown (a reply the cache keeps)
    const cached = await startScriptedServer((req) => {
      const shown = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
      if (!shown.length) return { toolCalls: [{ name: 'bm25_search', args: { query: 'impeach witness', k: null }, id: 'call_1' }] };
      const first = JSON.parse(shown[0].content).results[0].id as string;
      return { content: JSON.stringify({ analysis: 'FRE 607', evidence: [{ id: first, justification: 'on point' }] }) };
    });
    const { llm } = await loadConfig({ env: { LEXCASE_LLM_BASE_URL: cached.url, LEXCASE_LLM_MODEL: 'scripted' }, cwd: tmp.dir });
    llm.cacheDir = join(tmp.dir, 'llm-cache');
    const svc = await openQueryService({ indexes: [{ name: 'fre', dir }], llm: createChatModel(llm) });
    const chats = () => cached.requests.filter((r) => /\/chat\/completions/.test(r.path)).length;
    try {
      const before = chats();
      const first = await svc.findEvidence({ hypothesis: `${H} (cached)`, mode: 'llm' } as never);
      expect(chats() - before).toBe(2);
      expect(first.evidence).toHaveLength(1);
      expect({ llmCalls: first.llmCalls, cacheSources: first.cacheSources, fromCache: first.fromCache }).toEqual({
        llmCalls: 2,
        cacheSources: undefined,
        fromCache: undefined,
      });
      for (const [where, out] of Object.entries(await onEverySurface(svc, { hypothesis: `${H} (cached)`, mode: 'llm' }))) {
        expect(out.llmCalls, where).toBe(2);
        expect(Object.entries(out.cacheSources ?? {}), where).toEqual([
          [expect.stringMatching(/^GET \/models listed .*"scripted".* when it was written, as now/), 2],
        ]);
        expect(out.fromCache, where).toMatch(
          /^2 of 2 LLM calls were answered from the response cache, not by the server at the endpoint: GET \/models listed .* ×2 — --no-cache/,
        );
      }
      expect(chats() - before).toBe(2); // the three asks after the first reached no server
    } finally {
      await svc.close();
      await cached.close();
    }
  });

  it("LLM: every surface gives the temperature the advocate sampled at: CASE's 0.3 when none is set, the one set when set", async () => {
    for (const [env, want] of [
      [{}, 0.3],
      [{ LEXCASE_LLM_TEMPERATURE: '0' }, 0],
    ] as const) {
      const svc = await openQueryService({ indexes: [{ name: 'fre', dir }], llm: await modelFrom(env) });
      try {
        // `lexcase evidence --json` over the same endpoint (its model from the flags: no temperature set)
        const cli = env.LEXCASE_LLM_TEMPERATURE
          ? undefined
          : await runCli(['--json', 'evidence', H, '--index', dir, '--endpoint', srv.url, '--model', 'scripted', '--no-cache']);
        const outputs = { ...(await onEverySurface(svc, { hypothesis: H, mode: 'llm' })), ...(cli ? { cli: JSON.parse(cli.stdout) } : {}) };
        for (const [where, out] of Object.entries(outputs)) {
          expect(out.mode, where).toBe('llm');
          expect(out.temperature, where).toBe(want);
          expect(srv.requests.at(-1)?.body.temperature).toBe(want);
        }
      } finally {
        await svc.close();
      }
    }
  });
});
