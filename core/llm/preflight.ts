/**
 * One cheap request before an LLM run, so a wrong endpoint, key or model stops the run at once with
 * one clear error (LLM_UNAVAILABLE) instead of failing every item after its retries.
 *
 * 1. GET {baseUrl}/models (free on OpenAI; vLLM, Ollama, llama.cpp server, LM Studio, LiteLLM and
 *    OpenRouter serve it): no connection / timeout → unreachable; 401/403 → the key was refused;
 *    the model in the list (Ollama's "name:latest" counts for "name") → ready.
 * 2. Otherwise — the model is not listed (llama.cpp answers any model name; some proxies list only
 *    some), or the server has no /models — one chat completion of max_tokens 1 decides:
 *    404 / "model … does not exist | not found" → unknown model (with the listed ones and the
 *    closest); 404 without a word of the model → no OpenAI-compatible API at that URL; 401/403 →
 *    the key; 5xx → the server's message; 400/422/429 and 2xx → ready (the server knows the
 *    model: it refused a parameter or is busy, which the run's own retries handle).
 *
 * It never uses the response cache and never retries (a 5xx is reported as such). The key is sent
 * the way the client sends it (Bearer; "no-key" when none is set) and never appears in a message.
 */
import type { LlmConfig } from '../config.js';
import { closestName } from '../did-you-mean.js';
import { errors } from '../errors.js';
import { maskSentKeys, registerSentKey } from '../secrets.js';
import { redactUrl } from '../url-credentials.js';
import { endpointUrl } from './endpoint.js';
import { rememberListing } from './server-identity.js';
import { DEFAULT_MAX_REPLY_BYTES, LLM_REPLY_SETTING, readBoundedText, ReplyTooLargeError } from './bounded-reply.js';

export interface PreflightResult {
  /** How the model was confirmed: listed by GET /models, or answered a 1-token completion. */
  via: 'models' | 'completion';
  /** Models the endpoint listed (when it lists them). */
  models?: string[];
  ms: number;
}

