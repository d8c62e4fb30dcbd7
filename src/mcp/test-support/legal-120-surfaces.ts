/**
 * The query-service tests' three surfaces over one legal-120 index (serve/query/test-support/legal-120.ts),
 * all in-process: the service, the /v1 server on a free port and an MCP client linked to the MCP server.
 * `close()` shuts them down and closes the sparse indexes they opened.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { openQueryService, type QueryService } from '../../../serve/query/query-service.js';
import { buildLegal120 } from '../../../serve/query/test-support/legal-120.js';
import { startApiServer, type ApiServer } from '../../api/server.js';
import { createMcpServer } from '../server.js';

export interface Legal120Surfaces {
  svc: QueryService;
  api: ApiServer;
  mcp: Client;
  close(): Promise<void>;
}

/** Builds legal-120 with `methods` into `dir` (index name "legal") and starts the three surfaces; `client` names the MCP client. */
export async function startLegal120Surfaces(dir: string, methods: string[], client: string): Promise<Legal120Surfaces> {
  await buildLegal120(dir, methods);
  const indexes = [{ name: 'legal', dir }];
  const svc = await openQueryService({ indexes });
  const api = await startApiServer(svc, { port: 0, indexes });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await createMcpServer(svc).connect(serverEnd);
  const mcp = new Client({ name: client, version: '1' });
  await mcp.connect(clientEnd);
  return {
    svc,
    api,
    mcp,
    async close() {
      await mcp.close();
      await api.close();
      await svc.close();
      await closeSparseIndexes();
    },
  };
}
