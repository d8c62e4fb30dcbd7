/**
 * `lexcase mcp --http`: the MCP server over streamable HTTP at POST /mcp, stateless (a fresh
 * McpServer and transport per request, all over one QueryService; no sessions to leak), answering
 * with plain JSON (no SSE stream: no tool streams progress). Bound to 127.0.0.1 by default; without
 * a token every request's Host/Origin must name this server (DNS-rebinding guard), with one every
 * request must carry `Authorization: Bearer TOKEN` (required off loopback: serve/http/auth.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { log, redact } from '../../core/log.js';
import { allowedHostNames, refuseReason } from '../../serve/http/host-guard.js';
import { HttpError, readJsonBody } from '../../serve/http/http-util.js';
import { requestLife } from '../../serve/http/request-life.js';
import { listen } from '../../serve/http/listen.js';
import { bearerOk } from '../../serve/http/auth.js';
import type { QueryService } from '../../serve/query/query-service.js';
import { createMcpServer } from './server.js';

export const MCP_PATH = '/mcp';

export interface McpHttpOptions {
  host?: string;
  /** 0 = any free port. */
  port?: number;
  token?: string;
}

export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/**
 * The id that two requests of one JSON-RPC batch share, if any. The SDK's transport keeps one reply
 * per id, so of two requests with the same id one was run and answered and the other dropped
 * without a word (a batch of `search "hearsay"` and `search "contract"`, both id 1, got one reply);
 * such a batch is refused whole instead.
 */
export function reusedRequestId(body: unknown): string | number | undefined {
  if (!Array.isArray(body)) return undefined;
  const seen = new Set<string>();
  for (const m of body) {
    const id = (m as { id?: unknown; method?: unknown } | null)?.id;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof (m as { method?: unknown }).method !== 'string') continue;
    const key = `${typeof id}:${id}`;
    if (seen.has(key)) return id;
    seen.add(key);
  }
  return undefined;
}

export async function startMcpHttp(svc: QueryService, o: McpHttpOptions = {}): Promise<McpHttpServer> {
  const host = o.host ?? '127.0.0.1';
  const names = allowedHostNames(host);
  let port = -1;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!o.token) {
      const refused = refuseReason(req.headers, names, port);
      if (refused) return jsonRpcError(res, 403, -32000, refused);
    } else if (!bearerOk(req.headers, o.token)) {
      return jsonRpcError(res, 401, -32000, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer realm="lexcase"' });
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) return jsonRpcError(res, 404, -32000, `no MCP endpoint at ${path} (use ${MCP_PATH})`);
    // stateless: no server-initiated stream (GET) and no session to end (DELETE)
    if (req.method !== 'POST') return jsonRpcError(res, 405, -32000, `${req.method} not allowed: POST JSON-RPC messages to ${MCP_PATH}`, { allow: 'POST' });
    let body: unknown;
    try {
      body = await readJsonBody(req);
    } catch (e) {
      if (e instanceof HttpError) return jsonRpcError(res, e.status === 400 ? 400 : e.status, -32700, e.message);
      throw e;
    }
    const reused = reusedRequestId(body);
    if (reused !== undefined)
      return jsonRpcError(
        res,
        400,
        -32600,
        `request id ${JSON.stringify(reused)} is used by more than one request in this batch: give each request its own id (nothing in the batch was run)`,
      );
    const server = createMcpServer(svc);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  const http = createServer((req, res) => {
    const life = requestLife(req, res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    handle(req, res).catch((e) => {
      // the client went away, or close() below dropped the connection: one line (request-life.ts), no stack
      if (life.gone(e)) return life.note('mcp http', stopping);
      log.warn(`mcp http: ${redact((e as Error)?.stack ?? String(e))}`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'internal error (see the server log)');
      else res.end();
    });
  });
  const l = await listen(http, o.port ?? 0, host);
  port = l.port;
  return {
    url: `${l.base}${MCP_PATH}`,
    close: async () => {
      stopping = true;
      const cancelled = inFlight.size;
      await l.close();
      if (cancelled) log.warn(`mcp http: stopped with ${cancelled} request(s) in flight; they were cancelled`);
    },
  };
}
