/**
 * An OpenAI chat-completions request as one llama.cpp generation, and the generated text as the
 * OpenAI reply message — what the local provider does between the client (chat-openai.ts, which
 * builds the request exactly as for a server) and the model (engine.ts).
 *
 * The conversation becomes node-llama-cpp's chat history (rendered by the model's own chat
 * template): system, user and assistant turns as they are; a tool result as a user turn
 * ("Result of <tool> (<call id>):"); consecutive turns of one role joined. What the model may
 * write is a grammar (gbnf-schema.ts) chosen from the request:
 *
 *   request                                    grammar                          reply
 *   response_format json_schema                the schema                       content
 *   response_format json_object                any JSON object                  content
 *   tools, tool_choice a function (forced)     that function's parameters       one tool call
 *   tools, tool_choice auto / unset / required {"tool_calls":[{name,arguments}]} tool calls, or content
 *                                              or {"answer": …} (not with required)
 *   nothing of these (or tool_choice none)     none: free text                  content
 *
 * With tools the system turn lists them (name, description, parameter schema) and says how to
 * call them; `answer` holds the response format's object when there is one, else text. A model's
 * native tool-call syntax is not used: the grammar makes every call well-formed whatever the model,
 * and the same text works with every chat template.
 */
import { grammarSchemaFor, type Json } from './gbnf-schema.js';

/** node-llama-cpp's ChatHistoryItem, as far as this module writes it. */
export type HistoryItem = { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] };

type WireToolCall = { id?: string; type?: string; function?: { name?: string; arguments?: string } };
type WireMessage = { role: string; content?: unknown; tool_calls?: WireToolCall[]; tool_call_id?: string; name?: string };
type WireTool = { type?: string; function?: { name: string; description?: string; parameters?: Json } };

export interface WireRequest {
  messages: WireMessage[];
  tools?: WireTool[];
  tool_choice?: unknown;
  response_format?: { type?: string; json_schema?: { name?: string; schema?: Json } };
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  seed?: number;
  stop?: string | string[];
}

export type ReplyShape = 'text' | 'json' | 'tools' | 'forced';

export interface GenerationPlan {
  history: HistoryItem[];
  /** The grammar's schema (node-llama-cpp GbnfJsonSchema), 'json' for any JSON object, or none (free text). */
  grammar?: Json | 'json';
  shape: ReplyShape;
  /** The function a forced tool call names. */
  forced?: string;
  /** The tools the reply may call (tools shape). */
  toolNames?: string[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  stop?: string[];
}

/** Text of a message's content (a string or content parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) =>
        typeof p === 'string' ? p : p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '',
      )
      .join('');
  return content == null ? '' : String(content);
}

function parseArgs(s: string | undefined): unknown {
  try {
    return JSON.parse(s ?? '{}');
  } catch {
    return s ?? '';
  }
}

const TOOLS_INTRO = 'You can call tools. The tools:';

function toolsSection(tools: WireTool[], answer: 'text' | 'object' | 'none'): string {
  const list = tools.map((t) => {
    const f = t.function!;
    const params = { ...(f.parameters ?? {}) };
    delete params.$schema;
    return `- ${f.name}${f.description ? `: ${f.description}` : ''}\n  arguments (JSON Schema): ${JSON.stringify(params)}`;
  });
  const how =
    answer === 'none'
      ? 'Reply with one JSON object {"tool_calls": [{"name": <tool name>, "arguments": {…}}]} that calls one or more of them.'
      : `Reply with one JSON object: {"tool_calls": [{"name": <tool name>, "arguments": {…}}]} to call one or more of them, or {"answer": ${answer === 'object' ? '<the requested JSON object>' : '"<your answer>"'}} to answer without calling a tool.`;
  return `${TOOLS_INTRO}\n${list.join('\n')}\n${how}`;
}

/** The chat history of `messages`: tool results as user turns, assistant tool calls as the JSON the model writes, turns of one role joined. */
export function historyOf(messages: WireMessage[], systemExtra?: string): HistoryItem[] {
  const names = new Map<string, string>();
  const out: HistoryItem[] = [];
  const push = (item: HistoryItem) => {
    const last = out[out.length - 1];
    if (last && last.type === item.type) {
      if (last.type === 'model') last.response.push(...(item as { response: string[] }).response);
      else (last as { text: string }).text += `\n\n${(item as { text: string }).text}`;
    } else out.push(item);
  };
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') push({ type: 'system', text: textOf(m.content) });
    else if (m.role === 'user') push({ type: 'user', text: textOf(m.content) });
    else if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      for (const c of calls) if (c.id && c.function?.name) names.set(c.id, c.function.name);
      const text = textOf(m.content);
      const callText = calls.length
        ? JSON.stringify({ tool_calls: calls.map((c) => ({ name: c.function?.name, arguments: parseArgs(c.function?.arguments) })) })
        : '';
      push({ type: 'model', response: [[text, callText].filter(Boolean).join('\n')] });
    } else if (m.role === 'tool' || m.role === 'function') {
      const name = (m.tool_call_id && names.get(m.tool_call_id)) ?? m.name ?? 'the tool';
      push({ type: 'user', text: `Result of ${name}${m.tool_call_id ? ` (${m.tool_call_id})` : ''}:\n${textOf(m.content)}` });
    }
  }
  if (systemExtra) {
    if (out[0]?.type === 'system') out[0].text = `${out[0].text}\n\n${systemExtra}`;
    else out.unshift({ type: 'system', text: systemExtra });
  }
  return out;
}

