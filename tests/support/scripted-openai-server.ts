/**
 * A real HTTP server on 127.0.0.1 (random port) that speaks the OpenAI chat-completions API and
 * answers from a script, for testing lexcase against the REAL @langchain/openai client.
 *
 *   const srv = await startScriptedServer([{ toolCalls: [{ name: 'bm25_search', args: { query: 'x' } }] },
 *                                          { content: 'final answer' }]);
 *   const model = createChatModel({ ...cfg, baseUrl: srv.url, model: 'scripted' });
 *   ...; expect(srv.requests[0].body.tools).toHaveLength(1); await srv.close();
 *
 * The script is a list of replies taken in order (a request past the end gets HTTP 500 "script
 * exhausted", so a test sees unexpected extra calls), or a function (request, index) → reply.
 * Replies can be content, tool calls, an HTTP error status, a delay (to force client timeouts) or a
 * raw (malformed) body. Every request is recorded (parsed body + headers) so tests can assert on
 * prompts, tools and headers; `maxInFlight` shows the most requests the server had open at once.
 * Supports `stream: true` (SSE) too.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptToolCall {
  name: string;
  args: object;
  id?: string;
}

export interface ScriptReply {
  content?: string;
  toolCalls?: ScriptToolCall[];
  /** HTTP status to answer with instead of a completion (e.g. 429, 500). */
  status?: number;
  /** Error message for a status reply. */
  error?: string;
  /** Extra response headers (e.g. {'retry-after': '0'}). */
  headers?: Record<string, string>;
  /** Wait this long before answering (to force client timeouts). */
  delayMs?: number;
  /** Send this body verbatim with status 200 and content-type application/json (malformed JSON tests). */
  raw?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  finishReason?: string;
}

export type ScriptStep = ScriptReply;

export interface RecordedRequest {
  /** Index of this request (0-based, in arrival order). */
  index: number;
  method: string;
  path: string;
  /** Parsed JSON request body: model, messages, tools, temperature, ... */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: IncomingHttpHeaders;
  /** Raw body text. */
  text: string;
}

export type Script = ScriptStep[] | ((req: RecordedRequest, i: number) => ScriptReply | Promise<ScriptReply>);

export interface ScriptedServer {
  /** Base URL for the OpenAI client, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  requests: RecordedRequest[];
  /** Most chat-completion requests open at the same time. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** Rough token count (≈ 4 characters per token), deterministic, for default usage figures. */
export function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

let toolCallCounter = 0;

function completionBody(req: RecordedRequest, reply: ScriptReply) {
  const toolCalls = (reply.toolCalls ?? []).map((t) => ({
    id: t.id ?? `call_${++toolCallCounter}`,
    type: 'function' as const,
    function: { name: t.name, arguments: JSON.stringify(t.args) },
  }));
  const content = reply.content ?? (toolCalls.length ? null : '');
  const promptTokens = reply.usage?.prompt_tokens ?? roughTokens(JSON.stringify(req.body?.messages ?? ''));
  const completionTokens =
    reply.usage?.completion_tokens ?? roughTokens((content ?? '') + toolCalls.map((t) => t.function.name + t.function.arguments).join(''));
  return {
    toolCalls,
    content,
    promptTokens,
    completionTokens,
    json: {
      id: `chatcmpl-scripted-${req.index}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: req.body?.model ?? 'scripted',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
          finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
  };
}

function writeStream(res: ServerResponse, req: RecordedRequest, reply: ScriptReply): void {
  const c = completionBody(req, reply);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const base = { id: c.json.id, object: 'chat.completion.chunk', created: c.json.created, model: c.json.model };
  const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: c.content ?? '' }, finish_reason: null }] });
  c.toolCalls.forEach((t, i) =>
    send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: i, ...t }] }, finish_reason: null }] }),
  );
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: c.json.choices[0].finish_reason }] });
  if (req.body?.stream_options?.include_usage) send({ ...base, choices: [], usage: c.json.usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const rec: RecordedRequest = { index: requests.length, method: req.method ?? 'GET', path: req.url ?? '/', body, headers: req.headers, text };
    requests.push(rec);
    if (!/\/chat\/completions$/.test(rec.path.split('?')[0])) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `scripted server: no route ${rec.method} ${rec.path}`, type: 'invalid_request_error' } }));
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let closed = false;
    res.on('close', () => (closed = true));
    try {
      let reply: ScriptReply;
      if (typeof script === 'function') reply = await script(rec, rec.index);
      else {
        const chatIndex = requests.filter((r) => /\/chat\/completions/.test(r.path)).indexOf(rec);
        reply = script[chatIndex] ?? { status: 500, error: `scripted server: script exhausted (request ${chatIndex + 1}, script has ${script.length})` };
      }
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (closed) return;
      if (reply.raw !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.raw);
      } else if (reply.status && reply.status !== 200) {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify({ error: { message: reply.error ?? `scripted error ${reply.status}`, type: 'server_error', code: null } }));
      } else if ((rec.body as { stream?: boolean })?.stream) writeStream(res, rec, reply);
      else {
        res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(completionBody(rec, reply).json));
      }
    } catch (e) {
      if (!closed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted server: ${(e as Error).message}`, type: 'server_error' } }));
      }
    } finally {
      inFlight--;
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
