/**
 * Who answered a run's replies, as the server described the model it serves under the configured name
 * (its GET /models entry, core/llm/server-identity.ts). A local server (llama.cpp, vLLM) restarted with
 * another model under the same name mid-run answers the later items with that model: config.json names
 * one model, and the run's figures came from two. `lexcase run` hears the identity again for each item
 * (a GET /models shared by the requests in flight) and each reply carries the identity it was asked
 * under (`llmOutput.server`; a cache hit, the identity that wrote the entry when checked as now). Per
 * item they are counted on its results.jsonl line (`serverIdentities`: identity → replies), so resumes,
 * merges and replays keep them; a run whose replies span two identities is stopped unless
 * --allow-server-change (eval/runner.ts), and report.md's Run section and `compare` say it.
 */
import { basename } from 'node:path';
import { REPLAY_BASE_URL } from '../core/llm/endpoint.js';
import type { Exchange } from '../core/llm/record-replay.js';
import { countsOverResults } from './reply-models.js';
import type { ResultRecord } from './types.js';

/** Replies of `exchanges` by the server identity they were answered under; undefined when none was heard. */
export function serverIdentities(exchanges: readonly Exchange[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const x of exchanges) {
    const o = x.reply?.llmOutput as { server?: unknown; cacheEntry?: { server?: unknown; checked?: unknown } } | undefined;
    // a cache hit: the identity that wrote it, when it is the one heard now (else cacheSources says it was not checked)
    const said = x.cached ? (o?.cacheEntry?.checked === true ? o.cacheEntry.server : undefined) : o?.server;
    if (typeof said !== 'string' || !said) continue;
    out[said] = (out[said] ?? 0) + 1;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The model name an identity is of: its leading JSON string (`"m1" (GET /models entry …)` → m1); the whole text when it has none. */
export function identityModel(identity: string): string {
  const m = /^"(?:[^"\\]|\\.)*"/.exec(identity);
  if (!m) return identity;
  try {
    return String(JSON.parse(m[0]));
  } catch {
    return identity;
  }
}

/**
 * Of `identities`, those whose model name has more than one identity among them: one name described
 * two ways (another model behind it). Identities of different names are a run's different models
 * asked for on purpose (3-ply's `--evaluator-model`), not a swap: before, the run stopped as one.
 */
export function swappedIdentities(identities: Iterable<string>): string[] {
  const all = [...new Set(identities)];
  const byName = new Map<string, number>();
  for (const s of all) byName.set(identityModel(s), (byName.get(identityModel(s)) ?? 0) + 1);
  return all.filter((s) => (byName.get(identityModel(s)) ?? 0) > 1);
}

/** The identities of `counts` not in `known`. */
export function newIdentities(counts: Record<string, number> | undefined, known: ReadonlySet<string>): string[] {
  return Object.keys(counts ?? {}).filter((s) => !known.has(s));
}

/** The run's replies by server identity (sorted), how many LLM calls they are of, and the items answered under each. */
export function serverIdentitiesOf(results: readonly Pick<ResultRecord, 'serverIdentities' | 'tokens'>[]): {
  identities: [string, number][];
  calls: number;
  items: Map<string, number>;
} {
  const { counts, calls } = countsOverResults(results, (r) => r.serverIdentities);
  const items = new Map<string, number>();
  for (const r of results) for (const s of Object.keys(r.serverIdentities ?? {})) items.set(s, (items.get(s) ?? 0) + 1);
  return { identities: counts, calls, items };
}

/** How many of the run's identities are of a name described more than one way (swappedIdentities). */
export function swappedIdentitiesOf(results: readonly Pick<ResultRecord, 'serverIdentities' | 'tokens'>[]): number {
  return swappedIdentities(serverIdentitiesOf(results).identities.map(([s]) => s)).length;
}

/**
 * '"local-model" (GET /models entry 553f2fece670): 8 items, 8 of 20 LLM calls; "local-model" (GET /models
 * entry 9b1c…): 12 items, 12 of 20 LLM calls' when the run's replies span more than one identity; '' otherwise.
 */
export function serverIdentitiesText(results: readonly Pick<ResultRecord, 'serverIdentities' | 'tokens'>[]): string {
  const { identities: all, calls, items } = serverIdentitiesOf(results);
  const swapped = new Set(swappedIdentities(all.map(([s]) => s)));
  const identities = all.filter(([s]) => swapped.has(s));
  if (identities.length < 2) return '';
  const n = (v: number) => v.toLocaleString('en-US');
  return identities.map(([s, c]) => `${s}: ${n(items.get(s) ?? 0)} items, ${n(c)} of ${n(calls)} LLM calls`).join('; ');
}

/** compare's line for a run whose replies span more than one identity (run with --allow-server-change); undefined otherwise. */
export function serverSpanLine(label: 'A' | 'B', results: readonly Pick<ResultRecord, 'serverIdentities' | 'tokens'>[]): string | undefined {
  const text = serverIdentitiesText(results);
  return text
    ? `${label}'s replies span ${swappedIdentitiesOf(results)} server identities (the model behind its name changed during the run): ${text}; its figures mix them`
    : undefined;
}

/**
 * Items that asked the LLM (calls not all from the cache) but record no server identity: written by a
 * lexcase that did not record it, or answered while the server listed no model. Beside items that do
 * record one, a model swap across them cannot be seen.
 */
export function itemsWithoutIdentity(results: readonly Pick<ResultRecord, 'serverIdentities' | 'tokens'>[]): number {
  return results.filter((r) => !r.serverIdentities && (r.tokens?.calls ?? 0) > (r.tokens?.cached ?? 0)).length;
}

