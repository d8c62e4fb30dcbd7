/**
 * A contract-fuzzing "model" for the scripted OpenAI-compatible server: it honours the
 * structured-output contract and nothing else, the way guided decoding (vLLM), grammars (llama.cpp,
 * Ollama) or OpenAI strict mode do, with values chosen at random within the schema instead of to
 * please the system:
 *  - a request that carries a schema (response_format json_schema, or a forced tool call) gets a
 *    random schema-valid value (schema-values.ts: odd strings, boundary numbers, any enum member,
 *    any allowed array length);
 *  - a request that offers tools (an agent loop) calls one of them — or two at once, a quarter of
 *    the time (parallel tool calls) — with random valid arguments (`toolRate` of the time) or
 *    answers with random text;
 *  - any other request gets random text.
 * Seeded: the reply is a function of the seed and the request body, so a run is the same whatever
 * the order its concurrent requests arrive in. `stats` counts what was answered how.
 * `ignoreBounds`: numbers as llama.cpp's and Ollama's grammars write them — `minimum`, `maximum`
 * and the exclusive bounds are dropped from every schema (structured replies and tool arguments)
 * before a value is drawn, so a bounded number is almost always outside its bounds; the rest of
 * the schema is honoured. `stats.unbounded` counts the replies whose schema had a bound dropped.
 *
 * `repeatIds: true` answers as some OpenAI-compatible servers and proxies do: every completion has
 * the same `id` and every tool call the same id (also the two calls of one reply). `repeatIds:
 * false` gives distinct ids, derived from the seed. With either, the seed is taken from the request
 * with its tool-call ids numbered in order of appearance, so a run against the repeating server
 * and one against the distinct-id server get the same replies and must give the same results
 * (tests/repeated-ids.test.ts). With either, a request whose tool messages do not pair with the
 * tool calls of the assistant message before them (an orphan tool result, or a call without one)
 * is answered HTTP 400, as OpenAI answers it.
 *
 *   const fuzz = contractFuzz({ seed: 7 });
 *   const srv = await startScriptedServer(fuzz);
 */
import { createHash } from 'node:crypto';
import { forcedTool, requestedSchema, roughTokens, type RecordedRequest, type ScriptReply } from './scripted-openai-server.js';
import { sampleText, sampleValue } from './schema-values.js';

export interface FuzzStats {
  structured: number;
  toolCalls: number;
  text: number;
  /** Distinct JSON schemas answered (response formats and forced tools), by schema name. */
  schemas: Map<string, Set<string>>;
  /** Replies drawn from a schema that had numeric bounds dropped (`ignoreBounds`). */
  unbounded: number;
}

export interface ContractFuzzOptions {
  seed: number;
  /** Share of tool-offering requests answered with a tool call (default 0.6). */
  toolRate?: number;
  /** Ignore `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`, as llama.cpp and Ollama do (default false). */
  ignoreBounds?: boolean;
  /** true: one completion id and one tool-call id for every reply; false: distinct ids (see the module doc). */
  repeatIds?: boolean;
}

const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

/** `schema` without numeric bounds (every level), and whether it had any. */
export function withoutBounds(schema: unknown): { schema: unknown; dropped: boolean } {
  let dropped = false;
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(visit);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (BOUNDS.has(k) && typeof x === 'number') dropped = true;
      else out[k] = k === 'enum' ? x : visit(x);
    }
    return out;
  };
  return { schema: visit(schema), dropped };
}

function seedOf(seed: number, req: RecordedRequest, idsBlind = false): number {
  const h = createHash('sha256')
    .update(String(seed))
    .update('\0')
    .update(idsBlind ? withNumberedIds(req) : req.text)
    .digest();
  return h.readUInt32LE(0) & 0x7fffffff;
}

/** The request's messages with each tool-call id replaced by its order of first appearance. */
function withNumberedIds(req: RecordedRequest): string {
  return JSON.stringify({ ...req.body, messages: messagesWithNumberedIds(req) });
}

