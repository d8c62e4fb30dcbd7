/**
 * Structured LLM outputs validated with zod, using the endpoint's structured output. The mode comes
 * from the model (factory models: `llm.structuredOutput` in the config, default json_schema):
 *  - json_schema: `response_format: {type: 'json_schema', json_schema: {name, schema}}` — the
 *    server constrains the reply to the schema (OpenAI, vLLM, Ollama, llama.cpp server);
 *  - tool: a forced tool call (`tools: [fn]`, `tool_choice: fn`) whose arguments are the object;
 *  - prompt: JSON asked for in the prompt only (any server; models without the factory, e.g. the
 *    fake chat model in tests).
 * These are the same request fields LangChain's `withStructuredOutput` (method 'jsonSchema' /
 * 'functionCalling') sets; they are passed as call options so the raw reply stays available for
 * traces and per-stage token tallies. An endpoint that rejects structured output (HTTP 400/422)
 * makes the model fall back to prompt mode for the rest of the process, with one warning.
 *
 * Every reply is parsed tolerantly (code fences, prose around the object) and validated. A number
 * outside an inclusive bound of the sent schema (a server that ignores minimum/maximum) is clamped
 * to the bound when that makes the reply valid, and counted (bound-repair.ts: the item's tally,
 * results.jsonl `repairs`, report.md). On any other failure the model is asked once more with the
 * validation error (re-ask). A second failure throws
 * LLM_OUTPUT_INVALID carrying the raw replies and any malformed tool-call arguments
 * (`structuredFailure(e)`), which callers record as a failed step.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { z } from 'zod';
import { errors, isLexcaseError } from '../errors.js';
import { log } from '../log.js';
import { countRepairs, describeRepair, repairBounds, type BoundRepair } from './bound-repair.js';
import { rejectReply } from './cache-validation.js';
import { conflictingKey, conflictingKeyMessage } from './json-duplicate-keys.js';
import { jsonSchemaFor } from './json-schema.js';
import { withCall, type CallScope } from './record-replay.js';
import { countTextOtherAnswer, otherAnswerBeside, reasoningOf, type Beside } from './text-beside-call.js';

/**
 * Text content of a chat reply (string or content parts). A server that sends `content` as a JSON
 * object (the answer itself, not its text) gives that object's JSON text; before, every reader
 * failed the item with "c.map is not a function".
 */
