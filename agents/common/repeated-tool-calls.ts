/**
 * The same tool call twice in one reply (same tool, same arguments: a server repeating a parallel
 * call, or two ids carrying identical arguments) is run once. Before 2026-12-02 both ran, and a CASE
 * advocate summed each returned passage's reciprocal-rank score twice (its evidence ranking tilted)
 * and counted two searches. Every tool_call_id is still answered (the repeat gets the first call's
 * answer, as OpenAI-compatible servers require); the transcript reader marks the repeat `repeated`
 * (agents/case/tool-trace.ts), its passages are not scored again, and the runs count them
 * ("2 repeated tool calls in one reply run once").
 */
import { isAIMessage, ToolMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';

/** A call's identity for repeats: its name and its arguments, keys in sorted order. */
export function toolCallKey(name: string, args: unknown): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${name}\u0000${JSON.stringify(canon(args ?? {}))}`;
}

/** For each call of one reply, the index of an earlier identical call in it (undefined for a first). */
export function repeatsIn(calls: readonly { name: string; args?: unknown }[]): (number | undefined)[] {
  const first = new Map<string, number>();
  return calls.map((c, i) => {
    const key = toolCallKey(c.name, c.args);
    const at = first.get(key);
    if (at === undefined) first.set(key, i);
    return at;
  });
}

/**
 * The calls of the model reply that asked for tool call `id` (the latest reply naming it, from a
 * createAgent state's messages), and the call's place among them (−1 when no reply names it).
 */
export function replyOfCall(state: unknown, id: string | undefined): { calls: NonNullable<AIMessage['tool_calls']>; at: number } {
  const messages = ((state as { messages?: BaseMessage[] }).messages ?? []) as BaseMessage[];
  const reply = id ? [...messages].reverse().find((m) => isAIMessage(m) && ((m as AIMessage).tool_calls ?? []).some((c) => c.id === id)) : undefined;
  const calls = reply ? ((reply as AIMessage).tool_calls ?? []) : [];
  return { calls, at: calls.findIndex((c) => c.id === id) };
}

/**
 * One promise per tool call id, made by whichever asks first (the call itself or a call waiting on it)
 * and settled by the call. Shared by this file's middleware and PassageHandles.inCallOrder.
 */
export function promisePerCall<T>(): (id: string) => { promise: Promise<T>; settle: (v: T | PromiseLike<T>) => void } {
  const made = new Map<string, { promise: Promise<T>; settle: (v: T | PromiseLike<T>) => void }>();
  return (id) => {
    let e = made.get(id);
    if (!e) {
      let settle!: (v: T | PromiseLike<T>) => void;
      const promise = new Promise<T>((r) => (settle = r));
      promise.catch(() => undefined); // a failed call is the call's own error (ToolNode answers it); one awaiting it sees it too
      e = { promise, settle };
      made.set(id, e);
    }
    return e;
  };
}

/** Middleware for createAgent loops: a repeat of a call earlier in the same reply is answered with that call's result, not run. */
export function repeatedCallsOnce() {
  /** Call `id`'s result, awaited by its repeats. */
  const resultOf = promisePerCall<unknown>();
  return createMiddleware({
    name: 'LexcaseRepeatedCallsOnce',
    wrapToolCall: async (request, handler) => {
      const id = request.toolCall.id;
      const { calls, at } = replyOfCall(request.state, id);
      const firstAt = at >= 0 ? repeatsIn(calls)[at] : undefined;
      const firstId = firstAt !== undefined ? calls[firstAt].id : undefined;
      if (!id || at < 0) return handler(request);
      if (firstId === undefined) {
        const run = Promise.resolve().then(() => handler(request));
        resultOf(id).settle(run);
        return run;
      }
      const first = await resultOf(firstId).promise;
      if (!ToolMessage.isInstance(first)) return handler(request);
      return new ToolMessage({ content: first.content, tool_call_id: id, name: request.toolCall.name });
    },
  });
}