function messagesWithNumberedIds(req: RecordedRequest): Record<string, any>[] {
  const ids = new Map<string, string>();
  const n = (id: unknown) => (typeof id === 'string' ? (ids.get(id) ?? (ids.set(id, `#${ids.size}`), ids.get(id)!)) : id);
  return ((req.body?.messages ?? []) as Record<string, any>[]).map((m) => ({
    ...m,
    ...(m.tool_call_id !== undefined ? { tool_call_id: n(m.tool_call_id) } : {}),
    ...(Array.isArray(m.tool_calls) ? { tool_calls: m.tool_calls.map((c: Record<string, unknown>) => ({ ...c, id: n(c.id) })) } : {}),
  }));
}

/** Why OpenAI would refuse the request's tool messages (HTTP 400), or undefined when they pair with the calls. */
export function toolPairingProblem(req: RecordedRequest): string | undefined {
  const messages = (req.body?.messages ?? []) as { role: string; tool_call_id?: string; tool_calls?: { id?: string }[] }[];
  let open: string[] | undefined;
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      const at = open?.indexOf(m.tool_call_id ?? '') ?? -1;
      if (at < 0)
        return `Invalid parameter: messages[${i}]: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (tool_call_id ${JSON.stringify(m.tool_call_id)})`;
      open!.splice(at, 1);
      continue;
    }
    if (open?.length)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`;
    open = m.role === 'assistant' && m.tool_calls?.length ? m.tool_calls.map((c) => c.id ?? '') : undefined;
  }
  return undefined;
}

export function contractFuzz(o: ContractFuzzOptions): ((req: RecordedRequest) => ScriptReply) & { stats: FuzzStats } {
  const stats: FuzzStats = { structured: 0, toolCalls: 0, text: 0, schemas: new Map(), unbounded: 0 };
  const toolRate = o.toolRate ?? 0.6;
  const sample = (schema: Record<string, unknown>, seed: number): unknown => {
    if (!o.ignoreBounds) return sampleValue(schema, seed);
    const u = withoutBounds(schema);
    if (u.dropped) stats.unbounded++;
    return sampleValue(u.schema as Record<string, unknown>, seed);
  };
  const ids = o.repeatIds !== undefined;
  const f = (req: RecordedRequest): ScriptReply => {
    if (ids) {
      const problem = toolPairingProblem(req);
      if (problem) return { status: 400, error: problem };
    }
    const reply = answer(req);
    if (!ids) return reply;
    const s = seedOf(o.seed, req, true);
    return {
      ...reply,
      // prompt tokens counted without the ids, so both runs count the same usage
      usage: { prompt_tokens: roughTokens(JSON.stringify(messagesWithNumberedIds(req))) },
      completionId: o.repeatIds ? 'chatcmpl-fuzz' : `chatcmpl-fuzz-${s}`,
      forcedCallId: o.repeatIds ? 'call_fuzz' : `call_${s}_f`,
      ...(reply.toolCalls ? { toolCalls: reply.toolCalls.map((c, j) => ({ ...c, id: o.repeatIds ? 'call_fuzz' : `call_${s}_${j}` })) } : {}),
    };
  };
  const answer = (req: RecordedRequest): ScriptReply => {
    const s = seedOf(o.seed, req, ids);
    const schema = requestedSchema(req);
    if (schema) {
      const name = String(req.body?.response_format?.json_schema?.name ?? forcedTool(req) ?? 'schema');
      if (!stats.schemas.has(name)) stats.schemas.set(name, new Set());
      stats.schemas.get(name)!.add(JSON.stringify(schema));
      stats.structured++;
      return { json: sample(schema, s) };
    }
    const tools = ((req.body?.tools ?? []) as { function?: { name: string; parameters?: Record<string, unknown> } }[]).filter((t) => t.function);
    if (tools.length && req.body?.tool_choice !== 'none' && (s % 1000) / 1000 < toolRate) {
      // one call, or (a quarter of the time) two parallel calls, as models with parallel tool calls make
      const n = (s >> 3) % 4 === 0 ? 2 : 1;
      const calls = Array.from({ length: n }, (_, j) => {
        const t = tools[(s + j) % tools.length].function!;
        return { name: t.name, args: sample(t.parameters ?? { type: 'object', properties: {} }, s + 1 + j) as object };
      });
      stats.toolCalls++;
      return { toolCalls: calls };
    }
    stats.text++;
    return { content: sampleText(s) };
  };
  return Object.assign(f, { stats });
}
