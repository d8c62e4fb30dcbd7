/**
 * What the server at an endpoint says about the model it serves under the configured name, as the
 * response cache's check of who wrote an entry (chat-openai.ts). The cache is keyed by the endpoint
 * and the request (endpoint.ts), and a local server (llama.cpp, vLLM, Ollama, LM Studio) often serves
 * one name ("local-model", "default") for whichever model it was started with: a rerun after the
 * model was swapped was answered from the cache with the old model's replies, without a word.
 *
 * The identity is the server's GET {baseUrl}/models entry for the model — the one whose `id` is the
 * model (Ollama's "name:latest" counts for "name"), else the only entry when the list holds one
 * (llama.cpp lists the one model it runs, under its alias or file path, and answers any name) — as a
 * sha256 digest of its JSON (keys sorted), never the API key: llama.cpp's entry carries the model's
 * `meta` (n_params, size, n_ctx_train, n_vocab), vLLM's its `root` (the weights' path) and
 * `max_model_len`, Ollama's its `created` (the model's modification time); a swapped model gives
 * another entry. `created` is left out when it is the time of the request (vLLM and llama.cpp send
 * the current time: within 10 minutes of the probe), which would change on every request.
 * A list that does not name the model among several, or no list (404, an unreachable server, a
 * timeout), gives no identity: the cache then serves as before, and says the entry was not checked.
 *
 * Heard once per endpoint and model: the preflight's own GET /models (preflight.ts) answers it, else
 * the first cached request makes it (a library model, LEXCASE_LLM_PREFLIGHT=0). A process that keeps
 * running (serve --api, mcp, the explorer) hears it again at each evidence request (hearAgain,
 * serve/query/index-queries.ts): a request arriving while a GET /models is in flight shares it, so a
 * burst of requests costs one. A hearing that differs from the one before is said in the log and kept
 * (changesSince) for the response of every request that was in progress. A hearing that gets no
 * identity (a failed or empty listing, a timeout) after one that named the model is no change: it is
 * said once ("could not hear"), the last identity is kept, and until the server names the model again
 * the model's requests are `unheard`: asked of the server, neither served from the response cache nor
 * written to it. A model with the response cache on asks (factory.ts); with it off, only in a process
 * that records the identity of every reply (`lexcase run`: hearForEveryModel, eval/server-identities.ts).
 */
import { createHash } from 'node:crypto';
import type { ServerIdentity } from './disk-cache.js';
import { DEFAULT_MAX_REPLY_BYTES, LLM_REPLY_SETTING, readBoundedText } from './bounded-reply.js';
import { endpointIdentity, endpointUrl, redactedEndpoint } from './endpoint.js';
import { log } from '../log.js';
import type { LlmProvider } from './providers.js';

export type { ServerIdentity } from './disk-cache.js';

/** Seconds around the probe within which a listing's `created` is read as the time of the request (vLLM, llama.cpp), not the model's. */
const REQUEST_TIME_S = 600;

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;

/** The identity a GET /models reply gives `model` (see the module doc), or undefined when it names none. */
export function identityFromListing(model: string, text: string, nowS = Date.now() / 1000): ServerIdentity | undefined {
  let data: unknown;
  try {
    data = (JSON.parse(text) as { data?: unknown })?.data;
  } catch {
    return undefined;
  }
  if (!Array.isArray(data)) return undefined;
  const entries = data.filter((e): e is Record<string, unknown> => !!e && typeof e === 'object' && !Array.isArray(e));
  const named = entries.filter((e) => e.id === model || (!model.includes(':') && e.id === `${model}:latest`));
  const entry = named.length === 1 ? named[0] : named.length === 0 && entries.length === 1 ? entries[0] : undefined;
  if (!entry) return undefined;
  const { created, ...rest } = entry;
  const kept = typeof created === 'number' && Math.abs(created - nowS) <= REQUEST_TIME_S ? rest : entry;
  const digest = createHash('sha256')
    .update(JSON.stringify(sorted(kept)))
    .digest('hex')
    .slice(0, 12);
  return { digest, said: `${JSON.stringify(String(entry.id ?? model))} (GET /models entry ${digest})` };
}

type IdentityConfig = { baseUrl?: string; provider?: LlmProvider; model?: string };

/** One hearing of an endpoint and model: the probe's answer (in flight until settled); `stale` once hearAgain() was called after it settled. */
interface Heard {
  p: Promise<Hearing | undefined>;
  settled: boolean;
  stale: boolean;
}

/** The per-process identities: endpoint identity (no credentials) + model → the latest hearing. */
const known = new Map<string, Heard>();
/** What each endpoint and model was last heard to be, once a hearing settled: a next one that differs is a change. */
const lastHeard = new Map<string, ServerIdentity | undefined>();
/** The changes heard in this process, in order, as sentences (changesSince). */
const changes: string[] = [];
/** Endpoints and models whose latest hearing got no identity after one that named the model (said once per such streak). */
const unheardNow = new Set<string>();
/** Whether a model with the response cache off asks too (hearForEveryModel). */
let everyModel = false;

