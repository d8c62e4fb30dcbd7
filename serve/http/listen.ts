/**
 * Listen on host:port (0 = any free port) and report the bound address as a URL base, with a
 * close() that drops open keep-alive connections first. For lexcase's HTTP services (src/api,
 * src/mcp/http.ts).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** http://ADDRESS:PORT (IPv6 in brackets). */
  base: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Idle keep-alive connections are kept 30 s (Node's default is 5 s): a client that reuses one just
 * as the server drops it gets ECONNRESET, which a loaded machine made happen between two requests
 * a few seconds apart.
 */
export const KEEP_ALIVE_MS = 30_000;

export async function listen(server: Server, port: number, host: string): Promise<Listening> {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  const addr = server.address() as AddressInfo;
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    base: `http://${shown}:${addr.port}`,
    port: addr.port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
