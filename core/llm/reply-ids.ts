/**
 * Unique identity for every reply message and tool call a factory model returns, whatever ids the
 * server sent. Some OpenAI-compatible servers and proxies give every completion the same `id`, or
 * repeat tool-call ids; LangGraph's message reducer (every createAgent loop) merges messages by id,
 * so a repeated completion id replaced the advocate's tool-call message with the next reply (its
 * tool calls and final answer lost, an orphan tool message sent next), and a repeated tool-call id
 * paired a tool result with the wrong call.
 *
 *  - The reply message's `id` is the server's completion id plus `#<n>`, n a process-wide counter:
 *    unique among all replies of the process. The id is never sent to a server, hashed into a cache
 *    key or stored (the cache and the recording keep the reply as the server sent it), so it may
 *    vary from run to run.
 *  - A tool-call id is kept as the server sent it unless it is missing or already used in the
 *    conversation (a tool call or tool result of the request, or an earlier call of this reply);
 *    then it is replaced by one derived from the conversation (a hash of its length, the ids in it
 *    and the call's position), the same on every run, so a request that carries it back stays the
 *    same for the response cache and for replay. A replacement keeps the shape of a Mistral-style
 *    id (9 letters and digits); any other becomes `call_` + 24 hex digits.
 *
 * Applied to every reply, from the endpoint, the response cache or a recording (chat-openai.ts).
 * The message object is kept (its fields are reassigned, never mutated in place), so what the cache
 * and the recording stored stays as the server sent it, and rejectReply still finds its entry.
 */
import { createHash } from 'node:crypto';
import { isAIMessage, type AIMessage, type BaseMessage, type InvalidToolCall, type ToolCall } from '@langchain/core/messages';
import { makeInvalidToolCall, parseToolCall } from '@langchain/core/output_parsers/openai_tools';
import type { ChatResult } from '@langchain/core/outputs';

let issued = 0;

type RawCall = { id?: string; [k: string]: unknown };

/** Every tool-call id a conversation holds: the AI messages' calls (parsed, raw, invalid) and the tool results'. */
export function toolCallIdsIn(messages: readonly BaseMessage[]): string[] {
  const ids: string[] = [];
  for (const m of messages) {
    const ai = isAIMessage(m) ? (m as AIMessage) : undefined;
    for (const c of ai?.tool_calls ?? []) if (c.id) ids.push(c.id);
    for (const c of ai?.invalid_tool_calls ?? []) if (c.id) ids.push(c.id);
    for (const c of (m.additional_kwargs?.tool_calls ?? []) as RawCall[]) if (c?.id) ids.push(c.id);
    const tid = (m as { tool_call_id?: string }).tool_call_id;
    if (tid) ids.push(tid);
  }
  return ids;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function derivedId(like: string | undefined, seed: string): string {
  const h = createHash('sha256').update(seed).digest();
  if (like && /^[A-Za-z0-9]{9}$/.test(like)) return Array.from(h.subarray(0, 9), (b) => BASE62[b % 62]).join('');
  return `call_${h.toString('hex').slice(0, 24)}`;
}

/** Fresh ids for one reply's tool calls: a call keeps its id unless it is missing or already used. */
function renamer(used: Set<string>, basis: string, gi: number): (id: string | undefined) => string | undefined {
  const seen = new Set<string>();
  let pos = 0;
  return (id) => {
    const at = pos++;
    if (id && !used.has(id) && !seen.has(id)) {
      seen.add(id);
      return undefined;
    }
    let next: string;
    let attempt = 0;
    do next = derivedId(id, `${basis}\0${gi}\0${at}\0${attempt++}`);
    while (used.has(next) || seen.has(next));
    seen.add(next);
    return next;
  };
}

/**
 * Give `result`'s reply messages unique ids and their tool calls ids unique in the conversation
 * `request` (see the module doc). Returns `result`, its messages updated.
 */
export function distinctReplyIds(request: readonly BaseMessage[], result: ChatResult): ChatResult {
  let used: Set<string> | undefined;
  let basis: string | undefined;
  result.generations.forEach((g, gi) => {
    const msg = (g as { message?: BaseMessage }).message;
    if (!msg || !isAIMessage(msg)) return;
    const ai = msg as AIMessage;
    ai.id = `${ai.id || 'reply'}#${++issued}`;
    const calls = ai.tool_calls ?? [];
    const invalid = ai.invalid_tool_calls ?? [];
    const raw = (ai.additional_kwargs?.tool_calls ?? []) as RawCall[];
    if (calls.length + invalid.length + raw.length === 0) return;
    used ??= new Set(toolCallIdsIn(request));
    basis ??= `${request.length}\0${[...used].join('\0')}`;
    const fresh = renamer(used, basis, gi);
    if (raw.length) {
      // The raw calls (as the server sent them) are what LangChain parsed into tool_calls and
      // invalid_tool_calls, in order: rename them, then parse them again the same way.
      const ids = raw.map((c) => fresh(c?.id));
      if (ids.every((id) => id === undefined)) return;
      const renamed = raw.map((c, i) => (ids[i] ? { ...c, id: ids[i] } : c));
      ai.additional_kwargs = { ...ai.additional_kwargs, tool_calls: renamed as never };
      const valid: ToolCall[] = [];
      const bad: InvalidToolCall[] = [];
      for (const c of renamed) {
        try {
          valid.push(parseToolCall(c as never, { returnId: true }) as ToolCall);
        } catch (e) {
          bad.push({ ...makeInvalidToolCall(c as never, (e as Error).message), ...(invalid[bad.length] ? { error: invalid[bad.length].error } : {}) });
        }
      }
      if (calls.length) ai.tool_calls = valid;
      if (invalid.length || bad.length) ai.invalid_tool_calls = bad;
      return;
    }
    const rename = <T extends { id?: string }>(c: T): T => {
      const id = fresh(c.id);
      return id === undefined ? c : { ...c, id };
    };
    if (calls.length) ai.tool_calls = calls.map(rename);
    if (invalid.length) ai.invalid_tool_calls = invalid.map(rename);
  });
  return result;
}
