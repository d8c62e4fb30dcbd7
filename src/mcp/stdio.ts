/**
 * `lexcase mcp` over stdio (what Claude Desktop and most MCP clients start): JSON-RPC on
 * stdin/stdout, every log line on stderr. Resolves when the client closes stdin or the process is
 * told to stop; the caller then closes the query service. The transport (./stdio-transport.ts)
 * answers a message over 10 MiB, or one that is not JSON, with a JSON-RPC error and goes on.
 */
import { log, redact } from '../../core/log.js';
import type { QueryService } from '../../serve/query/query-service.js';
import { createMcpServer } from './server.js';
import { LexcaseStdioTransport } from './stdio-transport.js';

export async function serveMcpStdio(
  svc: QueryService,
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const server = createMcpServer(svc);
  const transport = new LexcaseStdioTransport(stdin, stdout);
  transport.onerror = (e) => log.warn(`mcp: ${redact(e.message)}`); // one line on stderr (the client gets the JSON-RPC error)
  await new Promise<void>((resolveDone, reject) => {
    const done = () => {
      stdin.off('end', done);
      stdin.off('close', done);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      server.close().then(resolveDone, reject);
    };
    stdin.once('end', done);
    stdin.once('close', done);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    server.connect(transport).catch(reject);
  });
}
