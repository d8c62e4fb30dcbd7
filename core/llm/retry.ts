/**
 * Retries with exponential backoff for LLM requests. Retried: HTTP 408/409/429 and 5xx, timeouts,
 * connection errors and malformed response bodies (a proxy or overloaded server cut short).
 * Not retried: other 4xx (bad request, auth, unknown model) and aborts. A Retry-After hint from
 * the server (`Retry-After`, seconds or an HTTP-date, or `retry-after-ms`) is honoured up to `maxMs`. Deterministic (no jitter) so runs are reproducible and
 * tests can make backoff short through `baseMs`.
 */
import { errorMessage, errors } from '../errors.js';
import { maskSentKeys } from '../secrets.js';

export interface RetryOptions {
  maxRetries: number;
  baseMs: number;
  maxMs: number;
  signal?: AbortSignal;
  /** Called when a retry is scheduled, before its backoff (debug logs; a retry is counted when it is sent, chat-openai.ts). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

function statusOf(e: unknown): number | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const o = e as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } };
  for (const v of [o.status, o.statusCode, o.response?.status]) if (typeof v === 'number') return v;
  return undefined;
}

/** Short reason for a failure, e.g. "HTTP 429", "timeout", "malformed response". */
export function failureReason(e: unknown): string {
  const status = statusOf(e);
  if (status !== undefined) return `HTTP ${status}`;
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  const name = err?.name ?? '';
  const msg = err?.message ?? String(e);
  if (name === 'ReplyTooLargeError') return 'reply too large';
  if (name === 'AbortError' || (/aborted/i.test(msg) && !/timed? ?out/i.test(msg))) return 'aborted';
  if (/timeout/i.test(name) || /timed? ?out/i.test(msg)) return 'timeout';
  if (name === 'MalformedReplyError' || name === 'SyntaxError' || /JSON|Unexpected token|Unexpected end/i.test(msg)) return 'malformed response';
  if (
    // a connection closed while the body was read: fetch's TypeError "terminated", whose cause is
    // undici's SocketError (UND_ERR_SOCKET, "other side closed"); before, only the outer error was
    // read, so such a cut was an "error", not retried, and failed its item at the first try
    /connection|ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|fetch failed|other side closed|UND_ERR_SOCKET/i.test(
      `${name} ${msg} ${err?.code ?? ''} ${err?.cause?.code ?? ''} ${err?.cause?.message ?? ''}`,
    )
  )
    return 'connection error';
  return 'error';
}

export function isRetryable(e: unknown): boolean {
  const status = statusOf(e);
  if (status !== undefined) return status === 408 || status === 409 || status === 429 || status >= 500;
  const reason = failureReason(e);
  return reason === 'timeout' || reason === 'malformed response' || reason === 'connection error';
}

function header(e: unknown, name: string): string | undefined {
  const h = (e as { headers?: unknown })?.headers;
  let v: unknown;
  if (h && typeof (h as Headers).get === 'function') v = (h as Headers).get(name);
  else if (h && typeof h === 'object') v = (h as Record<string, unknown>)[name];
  return typeof v === 'string' && v.trim() ? v : undefined;
}

function retryAfterMs(e: unknown): number | undefined {
  // `retry-after-ms` (Azure OpenAI and gateways in front of it; the OpenAI SDK reads it first): milliseconds.
  // Before, only Retry-After was read, so a gateway that sent this one alone was retried after the short
  // backoff it had refused, and a rate-limited run spent its retries at once and failed its items.
  const ms = Number(header(e, 'retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const v = header(e, 'retry-after');
  if (v === undefined) return undefined;
  // RFC 9110 allows delay-seconds or an HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT"); before, the date
  // form was ignored and the retry came after the short exponential backoff the server had refused
  const s = Number(v);
  if (Number.isFinite(s)) return s >= 0 ? s * 1000 : undefined;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

export function backoffDelay(attempt: number, o: Pick<RetryOptions, 'baseMs' | 'maxMs'>, hintMs?: number): number {
  const exp = o.baseMs * 2 ** (attempt - 1);
  return Math.min(o.maxMs, Math.max(exp, hintMs ?? 0));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (ms <= 0) return resolve();
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Run `fn` (one attempt per call), retrying retryable failures. After the last attempt, or on a
 * non-retryable failure, throws LLM_REQUEST_FAILED with the reason and attempt count.
 */
export async function withRetries<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (o.signal?.aborted) throw e;
      const reason = failureReason(e);
      if (reason === 'aborted') throw e;
      const retryable = isRetryable(e);
      if (!retryable || attempt > o.maxRetries) {
        const detail = maskSentKeys(errorMessage(e)); // the endpoint's reply may quote the key sent, a short one too (core/secrets.ts)
        const tries = attempt === 1 ? '' : ` after ${attempt} attempts`;
        throw errors.llmRequestFailed(`${reason}${tries}: ${detail.slice(0, 500)}`, e);
      }
      const delayMs = backoffDelay(attempt, o, retryAfterMs(e));
      o.onRetry?.({ attempt, delayMs, reason });
      await sleep(delayMs, o.signal);
    }
  }
}
