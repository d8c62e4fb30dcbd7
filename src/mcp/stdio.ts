/**
 * `lexcase mcp` over stdio (what Claude Desktop and most MCP clients start): JSON-RPC on
 * stdin/stdout, every log line on stderr. Resolves when the client closes stdin or the process is
 * told to stop; the caller then closes the query service.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { QueryService } from '../../serve/query/query-service.js';
import { createMcpServer } from './server.js';

export async function serveMcpStdio(svc: QueryService, stdin: NodeJS.ReadableStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout): Promise<void> {
  const server = createMcpServer(svc);
  const transport = new StdioServerTransport(stdin as never, stdout as never);
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
