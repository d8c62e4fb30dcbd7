/**
 * Who may call lexcase's HTTP services (`lexcase serve --api`, `lexcase mcp --http`): on a loopback
 * address anyone on this machine, optionally gated by a bearer token; on any other address only
 * holders of the token — the server refuses to start without one (`requireTokenOffLoopback`).
 * Tokens are compared in constant time and never logged (registered as secrets).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { errors } from '../../core/errors.js';
import { registerSecret } from '../../core/log.js';

/** 127.0.0.0/8, ::1, ::ffff:127.x and "localhost". */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

/** Shortest token accepted (a guessable token on a network port is no protection). */
export const MIN_TOKEN_CHARS = 16;

/**
 * Stop with a usage error when `host` is not loopback and no token is given, or the token is short.
 * `source` names where the token came from (src/cli/api-token.ts: LEXCASE_API_TOKEN, --token-file).
 */
export function requireTokenOffLoopback(host: string, token: string | undefined, command: string, source = 'LEXCASE_API_TOKEN'): void {
  if (token !== undefined) {
    if (token.length < MIN_TOKEN_CHARS) throw errors.invalidInput(source, `the token needs at least ${MIN_TOKEN_CHARS} characters (e.g. openssl rand -hex 24)`);
    registerSecret(token);
  }
  if (!isLoopback(host) && !token)
    throw errors.usage(
      `${command}: binding ${host} (not a loopback address) needs an API token`,
      'set LEXCASE_API_TOKEN=SECRET or give --token-file FILE (at least 16 characters); clients send "Authorization: Bearer SECRET"',
    );
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** True when no token is required, or the request carries `Authorization: Bearer <token>`. */
export function bearerOk(headers: IncomingHttpHeaders, token: string | undefined): boolean {
  if (!token) return true;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return !!m && timingSafeEqual(digest(m[1]), digest(token));
}