/** report.md's line when some items record a server identity and others that asked the LLM record none; '' otherwise. */
export function identityGapText(results: readonly Pick<ResultRecord, 'serverIdentities' | 'tokens'>[]): string {
  const without = itemsWithoutIdentity(results);
  const heard = results.filter((r) => r.serverIdentities).length;
  if (!without || !heard) return '';
  return (
    `${without.toLocaleString('en-US')} item${without === 1 ? '' : 's'} that asked the LLM record no server identity (written by an older lexcase, or the server listed no model then) beside ${heard.toLocaleString('en-US')} that do: ` +
    'a model swapped behind the same name between them cannot be seen'
  );
}

/**
 * "gpu-box:8000/v1": a recorded base URL's host, port and path only — never its userinfo, query or fragment;
 * undefined when it is no URL, or a replay's (REPLAY_BASE_URL: its replies are its recording's, of no server of its own).
 */
export function serverOf(baseUrl: unknown): string | undefined {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl) || baseUrl === REPLAY_BASE_URL) return undefined;
  const u = new URL(baseUrl);
  return `${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** A base URL's port, its scheme's default where the URL names none (http 80, https 443); '' for no URL. */
function portOf(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) return '';
  const u = new URL(baseUrl);
  return u.port || DEFAULT_PORT[u.protocol] || '';
}

/** "h:443/v1" from serverOf's "h/v1" and port 443 (a URL that named its port already names it). */
const withPort = (server: string, port: string): string => {
  const slash = server.indexOf('/');
  const [host, path] = slash < 0 ? [server, ''] : [server.slice(0, slash), server.slice(slash)];
  return port && !host.endsWith(`:${port}`) ? `${host}:${port}${path}` : server;
};

type ServerRun = { config: Record<string, unknown>; results: readonly Pick<ResultRecord, 'serverIdentities' | 'tokens'>[] };

/**
 * compare's pairing line when the two runs asked one model name (config.json `model.model`) of different
 * servers: another base URL (config.json `model.baseUrl`, host:port/path only; two that differ only by
 * scheme, http://h/v1 and https://h/v1, name each port), the same URL with other
 * query values (`model.baseUrlQuery`, the digest of a `?deployment=` that the recorded URL masks), or the
 * same URL whose GET /models described the model otherwise (the items' `serverIdentities`: another model
 * loaded under the name), or one run asked a server and the other ran a model file in-process (provider
 * local: `model.modelFile`, no base URL; named by the file's name). The figures are then of two servers, which the config differences list among
 * others. Undefined when the names differ (the config differences say so), or the server is the same
 * as far as the runs record it.
 */
export function serverPairingLine(a: ServerRun, b: ServerRun): string | undefined {
  const model = (c: Record<string, unknown>) => (c.model && typeof c.model === 'object' ? (c.model as Record<string, unknown>) : undefined);
  const [ma, mb] = [model(a.config), model(b.config)];
  const name = typeof ma?.model === 'string' ? ma.model : undefined;
  if (!ma || !mb || !name || name !== mb.model) return undefined;
  const [sa, sb] = [serverOf(ma.baseUrl), serverOf(mb.baseUrl)];
  const asked = `the two runs asked model "${name}" of different servers`;
  const tail = ': their figures are not of one server';
  if (sa && sb && sa !== sb) return `${asked} — A ${sa}, B ${sb}${tail}`;
  // one run asked a server, the other ran a model file in-process (provider local: no base URL, llm.modelFile)
  const file = (m: Record<string, unknown>) => (typeof m.modelFile === 'string' && m.baseUrl === undefined ? m.modelFile : undefined);
  const [fa, fb] = [file(ma), file(mb)];
  if ((sa && fb) || (fa && sb))
    return `${asked} — A ${sa ?? `the model file ${basename(fa!)}, run in-process`}, B ${sb ?? `the model file ${basename(fb!)}, run in-process`}${tail}`;
  // http://h/v1 and https://h/v1 read alike without their scheme, yet are two ports (80, 443): name each port
  const [pa, pb] = [portOf(ma.baseUrl), portOf(mb.baseUrl)];
  if (sa && sb && pa !== pb) return `${asked} — A ${withPort(sa, pa)}, B ${withPort(sb, pb)}${tail}`;
  if (sa && sb && (ma.baseUrlQuery ?? null) !== (mb.baseUrlQuery ?? null)) {
    const q = (v: unknown) => (typeof v === 'string' ? `query values ${v.slice(0, 12)}` : 'no query');
    return `${asked} — A ${sa} (${q(ma.baseUrlQuery)}), B ${sb} (${q(mb.baseUrlQuery)}): the same URL with other query values (another deployment)${tail}`;
  }
  // the asked model's identities only: another model a run asks for too (3-ply's evaluator) is no description of this one
  const ids = (r: ServerRun) =>
    serverIdentitiesOf(r.results)
      .identities.map(([s]) => s)
      .filter((s) => identityModel(s) === name || identityModel(s) === `${name}:latest`);
  const [ia, ib] = [ids(a), ids(b)];
  if (ia.length && ib.length && ia.join('\n') !== ib.join('\n'))
    return `the two runs asked model "${name}" of ${sa && sa === sb ? `${sa}, whose` : 'servers whose'} GET /models described it otherwise (another model loaded under the name) — A ${ia.join(', ')}; B ${ib.join(', ')}${tail}`;
  return undefined;
}
