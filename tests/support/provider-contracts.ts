/**
 * The request contract of each LLM server a provider preset targets (core/llm/providers.ts), as a
 * wrapper around a scripted-server script: a request the real server would refuse gets the error
 * it would answer with, and what the server ignores is dropped before the script sees it. The
 * rules are the documented (and observed) behaviour of each server:
 *
 *  openai    unknown request fields → 400 "Unrecognized request argument supplied"; a json_schema
 *            response format needs a name [A-Za-z0-9_-]{1,64}; with `strict: true` the schema
 *            (and a strict tool's parameters) must be in the strict subset → 400 "Invalid schema
 *            for response_format '<name>': …"; a forced tool must be one of `tools`; tool messages
 *            must answer the preceding assistant tool calls, and every call must be answered.
 *  vllm      tools with automatic choice need the server started with --enable-auto-tool-choice
 *            and --tool-call-parser (else 400 '"auto" tool choice requires …'); a json_schema
 *            response format needs its schema; a forced tool must be one of `tools`.
 *  ollama    a json_schema response format needs its schema; `strict` and `tool_choice` are
 *            ignored (Ollama never forces a tool: a forced-tool structured output gets prose).
 *  llamacpp  tools need the server started with --jinja (else 500 "tools param requires --jinja
 *            flag"); a schema the grammar converter cannot take (a pattern not anchored with ^…$, an
 *            unknown format, a remote $ref) → 400; `strict` is ignored.
 *  generic   an OpenAI-shaped request (model and messages).
 * `rejected` lists what was refused, for tests to assert on.
 */
import type { LlmProvider } from '../../core/llm/providers.js';
import { strictSchemaProblems } from '../../core/llm/strict-schema.js';
import type { RecordedRequest, ScriptReply } from './scripted-openai-server.js';

export interface ServerFlags {
  /** vLLM: started with --enable-auto-tool-choice --tool-call-parser <p> (docs/llm.md does). */
  autoToolChoice?: boolean;
  /** llama.cpp: started with --jinja (docs/llm.md does). */
  jinja?: boolean;
}

type Refusal = { status: number; error: string };

