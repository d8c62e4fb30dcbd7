/**
 * Reading a chat-completions reply ourselves, so a `200` that is not a completion is a clear,
 * retryable error instead of a crash deep inside the client ("Cannot read properties of undefined
 * (reading 'message')"). Proxies, captive portals, a base URL without `/v1` or an overloaded
 * gateway answer `200` with an empty body, an HTML page or some other JSON; `readCompletion`
 * names what came back and throws MalformedReplyError, which retry.ts retries like a malformed
 * body (`malformed response`); a stream (server-sent events), which every attempt would get again,
 * throws StreamedReplyError, not retried. The completion's usage is read as numbers here (reply-usage.ts).
 */
import { normaliseUsage } from './reply-usage.js';

/** A `200` whose body is not a chat completion. */
export class MalformedReplyError extends Error {
  override readonly name = 'MalformedReplyError';
}

const HINT = 'instead of a chat completion; check the base URL (an OpenAI-compatible endpoint usually ends in /v1) and any proxy in between';

function describeText(text: string, contentType: string): string {
  const t = text.trim();
  if (!t) return 'an empty body';
  if (/html/i.test(contentType) || /^<(!doctype|html|head|body)\b/i.test(t)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(t)?.[1]?.replace(/\s+/g, ' ').trim();
    return `an HTML page${title ? ` (${JSON.stringify(title.slice(0, 80))})` : ''}`;
  }
  return `${contentType ? `${contentType.split(';')[0]} ` : ''}text ${JSON.stringify(t.slice(0, 80))}${t.length > 80 ? '…' : ''}`;
}

/** What is wrong with a parsed body as a chat completion, or undefined when it is one. */
export function completionProblem(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `JSON that is not an object (${JSON.stringify(body)?.slice(0, 40)})`;
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return `JSON without "choices" (keys: ${Object.keys(body).slice(0, 6).join(', ') || 'none'})`;
  if (choices.length === 0) return 'a completion with no choices';
  const first = choices[0] as { message?: unknown } | null;
  if (!first || typeof first !== 'object' || !first.message || typeof first.message !== 'object') return 'a choice without a message';
  return undefined;
}

/**
 * A `200` that streams (server-sent events) though lexcase asked for one reply (it never sends
 * `stream: true`): a server or proxy that streams every reply. Not retried — every attempt would
 * stream again (before: retried as a malformed body, five attempts, with a hint about the base URL).
 */
export class StreamedReplyError extends Error {
  override readonly name = 'StreamedReplyError';
}

/** The chat completion in a `2xx` response; MalformedReplyError naming what came back otherwise. */
export async function readCompletion<T>(response: Response): Promise<T> {
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (/text\/event-stream/i.test(contentType) || /^\s*data:\s*[{[]/.test(text))
    throw new StreamedReplyError(
      `the endpoint answered HTTP ${response.status} with a stream (server-sent events, ${contentType.split(';')[0] || 'no content type'}) though lexcase asked for one reply: lexcase never streams (no "stream" in its requests); the server or a proxy in between streams every reply — point llm.baseUrl at an endpoint that answers non-streaming chat completions`,
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new MalformedReplyError(`the endpoint answered HTTP ${response.status} with ${describeText(text, contentType)} ${HINT}`);
  }
  const problem = completionProblem(body);
  if (problem) throw new MalformedReplyError(`the endpoint answered HTTP ${response.status} with ${problem} ${HINT}`);
  normaliseUsage(body);
  return body as T;
}
