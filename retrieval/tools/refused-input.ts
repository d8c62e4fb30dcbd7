/**
 * A tool call whose arguments the tool's schema refuses (a search with k 100, "10" or 10.5, no
 * query) never reaches the tool's function: LangChain throws before it, and an agent loop hands the
 * model the error. Such a call is still a call the model made: it is recorded (tool, the arguments
 * as sent, no ids, the error) on the tool's recorder and the scoped one, as a failed search is, so
 * a run's tool counts and its Tool usage errors count it (before: a run whose advocates made 8
 * searches, 4 of them with k 100, reported "bm25_search 4" and 0 errors). The error still reaches
 * the caller unchanged.
 */
import { ToolInputParsingException, type StructuredToolInterface } from '@langchain/core/tools';
import { recordToolCall, type ToolRecorder } from './tool-recorder.js';

/** The arguments of a tool call or plain tool input, as an object. */
function argsOf(arg: unknown): Record<string, unknown> {
  const a = arg && typeof arg === 'object' && 'args' in arg && (arg as { type?: unknown }).type === 'tool_call' ? (arg as { args: unknown }).args : arg;
  return a && typeof a === 'object' && !Array.isArray(a) ? { ...(a as Record<string, unknown>) } : { input: a };
}

/** `t`, changed in place so that an input its schema refuses is recorded before the error goes on; returns `t`. */
export function recordRefusedInput<T extends StructuredToolInterface>(t: T, own?: ToolRecorder): T {
  const call = t.call.bind(t) as (...a: unknown[]) => Promise<unknown>;
  const recording = async (...a: unknown[]) => {
    const t0 = performance.now();
    try {
      return await call(...a);
    } catch (e) {
      if (e instanceof ToolInputParsingException)
        recordToolCall({ tool: t.name, input: argsOf(a[0]), ids: [], ms: Math.round(performance.now() - t0), error: e.message }, own);
      throw e;
    }
  };
  Object.assign(t, { call: recording });
  return t;
}