const OPENAI_FIELDS = new Set([
  'model',
  'messages',
  'temperature',
  'top_p',
  'n',
  'stream',
  'stream_options',
  'stop',
  'max_tokens',
  'max_completion_tokens',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'user',
  'seed',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
  'service_tier',
  'store',
  'metadata',
  'modalities',
  'prediction',
  'audio',
  'verbosity',
  'prompt_cache_key',
  'safety_identifier',
]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

function forcedName(body: Body): string | undefined {
  const tc = body.tool_choice;
  return tc && typeof tc === 'object' && tc.type === 'function' ? tc.function?.name : undefined;
}

function toolNames(body: Body): string[] {
  return (body.tools ?? []).map((t: Body) => t.function?.name);
}

function openaiRefusal(body: Body): Refusal | undefined {
  for (const k of Object.keys(body)) if (!OPENAI_FIELDS.has(k)) return { status: 400, error: `Unrecognized request argument supplied: ${k}` };
  if (!body.model) return { status: 400, error: 'you must provide a model parameter' };
  const rf = body.response_format;
  if (rf?.type === 'json_schema') {
    const name = rf.json_schema?.name;
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
      return { status: 400, error: "Invalid 'response_format.json_schema.name': string does not match pattern" };
    if (rf.json_schema?.strict === true) {
      const p = strictSchemaProblems(rf.json_schema.schema);
      if (p.length) return { status: 400, error: `Invalid schema for response_format '${name}': ${p[0]}` };
    }
  }
  for (const t of body.tools ?? []) {
    if (t.function?.strict === true) {
      const { $schema: _s, ...params } = t.function.parameters ?? {};
      const p = strictSchemaProblems(params);
      if (p.length) return { status: 400, error: `Invalid schema for function '${t.function.name}': ${p[0]}` };
    }
  }
  const forced = forcedName(body);
  if (forced && !toolNames(body).includes(forced))
    return { status: 400, error: `Invalid value for 'tool_choice': no function named '${forced}' was specified in the 'tools' parameter` };
  const msgs = (body.messages ?? []) as Body[];
  const open = new Set<string>();
  for (const m of msgs) {
    if (m.role === 'tool') {
      if (!open.delete(m.tool_call_id))
        return { status: 400, error: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." };
    } else {
      if (open.size)
        return { status: 400, error: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'." };
      for (const c of m.tool_calls ?? []) open.add(c.id);
    }
  }
  if (open.size) return { status: 400, error: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'." };
  return undefined;
}

function grammarProblem(schema: unknown): string | undefined {
  const visit = (n: unknown): string | undefined => {
    if (!n || typeof n !== 'object') return undefined;
    const o = n as Body;
    if (typeof o.pattern === 'string' && !(o.pattern.startsWith('^') && o.pattern.endsWith('$')))
      return `pattern must start with "^" and end with "$": ${o.pattern}`;
    if (typeof o.format === 'string' && !['date', 'time', 'date-time', 'uuid'].includes(o.format)) return `unsupported format: ${o.format}`;
    if (typeof o.$ref === 'string' && !o.$ref.startsWith('#')) return `unsupported ref: ${o.$ref}`;
    for (const v of Object.values(o)) {
      const p = Array.isArray(v) ? v.map(visit).find(Boolean) : visit(v);
      if (p) return p;
    }
    return undefined;
  };
  return visit(schema);
}

/** The refusal `provider`'s server gives `body`, if any. */
export function refusalOf(provider: LlmProvider, body: Body, flags: ServerFlags = {}): Refusal | undefined {
  if (!body?.model || !Array.isArray(body.messages)) return { status: 400, error: 'model and messages are required' };
  const rf = body.response_format;
  const auto = (body.tools?.length ?? 0) > 0 && (body.tool_choice === undefined || body.tool_choice === 'auto');
  switch (provider) {
    case 'openai':
      return openaiRefusal(body);
    case 'vllm':
      if (rf?.type === 'json_schema' && !rf.json_schema?.schema) return { status: 400, error: 'json_schema.schema is required' };
      if (auto && !flags.autoToolChoice)
        return { status: 400, error: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' };
      if (forcedName(body) && !toolNames(body).includes(forcedName(body)!))
        return { status: 400, error: `Tool '${forcedName(body)}' has not been passed in \`tools\`.` };
      return undefined;
    case 'ollama':
      if (rf?.type === 'json_schema' && !rf.json_schema?.schema) return { status: 400, error: 'invalid response_format: json_schema.schema is required' };
      return undefined;
    case 'llamacpp': {
      if ((body.tools?.length ?? 0) > 0 && !flags.jinja) return { status: 500, error: 'tools param requires --jinja flag' };
      const schema = rf?.type === 'json_schema' ? rf.json_schema?.schema : undefined;
      const p = grammarProblem(schema) ?? (body.tools ?? []).map((t: Body) => grammarProblem(t.function?.parameters)).find(Boolean);
      if (p) return { status: 400, error: `JSON schema conversion failed: ${p}` };
      return undefined;
    }
    case 'generic':
      return undefined;
  }
}

/** What the server ignores, dropped before the model (the script) sees the request. */
function asServed(provider: LlmProvider, req: RecordedRequest): RecordedRequest {
  if (provider !== 'ollama' || req.body?.tool_choice === undefined) return req;
  const { tool_choice: _ignored, ...body } = req.body;
  return { ...req, body };
}

/** `script` behind `provider`'s request contract. */
export function enforcing(
  provider: LlmProvider,
  script: (req: RecordedRequest, i: number) => ScriptReply | Promise<ScriptReply>,
  flags: ServerFlags = {},
): ((req: RecordedRequest, i: number) => Promise<ScriptReply>) & { rejected: string[] } {
  const rejected: string[] = [];
  const f = async (req: RecordedRequest, i: number): Promise<ScriptReply> => {
    const r = refusalOf(provider, req.body, flags);
    if (r) {
      rejected.push(r.error);
      return { status: r.status, error: r.error };
    }
    return script(asServed(provider, req), i);
  };
  return Object.assign(f, { rejected });
}