/** An identity last heard, returned while the server does not name the model again: its replies are asked of the server (not the cache). */
export type Hearing = ServerIdentity & { unheard?: true };

/** Every model asks the identity, the response cache on or off: a process that records who answered each reply (`lexcase run`). */
export function hearForEveryModel(): void {
  everyModel = true;
}

let changeAllowed = false;

/** A run goes on when the identity changes under it (--allow-server-change), recording the items answered under each. */
export function allowServerChange(): void {
  changeAllowed = true;
}

/** Whether allowServerChange was called in this process. */
export function serverChangeAllowed(): boolean {
  return changeAllowed;
}

/** Whether a model with the response cache off asks the identity (hearForEveryModel was called). */
export function everyModelHears(): boolean {
  return everyModel;
}

const keyOf = (cfg: IdentityConfig) => `${endpointIdentity(cfg)}\n${cfg.model ?? ''}`;

const described = (id: ServerIdentity | undefined) => id?.said ?? 'no entry for it (or did not answer)';

/** A hearing settled: compared with the one before it (a change is logged and kept), then remembered. */
function settle(cfg: IdentityConfig, heard: Heard, id: ServerIdentity | undefined): Hearing | undefined {
  const key = keyOf(cfg);
  heard.settled = true;
  const before = lastHeard.get(key);
  // no identity after one that named the model: not heard (a flaky listing), not a change
  if (!id && before) {
    if (!unheardNow.has(key))
      log.warn(
        `could not hear the server's identity: the LLM server at ${redactedEndpoint(cfg.baseUrl).endpoint} did not name model ${JSON.stringify(cfg.model ?? '')} in GET /models (no listing, or no entry for it); last heard ${before.said}: replies are asked of the server, not served from the response cache, until it names the model again`,
      );
    unheardNow.add(key);
    return { ...before, unheard: true };
  }
  unheardNow.delete(key);
  if (lastHeard.has(key) && before?.digest !== id?.digest) {
    const line = `the LLM server at ${redactedEndpoint(cfg.baseUrl).endpoint} describes model ${JSON.stringify(cfg.model ?? '')} otherwise than when this process last asked: GET /models gave ${described(before)}, now ${described(id)} (another model behind the same name?): replies the response cache holds from another description are not served, the server is asked again`;
    log.warn(line);
    changes.push(line);
  }
  lastHeard.set(key, id);
  return id;
}

/** The preflight's GET /models reply (undefined: it answered no list): the identity for this process, without a second request. */
export function rememberListing(cfg: IdentityConfig, text: string | undefined): void {
  const heard: Heard = { p: Promise.resolve(undefined), settled: false, stale: false };
  heard.p = Promise.resolve(settle(cfg, heard, text === undefined ? undefined : identityFromListing(cfg.model ?? '', text)));
  known.set(keyOf(cfg), heard);
}

/**
 * Ask the servers again at the next cached request: every settled identity is marked stale (one still in
 * flight is kept, and shared by the requests that come while it is). Returns a mark for changesSince.
 */
export function hearAgain(): number {
  for (const h of known.values()) if (h.settled) h.stale = true;
  return changes.length;
}

/** The changes (sentences, as logged) heard since hearAgain() returned `mark`. */
export function changesSince(mark: number): string[] {
  return changes.slice(mark);
}

/**
 * The identity of the server at cfg.baseUrl for cfg.model: what the preflight or the latest probe
 * heard, else one GET /models (the key sent as the client sends it; min(timeoutMs, 20 s)); undefined
 * when it names none.
 */
export function serverIdentity(cfg: IdentityConfig & { apiKey?: string; timeoutMs?: number; maxReplyBytes?: number }): Promise<Hearing | undefined> {
  const key = keyOf(cfg);
  let h = known.get(key);
  if (!h || h.stale) {
    const heard: Heard = { p: Promise.resolve(undefined), settled: false, stale: false };
    heard.p = probe(cfg).then((id) => settle(cfg, heard, id));
    known.set(key, heard);
    h = heard;
  }
  return h.p;
}

async function probe(cfg: Parameters<typeof serverIdentity>[0]): Promise<ServerIdentity | undefined> {
  if (!cfg.baseUrl || !cfg.model) return undefined;
  try {
    const res = await fetch(endpointUrl(cfg.baseUrl, '/models'), {
      headers: { authorization: `Bearer ${cfg.apiKey ?? 'no-key'}` },
      signal: AbortSignal.timeout(Math.min(cfg.timeoutMs ?? 20_000, 20_000)),
    });
    const text = await readBoundedText(res, cfg.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES, LLM_REPLY_SETTING);
    return res.ok ? identityFromListing(cfg.model, text) : undefined;
  } catch {
    return undefined;
  }
}