export function messageText(msg: BaseMessage): string {
  const c = msg.content as unknown;
  if (typeof c === 'string') return c;
  if (c === null || c === undefined) return '';
  if (!Array.isArray(c)) return typeof c === 'object' ? JSON.stringify(c) : String(c);
  return (c as unknown[])
    .map((p) => (typeof p === 'string' ? p : p && typeof p === 'object' && 'text' in p && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

/**
 * A reply's text without the reasoning a reasoning model writes before its answer (DeepSeek-R1,
 * Qwen3, QwQ served without a reasoning parser): leading `<think>…</think>` (or `<thinking>…
 * </thinking>`) blocks, and the reasoning before a lone closing tag (chat templates that open the
 * block in the prompt). A block never closed — the reply was cut off while the model was still
 * reasoning — leaves nothing: a draft answer inside it is not the model's answer. A gpt-oss reply
 * whose Harmony channels the server left in the content (`<|channel|>analysis<|message|>…<|end|>
 * <|start|>assistant<|channel|>final<|message|>…`) is its final channel's message; one with no
 * final channel (cut off in its analysis) leaves nothing.
 */
export function withoutReasoning(text: string): string {
  let t = harmonyFinal(text);
  for (let m = LEADING_THINK.exec(t); m; m = LEADING_THINK.exec(t)) t = t.slice(m[0].length);
  if (/^\s*<think(?:ing)?>/i.test(t)) return '';
  const close = /<\/think(?:ing)?>/i.exec(t);
  if (close && !/<think(?:ing)?>/i.test(t.slice(0, close.index)) && !/^\s*[[{]/.test(t)) t = t.slice(close.index + close[0].length);
  return t;
}
const LEADING_THINK = /^\s*<(think|thinking)>[\s\S]*?<\/\1>/i;

/** Harmony's marker of a channel's message (gpt-oss): `<|channel|>NAME<|message|>`, NAME possibly followed by a recipient or constraint. */
const HARMONY_CHANNEL = /<\|channel\|>\s*([A-Za-z]+)[^<]*<\|message\|>/g;

/** The final channel's message of a reply in Harmony format, up to its end marker; '' where there is none; the text itself where it holds no channel marker. */
function harmonyFinal(text: string): string {
  const channels = [...text.matchAll(HARMONY_CHANNEL)];
  if (!channels.length) return text;
  const final = channels.filter((m) => m[1].toLowerCase() === 'final').at(-1);
  if (!final) return '';
  const rest = text.slice((final.index ?? 0) + final[0].length);
  const end = /<\|(?:end|return|call)\|>/.exec(rest);
  return end ? rest.slice(0, end.index) : rest;
}

/**
 * Pull the JSON object or array out of a reply: the whole text, else the fenced blocks and the
 * balanced `{…}` / `[…]` slices around them. The whole text comes first: a reply that is JSON may
 * hold a fence inside a string. A reasoning model's `<think>` block (or Harmony analysis channel)
 * is no part of the answer (withoutReasoning): a draft object inside it would otherwise be taken
 * for the answer. A reply that holds two different objects (a draft, then a revision: `{…} On
 * reflection: {…}`, or two fenced blocks) names no one answer: it is refused, never read as either.
 */
export function extractJson(reply: string): unknown {
  const text = withoutReasoning(reply);
  if (!text.trim() && reply.trim())
    throw new Error(
      /<\|channel\|>/.test(reply)
        ? 'no JSON object found in the reply (only a Harmony analysis channel, no final one: cut off at the token limit?)'
        : 'no JSON object found in the reply (only a <think> reasoning block that was never closed: cut off at the token limit?)',
    );
  try {
    return parseJsonAnswer(text.trim());
  } catch (e) {
    if (e instanceof ConflictingKeyError) throw e;
    /* not JSON as a whole */
  }
  const found: JsonSlice[] = [];
  const fence = /```(?:json)?\s*([\s\S]*?)```/gi;
  let outside = '';
  let from = 0;
  for (const m of text.matchAll(fence)) {
    outside += `${text.slice(from, m.index)}\n`;
    from = (m.index ?? 0) + m[0].length;
    try {
      found.push({ json: parseJsonAnswer(m[1].trim()) });
    } catch (e) {
      if (e instanceof ConflictingKeyError) throw e;
      found.push(...jsonSlices(m[1]));
    }
  }
  found.push(...jsonSlices(outside + text.slice(from)));
  // a fence mark inside a string (`{"a": "```"}`) is no fence: the text read whole
  if (!found.some((f) => f.json !== undefined)) found.push(...jsonSlices(text));
  const objects = found.filter((f) => f.json !== null && typeof f.json === 'object' && !Array.isArray(f.json));
  const read = objects.length ? objects : found.filter((f) => Array.isArray(f.json));
  const distinct = new Set([...read, ...found.filter((f) => f.malformed)].map((f) => (f.malformed ? `\u0000${f.malformed}` : JSON.stringify(f.json))));
  if (read.length && distinct.size > 1)
    throw new Error(`the reply holds ${distinct.size} different JSON objects (a draft and a revision?): none is taken for the answer`);
  if (read.length) return read[0].json;
  throw new Error('no JSON object found in the reply');
}

/** A reply whose object names one key twice with different values (json-duplicate-keys.ts): refused, never read as either. */
class ConflictingKeyError extends Error {}

/** JSON.parse of `text`, refusing an object that names one key twice with different values (JSON.parse keeps the last silently). */
function parseJsonAnswer(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  const c = conflictingKey(text);
  if (c) throw new ConflictingKeyError(conflictingKeyMessage(c));
  return value;
}

/** The JSON value of `text` (extractJson), or undefined where it holds none or several. */
function tryExtractJson(text: string): unknown {
  try {
    return extractJson(text);
  } catch {
    return undefined;
  }
}

/** A balanced slice of a reply: its JSON value, or (`malformed`) its text where it looks like JSON (`"key":`) but does not parse; `at`: where it starts and ends. */
type JsonSlice = ({ json: unknown; malformed?: undefined } | { json?: undefined; malformed: string }) & { at?: [number, number] };

/**
 * A text reply's prose: its text (reasoning dropped, withoutReasoning) with its fenced blocks and JSON values cut
 * out ("The answer is C.\n```json {…}```" → "The answer is C."), read beside its answer (text-beside-call.ts).
 */
function proseOutsideJson(reply: string): string {
  const text = withoutReasoning(reply).replace(/```(?:json)?[\s\S]*?```/gi, '\n');
  let out = '';
  let from = 0;
  for (const s of jsonSlices(text))
    if (s.json !== undefined && s.at) {
      out += `${text.slice(from, s.at[0])}\n`;
      from = s.at[1];
    }
  return out + text.slice(from);
}

/**
 * The outermost balanced `{…}` and `[…]` slices of `t`, in order: each one's JSON value, or the
 * slice as `malformed` where it looks like a JSON object but does not parse (an unclosed last one
 * too: the rest of the text); braces in prose ("{duty, breach}", "[P3]") are neither.
 */
function jsonSlices(t: string): JsonSlice[] {
  const out: JsonSlice[] = [];
  let start = t.search(/[[{]/);
  while (start >= 0) {
    let depth = 0;
    let inStr = false;
    let end = -1;
    for (let i = start; i < t.length; i++) {
      const ch = t[i];
      if (inStr) {
        if (ch === '\\') i++;
        else if (ch === '"') inStr = false;
      } else if (ch === '"') inStr = true;
      else if (ch === '{' || ch === '[') depth++;
      else if ((ch === '}' || ch === ']') && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) {
      // an object that never closes (a reply cut at the token limit while the model wrote its revision) is no
      // answer, but it is there: kept as malformed, so a complete draft before it is not read as the only answer
      // (before, the cut revision was dropped and the withdrawn draft's "A" scored where the model moved to "C")
      // after a complete object only: an unclosed one alone is a reply that holds none (or, in a fence, a fence mark
      // inside a string: `{"a": "```x"}`)
      const rest = t.slice(start);
      if (out.some((s) => s.json !== undefined) && /"\s*:/.test(rest)) out.push({ malformed: rest, at: [start, t.length] });
      break;
    }
    const slice = t.slice(start, end + 1);
    try {
      out.push({ json: parseJsonAnswer(slice), at: [start, end + 1] });
    } catch (e) {
      if (e instanceof ConflictingKeyError) throw e;
      if (/"\s*:/.test(slice)) out.push({ malformed: slice, at: [start, end + 1] });
    }
    const next = t.slice(end + 1).search(/[[{]/);
    start = next < 0 ? -1 : end + 1 + next;
  }
  return out;
}

export function parseStructured<S extends z.ZodType>(text: string, schema: S): z.infer<S> {
  return validate(extractJson(text), schema);
}

/**
 * `json` validated against `schema`; when it fails, numbers outside an inclusive bound of the
 * schema as sent (jsonSchemaFor) are clamped to it (bound-repair.ts) and the result validated
 * again. Throws the first issue of the reply as received when even that is not valid.
 */
function validateRepairing<S extends z.ZodType>(json: unknown, schema: S): { value: z.infer<S>; repairs: BoundRepair[] } {
  const r = schema.safeParse(json);
  if (r.success) return { value: r.data, repairs: [] };
  let fixed: { value: unknown; repairs: BoundRepair[] } = { value: json, repairs: [] };
  try {
    fixed = repairBounds(json, jsonSchemaFor(schema));
  } catch {
    /* a schema that cannot be rendered has no bounds to repair to */
  }
  if (fixed.repairs.length) {
    const again = schema.safeParse(fixed.value);
    if (again.success) return { value: again.data, repairs: fixed.repairs };
  }
  const issue = r.error.issues[0];
  throw new Error(`field "${issue.path.join('.') || '(root)'}": ${issue.message}`);
}

export type StructuredOutputMode = 'json_schema' | 'tool' | 'prompt';
export const STRUCTURED_OUTPUT_MODES: readonly StructuredOutputMode[] = ['json_schema', 'tool', 'prompt'];

/** Shared, mutable structured-output setting of a factory model and its bound copies. */
export interface StructuredOutputSetting {
  structuredOutput?: StructuredOutputMode;
  /** Send `strict: true` with the schema (core/llm/providers.ts decides per server). */
  strict?: boolean;
  /** Send `strict: true` on the agent-loop tools a structured request carries (the preset's "tools strict"). */
  strictTools?: boolean;
}

/** The setting of a factory model, also through a bound copy (`bindTools(...)`, a RunnableBinding). */
function settingOf(model: unknown): StructuredOutputSetting | undefined {
  for (let m = model as { lexcase?: StructuredOutputSetting; bound?: unknown } | undefined, i = 0; m && i < 5; m = m.bound as typeof m, i++)
    if (m.lexcase) return m.lexcase;
  return undefined;
}

/** The structured-output mode a model uses: factory models carry it; any other model gets 'prompt'. */
export function structuredOutputMode(model: unknown): StructuredOutputMode {
  return settingOf(model)?.structuredOutput ?? 'prompt';
}

/** What a structured request sends, for observers (tests enumerate every schema every system sends). */
export interface SentSchema {
  what: string;
  name: string;
  mode: StructuredOutputMode;
  schema: z.ZodType;
  json: Record<string, unknown>;
}
const schemaObservers = new Set<(s: SentSchema) => void>();

/** Call `fn` with every schema a structured request sends from now on; returns the unsubscribe. */
export function observeSentSchemas(fn: (s: SentSchema) => void): () => void {
  schemaObservers.add(fn);
  return () => schemaObservers.delete(fn);
}

function notifySent(what: string, name: string, mode: StructuredOutputMode, schema: z.ZodType): void {
  if (mode === 'prompt' || schemaObservers.size === 0) return;
  const json = jsonSchemaFor(schema);
  for (const fn of schemaObservers) fn({ what, name, mode, schema, json });
}

/** A tool call whose arguments were not valid JSON (as LangChain reports it). */
export interface InvalidToolCall {
  name?: string;
  args?: string;
  error?: string;
}

export interface StructuredResult<T> {
  value: T;
  /** Raw replies, first try first (kept for traces): the text, or the tool-call arguments. */
  raw: string[];
  attempts: number;
  mode?: StructuredOutputMode;
  /** Malformed tool-call arguments received along the way (tool mode). */
  invalidToolCalls?: InvalidToolCall[];
  /** Numbers clamped into the schema's bounds ("scores.s1.score 7 → 1"), when any were (bound-repair.ts). */
  repaired?: string[];
}

/** What an LLM_OUTPUT_INVALID from invokeStructured carries for the trace. */
export interface StructuredFailure {
  raw: string[];
  invalidToolCalls: InvalidToolCall[];
  mode?: StructuredOutputMode;
}

/** The raw replies and malformed tool calls behind a structured-output failure (empty for other errors). */
export function structuredFailure(e: unknown): StructuredFailure {
  const f = (e as { structured?: StructuredFailure })?.structured;
  return f ?? { raw: [], invalidToolCalls: [] };
}

/** A function/schema name servers accept: [A-Za-z0-9_-]{1,64}. */
export function schemaName(what: string): string {
  return (
    what
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 64) || 'output'
  );
}

/** Whether `model`'s structured requests carry `strict: true`. */
function strictOf(model: unknown): boolean {
  return settingOf(model)?.strict === true;
}

/** Whether the agent-loop tools bound to `model` carry `strict: true` (the preset's "tools strict"). */
function strictToolsOf(model: unknown): boolean {
  return settingOf(model)?.strictTools === true;
}

function requestOptions(
  mode: StructuredOutputMode,
  name: string,
  schema: z.ZodType,
  signal?: AbortSignal,
  strict = false,
  strictTools = false,
): Record<string, unknown> {
  if (mode === 'prompt') return { signal };
  const parameters = jsonSchemaFor(schema);
  const s = strict ? { strict: true } : {};
  // `strict` as a call option: LangChain otherwise marks every tool bound to the model (a MAD
  // debater's snippet tools) strict whenever the response format is json_schema, whatever the preset
  if (mode === 'json_schema') return { signal, strict: strictTools, response_format: { type: 'json_schema', json_schema: { name, ...s, schema: parameters } } };
  return {
    signal,
    tools: [{ type: 'function', function: { name, description: `Return the ${name.replace(/_/g, ' ')} as the arguments of this call.`, parameters, ...s } }],
    tool_choice: { type: 'function', function: { name } },
  };
}

type Reply = BaseMessage & { tool_calls?: { name: string; args: unknown; id?: string }[]; invalid_tool_calls?: InvalidToolCall[] };
/** `content`: a forced call's reply text beside the call (reasoning dropped), checked for another answer (text-beside-call.ts). */
type ReadReply = { json?: unknown; text: string; invalid?: InvalidToolCall; several?: number; content?: string; refusal?: string; conflict?: string };

/** The refusal a reply carries (OpenAI's `message.refusal`, kept by chat-openai.ts), if any. */
export function refusalOf(reply: BaseMessage): string | undefined {
  const r = (reply as { additional_kwargs?: { refusal?: unknown } }).additional_kwargs?.refusal;
  return typeof r === 'string' && r.trim() ? r : undefined;
}

/** An item's error for a refused reply: the model's own words, cut at 200 characters. */
export function refusalText(refusal: string): string {
  const t = refusal.trim().replace(/\s+/g, ' ');
  return `the model refused (its reply's \`refusal\`, no content): ${JSON.stringify(t.length > 200 ? `${t.slice(0, 200)}…` : t)}`;
}

/**
 * The candidate object of a reply and its raw text: tool-call arguments in tool mode, else the text.
 * Several calls of the forced function (parallel calls: a draft, then the answer) with different
 * arguments name no one answer (`several`): refused like two objects in a text reply.
 */
function readReply(reply: Reply, mode: StructuredOutputMode, name: string): ReadReply {
  const refusal = refusalOf(reply);
  if (refusal && !reply.tool_calls?.length && !messageText(reply).trim()) return { text: '', refusal };
  if (mode === 'tool') {
    const named = reply.tool_calls?.filter((c) => c.name === name) ?? [];
    const calls = named.length ? named : (reply.tool_calls ?? []);
    const call = calls[0];
    const distinct = new Set(calls.map((c) => JSON.stringify(c.args))).size;
    if (call && distinct > 1) return { text: calls.map((c) => JSON.stringify(c.args)).join('\n'), several: distinct };
    const raw = call && rawArguments(reply, call.id);
    const conflict = raw === undefined ? undefined : conflictingKey(raw);
    if (raw !== undefined && conflict) return { text: raw, conflict: conflictingKeyMessage(conflict) };
    if (call) return { json: call.args, text: JSON.stringify(call.args), content: withoutReasoning(messageText(reply)) };
    const bad = reply.invalid_tool_calls?.[0];
    if (bad) return { text: bad.args ?? '', invalid: { name: bad.name, args: bad.args, error: bad.error } };
  }
  return { text: messageText(reply) };
}

/** A tool call's arguments as the server sent them (LangChain keeps the raw calls in `additional_kwargs`; its parsed `args` kept a repeated key's last value). */
function rawArguments(reply: Reply, id: string | undefined): string | undefined {
  const raw = (reply.additional_kwargs?.tool_calls ?? []) as { id?: string; function?: { arguments?: unknown } }[];
  const args = raw.find((c) => c?.id === id)?.function?.arguments;
  return typeof args === 'string' ? args : undefined;
}

function validate<S extends z.ZodType>(json: unknown, schema: S): z.infer<S> {
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`field "${issue.path.join('.') || '(root)'}": ${issue.message}`);
  }
  return r.data;
}

/** The reply's object, validated (numbers clamped into bounds and counted under `what`); throws why it is not valid. */
function readValue<S extends z.ZodType>(got: ReadReply, schema: S, what: string): { value: z.infer<S>; repairs: BoundRepair[] } {
  if (got.refusal) throw new Error(refusalText(got.refusal));
  if (got.invalid) throw new Error(`malformed tool-call arguments (${got.invalid.error ?? 'not JSON'})`);
  if (got.conflict) throw new Error(got.conflict);
  if (got.several) throw new Error(`the reply holds ${got.several} calls with different arguments (a draft and a revision?): none is taken for the answer`);
  const obj = got.json !== undefined ? got.json : extractJson(got.text);
  const checked = validateRepairing(obj, schema);
  countRepairs(what, checked.repairs);
  // the text beside the answer read: a forced call's `content` (a JSON object in it read for its field), else the
  // prose around a text reply's object; and the object's reasoning fields, in every mode
  const beside: Beside[] = [
    ...(got.json !== undefined
      ? got.content?.trim()
        ? [{ text: got.content, json: tryExtractJson(got.content) }]
        : []
      : [{ text: proseOutsideJson(got.text) }]),
    ...reasoningOf(obj, schema),
  ];
  const other = otherAnswerBeside(beside, obj, checked.value, schema);
  if (other) countTextOtherAnswer(what, other, got.json !== undefined ? 'call' : 'field');
  return checked;
}

/**
 * One structured request without the repair loop, for callers with their own reply handling (e.g.
 * a reply that may be a TERMINATE abstention): `invoke` sends it in `model`'s mode (an endpoint that
 * refuses structured output switches the model to prompt mode, as invokeStructured does), and
 * `read` returns the parsed, validated value or the raw text and the parse error. The reader leaves
 * the reply in the response cache; a caller whose step fails drops its replies (rejectReply).
 */
export function structuredRequest<S extends z.ZodType>(model: BaseChatModel, schema: S, what: string, signal?: AbortSignal) {
  let mode = structuredOutputMode(model);
  const name = schemaName(what);
  notifySent(what, name, mode, schema);
  const options = () => requestOptions(mode, name, schema, signal, strictOf(model), strictToolsOf(model));
  return {
    /** The mode the next request is sent in (prompt after the endpoint refused structured output). */
    get mode(): StructuredOutputMode {
      return mode;
    },
    /** The call options of the next request. */
    get options(): Record<string, unknown> {
      return options();
    },
    /** Send `messages`; a refusal of the structured-output mode (rejectsStructuredOutput) is sent again in prompt mode. */
    async invoke(messages: BaseMessage[]): Promise<BaseMessage> {
      try {
        return await model.invoke(messages, options() as never);
      } catch (e) {
        if (!switchedToPrompt(model, mode, e)) throw e;
        mode = 'prompt';
        return model.invoke(messages, options() as never);
      }
    },
    read(reply: BaseMessage): { value?: z.infer<S>; text: string; error?: string; invalid?: InvalidToolCall; repaired?: string[] } {
      const got = readReply(reply as Reply, mode, name);
      try {
        const { value, repairs } = readValue(got, schema, what);
        return { value, text: got.text, ...(repairs.length ? { repaired: repairs.map(describeRepair) } : {}) };
      } catch (e) {
        // not dropped from the cache here: the caller may read it as an answer (e.g. TERMINATE); it calls
        // rejectReply on the replies of a step that failed
        return { text: got.text, error: (e as Error).message, ...(got.invalid ? { invalid: got.invalid } : {}) };
      }
    },
  };
}

/** Words of a refusal that is about the structured-output request itself (vLLM, llama.cpp, LM Studio, Ollama, OpenAI). */
const NAMES_STRUCTURED_OUTPUT = /response_format|json_schema|json schema|structured output|guided_|grammar|\btools?\b|tool_choice|tool calling/i;
/** A context-length overflow (a 400 on OpenAI and vLLM) names the tools it counted; it is the request's size, not the mode. */
const NAMES_REQUEST_SIZE = /context length|context window|maximum context|too long|reduce the length|too many tokens/i;

/**
 * An HTTP 400/422 whose message says the endpoint does not take this structured-output mode. Any
 * other 400 (a context-length overflow, a malformed message) is the request's own failure: it fails
 * the step as any error does, and does not switch the protocol of every later request of the run.
 */
export function rejectsStructuredOutput(e: unknown): boolean {
  if (!isLexcaseError(e) || e.code !== 'LLM_REQUEST_FAILED') return false;
  const refusal = /^LLM request failed: HTTP (400|422)\b([\s\S]*)$/.exec(e.message)?.[2];
  return refusal !== undefined && NAMES_STRUCTURED_OUTPUT.test(refusal) && !NAMES_REQUEST_SIZE.test(refusal);
}

/**
 * Whether `e`, thrown by a request in `mode`, is the endpoint refusing structured output; if so,
 * `model` (and every copy sharing its setting) uses prompt mode from now on, with one warning (a run
 * records the switch in config.json: eval/runner.ts).
 */
function switchedToPrompt(model: unknown, mode: StructuredOutputMode, e: unknown): boolean {
  if (mode === 'prompt' || !rejectsStructuredOutput(e)) return false;
  const setting = settingOf(model);
  // concurrent requests sent before the switch are each refused: only the first to switch warns
  if (setting?.structuredOutput !== 'prompt')
    log.warn(
      `the endpoint rejected structured output (${mode}): ${(e as Error).message.slice(0, 200)}; using prompt-only JSON from now on (set llm.structuredOutput to "tool" or "prompt")`,
    );
  if (setting) setting.structuredOutput = 'prompt';
  return true;
}

/** The wording an unparsable reply's error starts with when the endpoint cut it at its token limit. */
export const CUT_SHORT = 'the reply was cut short at the token limit (finish_reason "length"; raise llm.maxTokens, LEXCASE_LLM_MAX_TOKENS)';

/** Whether the endpoint stopped this reply at its token limit (OpenAI's finish_reason "length"). */
function stoppedAtTokenLimit(reply: BaseMessage): boolean {
  const meta = (reply as { response_metadata?: { finish_reason?: unknown } }).response_metadata;
  return meta?.finish_reason === 'length';
}

/** The replies behind each value invokeStructured returned (rejectStructured). */
const repliesOf = new WeakMap<object, Reply[]>();

/**
 * A value invokeStructured returned that its caller then refuses (CASE's exploratory hypotheses that repeat one
 * another, …), failing the step: its replies leave the response cache, as a reply the parser refused does, so a
 * resume asks the endpoint again instead of failing the same way with 0 requests.
 */
export function rejectStructured(result: object): void {
  for (const r of repliesOf.get(result) ?? []) rejectReply(r);
  repliesOf.delete(result);
}

/**
 * Invoke `model` for a `schema`-shaped object (see the module doc for the modes); retry once with
 * the parse error appended. Throws LexcaseError LLM_OUTPUT_INVALID (naming `what`) after the
 * second failure, carrying the raw replies (`structuredFailure(e)`).
 */
export async function invokeStructured<S extends z.ZodType>(
  model: BaseChatModel,
  messages: BaseMessage[],
  schema: S,
  opts: { what: string; signal?: AbortSignal },
): Promise<StructuredResult<z.infer<S>>> {
  const raw: string[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  const refused: Reply[] = [];
  const name = schemaName(opts.what);
  let convo = messages;
  let lastError = '';
  let mode = structuredOutputMode(model);
  for (let attempt = 1; attempt <= 2; attempt++) {
    let reply: Reply;
    notifySent(opts.what, name, mode, schema);
    // the exchange this attempt records (record-replay.ts) is named by `what`, and marked with the reply's error below
    const sent: { call?: CallScope } = {};
    const send = (m: StructuredOutputMode, strict: boolean) =>
      withCall(opts.what, async (c) => {
        sent.call = c;
        return (await model.invoke(convo, requestOptions(m, name, schema, opts.signal, strict, strictToolsOf(model)) as never)) as Reply;
      });
    try {
      reply = await send(mode, strictOf(model));
    } catch (e) {
      if (!switchedToPrompt(model, mode, e)) throw e;
      mode = 'prompt';
      reply = await send(mode, false);
    }
    const got = readReply(reply, mode, name);
    raw.push(got.text);
    if (got.invalid) invalidToolCalls.push(got.invalid);
    try {
      const { value, repairs } = readValue(got, schema, opts.what);
      const repaired = repairs.map(describeRepair);
      if (repaired.length && sent.call?.exchange) sent.call.exchange.repaired = repaired;
      const result = {
        value,
        raw,
        attempts: attempt,
        mode,
        ...(invalidToolCalls.length ? { invalidToolCalls } : {}),
        ...(repaired.length ? { repaired } : {}),
      };
      repliesOf.set(result, [...refused, reply]);
      return result;
    } catch (e) {
      refused.push(reply);
      const parseError = (e as Error).message;
      // a reply the endpoint stopped at its token limit failed because it was cut: the item's error says so first
      lastError = stoppedAtTokenLimit(reply) ? `${CUT_SHORT}: ${parseError}` : parseError;
      if (sent.call?.exchange) sent.call.exchange.invalid = lastError;
      convo = [
        ...messages,
        new AIMessage(got.text),
        new HumanMessage(`Your reply could not be parsed (${parseError}). Reply again with only the JSON object, exactly in the requested format.`),
      ];
    }
  }
  // the call failed: its malformed replies are never served from the cache again (a resume asks again);
  // one the repair retry recovered stays cached, so a rerun repeats this run
  for (const r of refused) rejectReply(r);
  const err = errors.llmOutputInvalid(opts.what, lastError);
  throw Object.assign(err, { structured: { raw, invalidToolCalls, mode } satisfies StructuredFailure });
}
