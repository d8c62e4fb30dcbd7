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
 *
 * Structured output is honoured the way real servers (OpenAI, vLLM, llama.cpp) do it: a reply with
 * `json` is sent as a forced tool call when the request forces one (`tool_choice: {type:
 * 'function', function: {name}}`), else as the message content. `schemaFollowing()` is a script
 * that answers every request with an instance of the schema the request carries (response_format
 * json_schema or the forced tool's parameters) and with `unconstrained` text when it carries none,
 * like a guided-decoding server; `requestedSchema(req)` / `instanceOf(schema)` are its parts.
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
  /** Token usage to report (default: rough counts); null sends no `usage` field, as some servers do. */
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  /** Send this `usage` object verbatim (e.g. `{ total_tokens: 116 }` alone, as some proxies do), instead of `usage`. */
  rawUsage?: Record<string, unknown>;
  finishReason?: string;
  /** A structured reply: a forced tool call's arguments when the request forces one, else the content (JSON). */
  json?: unknown;
  /** Send this text verbatim as the arguments of the forced tool call (malformed-arguments tests). */
  rawToolArgs?: string;
  /** Accept the request and never answer (the connection stays open until the client gives up). */
  hang?: boolean;
  /** The completion's `id` (default `chatcmpl-scripted-<request index>`; some servers repeat one id for every reply). */
  completionId?: string;
  /** The id of the forced tool call a `json` or `rawToolArgs` reply is sent as (default `call_<n>`, n counting up). */
  forcedCallId?: string;
  /** The `model` the completion names (default: the model asked, as a server that serves it does; a proxy routing elsewhere names another). */
  replyModel?: string;
  /** Send this many choices (a server that ignores `n`): the first as scripted, each other with its content followed by ` (choice <i>)`. */
  choices?: number;
  /** The completion's `system_fingerprint` (default: none, as many servers send). */
  systemFingerprint?: string;
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
  /** GET /models requests answered (lexcase's preflight makes one per LLM command). */
  readonly modelListings: number;
  close(): Promise<void>;
}

/** Rough token count (≈ 4 characters per token), deterministic, for default usage figures. */
/** A chat completion body (`reply n`) as some servers send it, with `usage` verbatim: a `raw` step's text. */
export function completionWithUsage(n: number, usage: unknown): string {
  return JSON.stringify({
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: `reply ${n}` }, finish_reason: 'stop' }],
    usage,
  });
}

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

/** The function a request forces with tool_choice, if any. */
export function forcedTool(req: RecordedRequest): string | undefined {
  const tc = req.body?.tool_choice;
  return tc && typeof tc === 'object' && tc.type === 'function' ? tc.function?.name : undefined;
}

/** The JSON Schema a request constrains the reply to: response_format json_schema, or the forced tool's parameters. */
export function requestedSchema(req: RecordedRequest): Record<string, any> | undefined {
  const rf = req.body?.response_format;
  if (rf?.type === 'json_schema') return rf.json_schema?.schema ?? {};
  const forced = forcedTool(req);
  if (forced) return (req.body?.tools ?? []).find((t: any) => t.function?.name === forced)?.function?.parameters ?? {};
  return undefined;
}

/** A deterministic instance of a JSON Schema (first enum value, minimum sizes, every property). */
export function instanceOf(schema: Record<string, any> | undefined, root: Record<string, any> | undefined = schema): unknown {
  if (!schema || typeof schema !== 'object') return null;
  if (schema.$ref && root) {
    const path = String(schema.$ref).replace(/^#\//, '').split('/');
    return instanceOf(
      path.reduce((o: any, k) => o?.[k], root),
      root,
    );
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alt)) return instanceOf(alt.find((a: any) => a.type !== 'null') ?? alt[0], root);
  if (Array.isArray(schema.allOf)) return instanceOf(schema.allOf[0], root);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
    case undefined:
      if (!schema.properties && type === undefined) return 'x';
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, instanceOf(v as Record<string, any>, root)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => instanceOf(schema.items, root));
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/**
 * A guided-decoding server: every request that carries a schema gets a schema-valid instance
 * (`fill` may adjust it per request, e.g. to pick a letter); a request without one gets
 * `unconstrained` (prose a prompt-only client cannot parse, by default).
 */
export function schemaFollowing(
  opts: { unconstrained?: (req: RecordedRequest) => ScriptReply; fill?: (value: any, req: RecordedRequest) => unknown } = {},
): (req: RecordedRequest) => ScriptReply {
  return (req) => {
    const schema = requestedSchema(req);
    if (!schema) return opts.unconstrained?.(req) ?? { content: 'Having weighed everything, I lean towards the first option.' };
    const value = instanceOf(schema);
    return { json: opts.fill ? opts.fill(value, req) : value };
  };
}

