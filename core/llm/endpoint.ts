/**
 * The endpoint (llm.baseUrl) of a chat model, as the client needs it and as the response cache
 * keys replies by.
 *
 *  - `clientEndpoint(baseUrl)`: the base URL without its query string, and the query as the
 *    OpenAI client's `defaultQuery`, so `…/v1?api-version=…` sends `…/v1/chat/completions?api-version=…`
 *    (the client appends the path to the base URL as a string: `…/v1?api-version=…/chat/completions`).
 *  - `endpointUrl(baseUrl, path)`: `path` under the endpoint, its query kept (the preflight's requests).
 *  - `endpointIdentity(cfg)`: which server answered — the scheme, host, port and path of the base URL
 *    (lower-cased host, default port and trailing slash dropped), the names of its query
 *    parameters with a sha256 digest of their values (never the values themselves, nor the
 *    userinfo: credentials stay out of the cache key and logs) and the provider. A cached reply is
 *    served only to a request for the same endpoint: two servers with the same model name (a local
 *    and a remote "llama3", two fine-tunes served under one name, two deployments of one gateway
 *    chosen by `?deployment=`) never answer for each other. The parameters' order does not matter.
 *    A local model (provider "local") adds its runtime settings (`local`: threads, batch and context
 *    size, node-llama-cpp version; local/settings.ts `localRuntimeIdentity`), which change its replies.
 */
import { createHash } from 'node:crypto';
import { providerOf, type LlmProvider } from './providers.js';
import { credentialNamed } from '../url-credentials.js';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The base URL a replay (`--replay DIR`) records: it contacts no endpoint, its replies are the recording's, so it names no server. */
export const REPLAY_BASE_URL = 'http://replay.invalid/v1';

export function clientEndpoint(baseUrl: string | undefined): { baseURL: string | undefined; defaultQuery?: Record<string, string> } {
  const u = baseUrl ? parse(baseUrl) : undefined;
  if (!u || (!u.search && !u.hash)) return { baseURL: baseUrl };
  const defaultQuery = Object.fromEntries(u.searchParams);
  u.search = '';
  u.hash = '';
  return { baseURL: u.toString().replace(/\/+$/, ''), ...(Object.keys(defaultQuery).length ? { defaultQuery } : {}) };
}

export function endpointUrl(baseUrl: string, path: string): string {
  const u = parse(baseUrl);
  if (!u) return `${baseUrl.replace(/\/+$/, '')}${path}`;
  u.pathname = `${u.pathname.replace(/\/+$/, '')}${path}`;
  u.hash = '';
  return u.toString();
}

/** A base URL without credentials: scheme, host, port and path, its query parameters' names, and a digest of their values (see endpointIdentity). */
export function redactedEndpoint(baseUrl: string | undefined): { endpoint: string; queryValues?: string } {
  const u = baseUrl ? parse(baseUrl) : undefined;
  const where = u ? `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}` : (baseUrl ?? '');
  const params = u ? [...new Set(u.searchParams.keys())].sort() : [];
  // the values, in a canonical order (by name, then as given for a repeated name), only as a digest
  const values = params.length
    ? createHash('sha256')
        .update(JSON.stringify(params.map((k) => [k, u!.searchParams.getAll(k)])))
        .digest('hex')
        .slice(0, 32)
    : '';
  return { endpoint: where + (params.length ? `?${params.join('&')}` : ''), ...(values ? { queryValues: values } : {}) };
}

/**
 * A digest of the base URL's query values, leaving out those of parameters named like a credential
 * (`api-key`, `sig`, `token`, …: url-credentials.ts credentialNamed), for what run dirs record
 * (config.json `model.baseUrlQuery`): it tells `?deployment=a` from `?deployment=b`, and holds no hash
 * of a key that a copy of the run dir could be used to guess offline (an unsalted digest of a short
 * secret is). undefined when no other parameter is left.
 */
export function deploymentQueryDigest(baseUrl: string | undefined): string | undefined {
  const u = baseUrl ? parse(baseUrl) : undefined;
  if (!u) return undefined;
  const params = [...new Set(u.searchParams.keys())].filter((k) => !credentialNamed(k)).sort();
  if (!params.length) return undefined;
  return createHash('sha256')
    .update(JSON.stringify(params.map((k) => [k, u.searchParams.getAll(k)])))
    .digest('hex')
    .slice(0, 32);
}

export function endpointIdentity(cfg: { baseUrl?: string; provider?: LlmProvider }, local?: Record<string, unknown>): string {
  return JSON.stringify({ ...redactedEndpoint(cfg.baseUrl), provider: providerOf(cfg), ...(local ? { local } : {}) });
}
