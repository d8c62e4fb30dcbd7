/**
 * A guard for createAgent loops: LangGraph's message reducer merges messages by id, so a reply
 * whose id is already in the conversation would silently replace that message (an advocate's tool
 * call and its answer lost, a tool result left orphaned), and a repeated tool-call id pairs a tool
 * result with the wrong call. The factory model gives every reply a unique id and unique tool-call
 * ids (core/llm/reply-ids.ts); a model from elsewhere may not. This middleware checks each reply
 * before it enters the state and throws LLM_OUTPUT_INVALID naming the repeated id, so the item
 * fails with that reason instead of succeeding on a mangled transcript.
 */
import { isAIMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { errors } from '../../core/errors.js';
import { toolCallIdsIn } from '../../core/llm/reply-ids.js';

/** What repeats in `reply` against the conversation `state` (undefined when nothing does). */
export function repeatedIdIn(state: readonly BaseMessage[], reply: BaseMessage): string | undefined {
  if (reply.id && state.some((m) => m.id === reply.id)) return `message id "${reply.id}" is already in the conversation`;
  if (!isAIMessage(reply)) return undefined;
  const used = new Set(toolCallIdsIn(state));
  const seen = new Set<string>();
  for (const c of [...((reply as AIMessage).tool_calls ?? []), ...((reply as AIMessage).invalid_tool_calls ?? [])]) {
    if (!c.id) continue;
    if (used.has(c.id)) return `tool-call id "${c.id}" is already in the conversation`;
    if (seen.has(c.id)) return `tool-call id "${c.id}" is used twice in one reply`;
    seen.add(c.id);
  }
  return undefined;
}

/** Middleware that fails the loop `what` on a reply repeating a message or tool-call id. */
export function distinctIdsGuard(what: string) {
  return createMiddleware({
    name: 'LexcaseDistinctIds',
    wrapModelCall: async (request, handler) => {
      const reply = await handler(request);
      const problem = repeatedIdIn((request.state as { messages?: BaseMessage[] }).messages ?? request.messages, reply);
      if (problem) throw errors.llmTranscriptConflict(what, problem);
      return reply;
    },
  });
}