function forcedName(choice: unknown): string | undefined {
  if (choice && typeof choice === 'object') {
    const c = choice as { function?: { name?: string }; name?: string };
    return c.function?.name ?? c.name;
  }
  return undefined;
}

/** What to generate for `req` (see the module doc). Throws GrammarSchemaError for a schema the grammar cannot take. */
export function planGeneration(req: WireRequest): GenerationPlan {
  const sampling = {
    ...((req.max_tokens ?? req.max_completion_tokens) ? { maxTokens: (req.max_tokens ?? req.max_completion_tokens)! } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.top_p !== undefined ? { topP: req.top_p } : {}),
    ...(req.seed !== undefined ? { seed: req.seed } : {}),
    ...(req.stop ? { stop: Array.isArray(req.stop) ? req.stop : [req.stop] } : {}),
  };
  const rf = req.response_format;
  const responseSchema = rf?.type === 'json_schema' && rf.json_schema?.schema ? rf.json_schema.schema : undefined;
  const tools = (req.tools ?? []).filter((t) => t.function?.name);
  const choice = req.tool_choice;
  const forced = forcedName(choice);
  if (tools.length && forced) {
    const tool = tools.find((t) => t.function!.name === forced);
    if (!tool) throw new Error(`tool_choice names "${forced}", which is not among the request's tools`);
    const params = tool.function!.parameters ?? { type: 'object', properties: {} };
    const extra = `Reply with the arguments of ${forced}${tool.function!.description ? ` (${tool.function!.description})` : ''} as one JSON object.`;
    return { history: historyOf(req.messages, extra), grammar: grammarSchemaFor(params), shape: 'forced', forced, ...sampling };
  }
  if (tools.length && choice !== 'none') {
    const calls = {
      type: 'object',
      properties: {
        tool_calls: {
          type: 'array',
          minItems: 1,
          items: {
            oneOf: tools.map((t) => ({
              type: 'object',
              properties: { name: { const: t.function!.name }, arguments: grammarSchemaFor(t.function!.parameters ?? { type: 'object', properties: {} }) },
            })),
          },
        },
      },
    };
    const required = choice === 'required';
    const answer = { type: 'object', properties: { answer: responseSchema ? grammarSchemaFor(responseSchema) : { type: 'string' } } };
    return {
      history: historyOf(req.messages, toolsSection(tools, required ? 'none' : responseSchema ? 'object' : 'text')),
      grammar: required ? calls : { oneOf: [calls, answer] },
      shape: 'tools',
      toolNames: tools.map((t) => t.function!.name),
      ...sampling,
    };
  }
  if (responseSchema) return { history: historyOf(req.messages), grammar: grammarSchemaFor(responseSchema), shape: 'json', ...sampling };
  if (rf?.type === 'json_object') return { history: historyOf(req.messages), grammar: 'json', shape: 'json', ...sampling };
  return { history: historyOf(req.messages), shape: 'text', ...sampling };
}

export interface ReplyMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}

/**
 * The reply message for the generated `text`. A tools-shaped reply that is not the JSON the grammar
 * allows (cut short by max_tokens) is returned as text; a forced call keeps its text as the call's
 * arguments (malformed ones are reported as such by the client, as from any server).
 */
export function replyOf(plan: GenerationPlan, text: string): { message: ReplyMessage; toolCalls: boolean } {
  if (plan.shape === 'forced') {
    return {
      message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: plan.forced!, arguments: text } }] },
      toolCalls: true,
    };
  }
  if (plan.shape === 'tools') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { message: { role: 'assistant', content: text }, toolCalls: false };
    }
    const p = parsed as { tool_calls?: { name: string; arguments: unknown }[]; answer?: unknown };
    if (Array.isArray(p.tool_calls) && p.tool_calls.length)
      return {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: p.tool_calls.map((c, i) => ({
            id: `call_${i}`,
            type: 'function' as const,
            function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) },
          })),
        },
        toolCalls: true,
      };
    if ('answer' in p) return { message: { role: 'assistant', content: typeof p.answer === 'string' ? p.answer : JSON.stringify(p.answer) }, toolCalls: false };
  }
  return { message: { role: 'assistant', content: text }, toolCalls: false };
}
