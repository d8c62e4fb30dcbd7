/**
 * Records every retrieval-tool call {tool, input, ids, ms} for traces. A recorder given to
 * createRetrievalTools sees every call; `withToolRecorder(rec, fn)` additionally scopes a recorder
 * to everything `fn` awaits (AsyncLocalStorage), which is how the experiment runner collects the
 * calls of one item while items run concurrently on shared tools.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ToolCallLog {
  tool: string;
  /** The tool's parsed input (query, k, ...). */
  input: Record<string, unknown>;
  /** Passage ids returned, best first (empty for rewrite_query). */
  ids: string[];
  ms: number;
  /** rewrite_query: the rewritten query. */
  output?: string;
  error?: string;
}

export class ToolRecorder {
  readonly calls: ToolCallLog[] = [];
  record(c: ToolCallLog): void {
    this.calls.push(c);
  }
  /** Calls per tool name. */
  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of this.calls) out[c.tool] = (out[c.tool] ?? 0) + 1;
    return out;
  }
  /** Every id any call returned (deduplicated, first-seen order). */
  returnedIds(): string[] {
    return [...new Set(this.calls.flatMap((c) => c.ids))];
  }
}

const scope = new AsyncLocalStorage<ToolRecorder>();

export function withToolRecorder<T>(recorder: ToolRecorder, fn: () => T): T {
  return scope.run(recorder, fn);
}

export function currentToolRecorder(): ToolRecorder | undefined {
  return scope.getStore();
}

/** Record on the tools' own recorder and on the scoped one (once if they are the same). */
export function recordToolCall(c: ToolCallLog, own?: ToolRecorder): void {
  own?.record(c);
  const scoped = currentToolRecorder();
  if (scoped && scoped !== own) scoped.record(c);
}
