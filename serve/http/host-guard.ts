/**
 * DNS-rebinding and cross-origin guard for the explorer: a request is served only when its Host
 * header names one of the host names the server is bound under (127.0.0.1, localhost, [::1], or
 * the --host address) with the bound port, and its Origin header, when present, is the http origin
 * of such a host. A page on evil.example whose name was re-pointed at 127.0.0.1 still sends
 * `Host: evil.example:PORT`, so it is refused before any routing, body reading or file access.
 */
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** "::1" → "[::1]"; names lower-cased (host names are case-insensitive). */
export function hostName(bindHost: string): string {
  const h = bindHost.trim().toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

/** The host names a request may use: the loopback names and the address the server is bound to. */
export function allowedHostNames(bindHost: string): Set<string> {
  return new Set([...LOOPBACK_NAMES, hostName(bindHost)]);
}

/** True when `value` ("name:port", or "name" on port 80) names an allowed host on the bound port. */
export function hostMatches(value: string, names: ReadonlySet<string>, port: number): boolean {
  const v = value.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return false;
  const p = m[2] === undefined ? 80 : Number(m[2]);
  return names.has(m[1]) && p === port;
}

/** Why a request is refused (403), or undefined when Host (and Origin, if sent) are allowed. */
export function refuseReason(headers: IncomingHttpHeaders, names: ReadonlySet<string>, port: number): string | undefined {
  const host = headers.host;
  if (!host) return 'request without a Host header refused';
  if (!hostMatches(host, names, port)) return 'Host not allowed: the explorer answers only to the names it is bound under (DNS rebinding guard)';
  const origin = headers.origin;
  if (origin !== undefined) {
    const m = /^http:\/\/(.+)$/i.exec(origin);
    if (!m || !hostMatches(m[1], names, port)) return 'cross-origin request refused';
  }
  return undefined;
}
