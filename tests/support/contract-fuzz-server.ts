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
 *   const fuzz = contractFuzz({ seed: 7 });
 *   const srv = await startScriptedServer(fuzz);
 */
import { createHash } from 'node:crypto';
import { forcedTool, requestedSchema, type RecordedRequest, type ScriptReply } from './scripted-openai-server.js';
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

function seedOf(seed: number, req: RecordedRequest): number {
  const h = createHash('sha256').update(String(seed)).update('\0').update(req.text).digest();
  return h.readUInt32LE(0) & 0x7fffffff;
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
  const f = (req: RecordedRequest): ScriptReply => {
    const s = seedOf(o.seed, req);
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