function jsonIn(text: string): unknown {
  const t = text.replace(/^```(?:json)?\s*|\s*```$/g, '').trim();
  if (!/^[[{]/.test(t)) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/**
 * Wrap a script written as "reply with JSON text" so it behaves like a guided-decoding server:
 * to a request that carries a schema, the JSON goes out structured (content for json_schema, a
 * forced tool call's arguments for tool); to a request that carries none, a JSON reply becomes
 * prose (`unconstrained`), as from a model that was never constrained. Other replies (tool calls,
 * plain text, errors) pass through. `constrained` counts the requests that carried a schema.
 */
export function schemaConstrained(
  script: (req: RecordedRequest, i: number) => ScriptReply | Promise<ScriptReply>,
  unconstrained = 'Let me explain in words instead: the first option seems best.',
): ((req: RecordedRequest, i: number) => Promise<ScriptReply>) & { constrained: number; unconstrainedJson: number } {
  const f = Object.assign(
    async (req: RecordedRequest, i: number): Promise<ScriptReply> => {
      const reply = await script(req, i);
      const json = typeof reply.content === 'string' && !reply.toolCalls?.length ? jsonIn(reply.content) : undefined;
      if (json === undefined) return reply;
      if (requestedSchema(req)) {
        f.constrained++;
        return { ...reply, content: undefined, json };
      }
      f.unconstrainedJson++;
      return { ...reply, content: unconstrained };
    },
    { constrained: 0, unconstrainedJson: 0 },
  );
  return f;
}

function completionBody(req: RecordedRequest, reply: ScriptReply) {
  const forced = forcedTool(req);
  const structured =
    reply.rawToolArgs !== undefined && forced
      ? [{ name: forced, arguments: reply.rawToolArgs }]
      : reply.json !== undefined && forced
        ? [{ name: forced, arguments: JSON.stringify(reply.json) }]
        : [];
  const toolCalls = [
    ...(reply.toolCalls ?? []).map((t) => ({ name: t.name, arguments: JSON.stringify(t.args), id: t.id })),
    ...structured.map((t) => ({ ...t, id: reply.forcedCallId })),
  ].map((t) => ({
    id: t.id ?? `call_${++toolCallCounter}`,
    type: 'function' as const,
    function: { name: t.name, arguments: t.arguments },
  }));
  if (reply.json !== undefined && !forced && reply.content === undefined) reply = { ...reply, content: JSON.stringify(reply.json) };
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
      id: reply.completionId ?? `chatcmpl-scripted-${req.index}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: reply.replyModel ?? req.body?.model ?? 'scripted',
      ...(reply.systemFingerprint ? { system_fingerprint: reply.systemFingerprint } : {}),
      choices: Array.from({ length: Math.max(1, reply.choices ?? 1) }, (_, i) => ({
        index: i,
        message: {
          role: 'assistant',
          content: i && content !== null ? `${content} (choice ${i})` : content,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
        logprobs: null,
      })),
      ...(reply.rawUsage
        ? { usage: reply.rawUsage }
        : reply.usage === null
          ? {}
          : { usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } }),
    },
  };
}

function writeStream(res: ServerResponse, req: RecordedRequest, reply: ScriptReply): void {
  const c = completionBody(req, reply);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const base = { id: c.json.id, object: 'chat.completion.chunk', created: c.json.created, model: c.json.model };
  const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: c.content ?? '' }, finish_reason: null }] });
  c.toolCalls.forEach((t, i) => send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: i, ...t }] }, finish_reason: null }] }));
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: c.json.choices[0].finish_reason }] });
  if (req.body?.stream_options?.include_usage) send({ ...base, choices: [], usage: c.json.usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** How the server presents itself beyond the script (what lexcase's preflight, core/llm/preflight.ts, meets). */
export interface ServerOptions {
  /**
   * Models GET /v1/models lists (default ['scripted']); false: no /models route (404, like some
   * servers). Listings are counted in `modelListings`, not recorded in `requests`.
   */
  models?: string[] | false;
  /** Answer chat requests for a model outside `models` with 404 model_not_found, as OpenAI and vLLM do (default: serve any model, as llama.cpp does). */
  strictModels?: boolean;
  /** Require `Authorization: Bearer <apiKey>` on every request (else 401 invalid_api_key, as OpenAI does). */
  apiKey?: string;
  /**
   * Extra fields of each GET /models entry, as a server describes its model (llama.cpp's `meta`, vLLM's `root`, Ollama's `created`).
   * Read at each listing: setting it on the options object passed in swaps the model behind the same URL and name.
   */
  modelFields?: Record<string, unknown>;
  /** Listen on this port of 127.0.0.1 (default: any free one): a second server on a closed one's port is the same URL. */
  port?: number;
}

export async function startScriptedServer(script: Script, opts: ServerOptions = {}): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const listed = opts.models === false ? undefined : (opts.models ?? ['scripted']);
  let modelListings = 0;
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
    const path = (req.url ?? '/').split('?')[0];
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-***.', type: 'invalid_request_error', code: 'invalid_api_key' } }));
      return;
    }
    if (req.method === 'GET' && /\/models$/.test(path) && listed) {
      modelListings++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: listed.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted', ...opts.modelFields })) }));
      return;
    }
    const rec: RecordedRequest = { index: requests.length, method: req.method ?? 'GET', path: req.url ?? '/', body, headers: req.headers, text };
    requests.push(rec);
    if (opts.strictModels && listed && /\/chat\/completions$/.test(path) && !listed.includes((body as { model?: string })?.model ?? '')) {
      const m = (body as { model?: string })?.model;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `The model \`${m}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found' },
        }),
      );
      return;
    }
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
      if (reply.hang) {
        await new Promise<void>((r) => res.on('close', () => r()));
        return;
      }
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

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    get modelListings() {
      return modelListings;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