export interface PreflightOptions {
  /** Timeout of each of the (at most two) requests; default min(llm.timeoutMs, 20 s) for the list, llm.timeoutMs for the completion. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface Answer {
  status: number;
  text: string;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

const hasUserinfo = (u: string): boolean => {
  try {
    const p = new URL(u);
    return !!p.username || !!p.password;
  } catch {
    return false;
  }
};

/** What the server said about a failed request, its words cut short, a key it quotes masked (core/secrets.ts maskSentKeys). */
function serverMessage(text: string): string {
  return maskSentKeys(serverWords(text));
}

function serverWords(text: string): string {
  try {
    const j = JSON.parse(text);
    const m = j?.error?.message ?? j?.error ?? j?.message ?? j?.detail;
    if (typeof m === 'string' && m) return m.length > 300 ? `${m.slice(0, 300)}…` : m;
  } catch {
    /* not JSON */
  }
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}

function causeOf(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'timeout';
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}

const modelListed = (model: string, ids: string[]) => ids.includes(model) || (!model.includes(':') && ids.includes(`${model}:latest`));

/** Throws LLM_UNAVAILABLE when the configured endpoint cannot serve the configured model. */
export async function preflightLlm(cfg: LlmConfig, o: PreflightOptions = {}): Promise<PreflightResult> {
  const t0 = performance.now();
  const base = cfg.baseUrl!;
  const model = cfg.model!;
  const doFetch = o.fetch ?? fetch;
  registerSentKey(cfg.apiKey); // masked in what the server answers, whatever its length
  const headers: Record<string, string> = { authorization: `Bearer ${cfg.apiKey ?? 'no-key'}`, 'content-type': 'application/json' };
  const where = `the LLM endpoint ${trimSlash(redactUrl(base))}`;
  // fetch refuses a URL holding user:pass@ ("Request cannot be constructed …"): say so, not "not reachable"
  if (hasUserinfo(base))
    throw errors.llmUnavailable(
      `${where} holds a user name and password (user:pass@), which lexcase's HTTP client cannot send`,
      'take them out of the URL; give the key in LEXCASE_LLM_API_KEY (or --api-key-env VAR): it is sent as "Authorization: Bearer KEY"',
    );
  const endpointHint =
    'check --endpoint / LEXCASE_LLM_BASE_URL / llm.baseUrl in lexcase.config.json, and that the server is running (LEXCASE_LLM_PREFLIGHT=0 skips this check)';
  const keyHint = cfg.apiKey
    ? 'check the key in LEXCASE_LLM_API_KEY (or the variable --api-key-env names, or llm.apiKey)'
    : 'no API key is set: put it in LEXCASE_LLM_API_KEY, or name the variable that holds it with --api-key-env VAR';

  const send = async (method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number): Promise<Answer> => {
    try {
      const res = await doFetch(endpointUrl(base, path), {
        method,
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: res.status, text: await readBoundedText(res, cfg.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES, LLM_REPLY_SETTING) };
    } catch (e) {
      if (e instanceof ReplyTooLargeError) throw errors.llmUnavailable(`${where}, ${method} ${path}: ${e.message}`, endpointHint);
      const why = causeOf(e);
      throw errors.llmUnavailable(
        why === 'timeout' ? `${where} did not answer ${method} ${path} within ${waitText(timeoutMs)}` : `${where} is not reachable (${why})`,
        endpointHint,
      );
    }
  };
  const refusedKey = (a: Answer) => errors.llmUnavailable(`${where} refused the API key (HTTP ${a.status}: ${serverMessage(a.text)})`, keyHint);

  // 1. the model list
  let models: string[] | undefined;
  const list = await send('GET', '/models', undefined, o.timeoutMs ?? Math.min(cfg.timeoutMs, 20_000));
  if (list.status === 401 || list.status === 403) throw refusedKey(list);
  // what the server says about the model: the response cache's check of who wrote an entry (server-identity.ts), without a second request
  rememberListing(cfg, list.status >= 200 && list.status < 300 ? list.text : undefined);
  if (list.status >= 200 && list.status < 300) {
    try {
      const data = JSON.parse(list.text)?.data;
      if (Array.isArray(data)) models = data.map((m: { id?: unknown }) => String(m?.id ?? '')).filter(Boolean);
    } catch {
      models = undefined;
    }
    if (models && modelListed(model, models)) return { via: 'models', models, ms: performance.now() - t0 };
  }

  // 2. one 1-token completion
  const chat = await send(
    'POST',
    '/chat/completions',
    { model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1, temperature: 0 },
    o.timeoutMs ?? cfg.timeoutMs,
  );
  if (chat.status === 401 || chat.status === 403) throw refusedKey(chat);
  const msg = serverMessage(chat.text);
  const aboutModel = new RegExp(`model|${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i').test(msg);
  const unknownModel =
    (chat.status === 404 && aboutModel) ||
    (chat.status >= 400 &&
      chat.status < 500 &&
      /(does not exist|not found|unknown model|no such model|invalid model|not available|model_not_found)/i.test(chat.text) &&
      aboutModel);
  if (unknownModel) {
    const near = models ? closestName(model, models) : undefined;
    const listed = models?.length
      ? `models there: ${models.slice(0, 12).join(', ')}${models.length > 12 ? `, … (${models.length})` : ''}`
      : 'GET /models listed none';
    throw errors.llmUnavailable(
      `${where} does not serve the model "${model}" (HTTP ${chat.status}: ${msg})`,
      `${near && near !== model ? `did you mean "${near}"? ` : ''}${listed}; set --model / LEXCASE_LLM_MODEL / llm.model`,
    );
  }
  if (chat.status === 404)
    throw errors.llmUnavailable(
      `${where}/chat/completions answered HTTP 404 (${msg}): no OpenAI-compatible API at that URL`,
      'the base URL usually ends in /v1 (e.g. http://localhost:8000/v1); ' + endpointHint,
    );
  if (chat.status >= 500) throw errors.llmUnavailable(`${where} answered a 1-token request with HTTP ${chat.status} (${msg})`, endpointHint);
  return { via: 'completion', ...(models ? { models } : {}), ms: performance.now() - t0 };
}

/** A timeout as a person reads it: "200 ms" under a second (not "0 s"), else seconds ("20 s", "2.5 s"). */
const waitText = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`);
