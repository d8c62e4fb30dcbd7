/**
 * One evidence request on every in-process surface a user reads it from, against a model at `url`
 * (an OpenAI-compatible server, cache off): /v1/evidence (`serve --api`), the explorer's /api/evidence
 * and MCP find_evidence, each over the index `dir` (named "fre"). Returns each surface's output by name.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { openQueryService } from '../../serve/query/query-service.js';
import { startApiServer } from '../../src/api/server.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { startExplorer } from '../../web/server/server.js';

export async function evidenceOnEverySurface(o: { url: string; dir: string; cwd: string; input: Record<string, unknown> }): Promise<[string, unknown][]> {
  const { llm } = await loadConfig({ env: { LEXCASE_LLM_BASE_URL: o.url, LEXCASE_LLM_MODEL: 'scripted' }, cwd: o.cwd });
  llm.cacheDir = false;
  const model = createChatModel(llm);
  const svc = await openQueryService({ indexes: [{ name: 'fre', dir: o.dir }], llm: model });
  const api = await startApiServer(svc, { port: 0 });
  const explorer = await startExplorer({ index: o.dir, port: 0, llm: model, llmLabel: 'scripted' });
  const [client, server] = InMemoryTransport.createLinkedPair();
  await createMcpServer(svc).connect(server);
  const mcp = new Client({ name: 'evidence-surfaces', version: '1' });
  await mcp.connect(client);
  try {
    const post = async (url: string) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(o.input) });
      expect(res.status, url).toBe(200);
      return (await res.json()) as unknown;
    };
    const v1 = await post(`${api.url}/v1/evidence`);
    const web = await post(`${explorer.url}/api/evidence`);
    const tool = await mcp.callTool({ name: 'find_evidence', arguments: o.input });
    expect(tool.isError).toBeFalsy();
    return [
      ['/v1/evidence', v1],
      ['explorer /api/evidence', web],
      ['mcp find_evidence', tool.structuredContent],
    ];
  } finally {
    await mcp.close();
    await explorer.close();
    await api.close();
    await svc.close();
  }
}
