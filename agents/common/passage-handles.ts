/**
 * Neutral passage handles: no LLM request (except the oracle baseline's) may carry a real passage
 * id. The bundled corpus names the Bar Exam QA gold passages `mbe_N` next to distractors named
 * `cap-…#pN`, `fre-…`; a model shown those ids could learn
 * "prefer mbe_" and inflate evidence recall and accuracy (issue 15, item 1).
 *
 * Models see passages as `P1`, `P2`, … allocated in order of first appearance. One PassageHandles
 * map lives for one item (`withPassageHandles` scopes it to everything the item's system awaits,
 * through AsyncLocalStorage), so a handle is stable across an advocate's tool calls, the debate's
 * rounds and the judge: a model can cite `P3` from any earlier turn, and the code maps it back to
 * the real id (`resolve`) before traces, citations and metrics see it.
 *
 *   return withPassageHandles(async (h) => {
 *     const tools = h.wrapTools(ctx.tools);             // search results come back as P1..Pk
 *     prompt += `[${h.handle(p.id)}] ${p.text}`;         // any passage shown to a model
 *     const { ids } = h.cite(accepted.cites);             // the model's "P3" → the real id (h.unresolved counts misses)
 *   });
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { createMiddleware } from 'langchain';
import { recordRefusedInput } from '../../retrieval/tools/refused-input.js';
import { promisePerCall, replyOfCall } from './repeated-tool-calls.js';

let wrappedCalls = 0;

export { PASSAGE_HANDLE_READING } from './passage-handle-reading.js';
/**
 * A handle as a model writes it, alone: "P3", "p3", "P 3", "P03", "P#3", "Passage 3", "passage P3",
 * wrapped in any of [ ] ( ) { } < > 【 】 「 」 and quotes ("[P3]", "(P3)", "【P3】", "([P3])"),
 * followed by punctuation ("P3.", "P3,", "P3:", "(P3);"). One number and nothing else, so it can
 * be no other handle: "P31" is P31, never P3; "P3, P5", "P3 and P5", "P3-P5", a bare "3" and "P3a" are
 * none (counted as unresolved where a system cites them: `unresolved`).
 */
const HANDLE = /^[\s"'`“”‘’«»[({<【「]*(?:passage\s*(?:no\.?\s*|#\s*)?(?:p\s*)?|p\s*#?\s*)(\d+)[\s"'`“”‘’«»\])}>】」.,;:!?]*$/iu;

export class PassageHandles {
  private readonly byId = new Map<string, string>();
  private readonly byHandle = new Map<string, string>();
  private unresolvedCites = 0;
  /** Per tool call id (inCallOrder): settles when the call has ended, its output presented or not. */
  private readonly ended = promisePerCall<void>();
  /** Per tool call id (inCallOrder): settles when every earlier call of the same reply has ended. */
  private readonly earlierEnded = new Map<string, Promise<unknown>>();

  /** The handle of `id` in this map (allocated on first sight: P1, P2, …). */
  handle(id: string): string {
    let h = this.byId.get(id);
    if (!h) {
      h = `P${this.byId.size + 1}`;
      this.byId.set(id, h);
      this.byHandle.set(h, id);
    }
    return h;
  }

  /** The real id behind a handle the model wrote ("P3", "[P3]", "p3"); undefined if it is none of ours. */
  idOf(ref: string): string | undefined {
    const m = HANDLE.exec(String(ref));
    return m ? this.byHandle.get(`P${Number(m[1])}`) : undefined;
  }

  /** The real id behind `ref`, or `ref` itself (trimmed, brackets removed) when it is not a known handle. */
  resolve(ref: string): string {
    return (
      this.idOf(ref) ??
      String(ref)
        .trim()
        .replace(/^\[|\]$/g, '')
    );
  }

  /**
   * The citations of one accepted reply, read once, as written by the model: `ids`, the real ids behind
   * those that name a handle of this map, and `unresolved`, the others as written ("P3, P5", "P99", a real
   * id written out), each counted (`unresolved`). The one way a system counts: called where a reply is
   * accepted, never in a schema's parse (a reply may be parsed more than once, re-asked, or replaced by a
   * compile call; a rejected reply's citations are none). An unresolved citation stays apart from the
   * ids even when its text is a real id, so it is never read, or shown back to a model, as a passage.
   * Before 2026-12-01 "(P3)", "P3.", "【P3】" and "Passage 3" were unresolved too, and nothing counted them.
   */
  cite(refs: readonly (string | number)[]): { ids: string[]; unresolved: string[] } {
    const read = this.read(refs);
    this.unresolvedCites += read.unresolved.length;
    return read;
  }

  /** `cite` without counting: for a look at a reply not (yet) accepted (CASE's final reply, before a compile call may replace it). */
  read(refs: readonly (string | number)[]): { ids: string[]; unresolved: string[] } {
    const ids: string[] = [];
    const unresolved: string[] = [];
    for (const ref of refs) {
      const id = this.idOf(String(ref));
      if (id !== undefined) ids.push(id);
      else unresolved.push(this.resolve(String(ref)));
    }
    return { ids, unresolved };
  }

  /** The citations `cite` could not map to a handle of this map so far. */
  get unresolved(): number {
    return this.unresolvedCites;
  }

  /** Every (handle, id) pair handed out so far, in order. */
  entries(): { handle: string; id: string }[] {
    return [...this.byHandle].map(([handle, id]) => ({ handle, id }));
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * A search tool's JSON output ({results: [{id, ...}]}) with every result id replaced by its
   * handle; any other output (rewrite_query, errors, plain text) unchanged.
   */
  presentToolOutput(text: string): string {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return text;
    }
    const obj = json as { results?: unknown };
    if (!obj || typeof obj !== 'object' || !Array.isArray(obj.results)) return text;
    const results = obj.results.map((r) => {
      const x = (r ?? {}) as Record<string, unknown>;
      return typeof x.id === 'string' || typeof x.id === 'number' ? { ...x, id: this.handle(String(x.id)) } : x;
    });
    return JSON.stringify({ ...(json as object), results });
  }

  /**
   * The tools with search results presented under handles (same names, descriptions and schemas).
   * The model reads the text with handles; a search tool's typed artifact (real ids, for the code:
   * traces, candidates) is passed through unchanged as the ToolMessage's artifact.
   */
  wrapTools(tools: StructuredToolInterface[]): StructuredToolInterface[] {
    return tools
      .map(
        (t) =>
          tool(
            async (input: unknown, config?: { toolCall?: { id?: string } }) => {
              // invoked as a tool call, the inner tool answers with a ToolMessage that carries its artifact
              const call = {
                id: config?.toolCall?.id ?? `handles-${++wrappedCalls}`,
                name: t.name,
                args: input as Record<string, unknown>,
                type: 'tool_call' as const,
              };
              const out: unknown = await t.invoke(call as never, config as never);
              // handles are handed out in the order the model wrote its calls, not the order they finish
              await this.earlierEnded.get(call.id);
              const msg = out as { content?: unknown; artifact?: unknown };
              const text = typeof out === 'string' ? out : typeof msg?.content === 'string' ? msg.content : JSON.stringify(out);
              return [this.presentToolOutput(text), msg && typeof msg === 'object' ? msg.artifact : undefined];
            },
            { name: t.name, description: t.description, schema: t.schema as never, responseFormat: 'content_and_artifact' },
          ) as unknown as StructuredToolInterface,
        // the wrapper parses the input with the tool's schema first: an input it refuses is recorded here, as the tool would
      )
      .map((w) => recordRefusedInput(w));
  }

  /**
   * Middleware for a createAgent loop over `wrapTools`' tools: the calls of one reply still run in
   * parallel, but each call's passages get their handles only after every earlier call of the reply
   * has ended, so P1, P2, … follow the order the model wrote the calls. Before 2026-12-04 they followed
   * the order the searches finished, which varies with machine load: the next request's text (and so
   * a seeded server's reply, a cache key, a replay) changed from run to run with nothing else changed.
   * First in the middleware list, so that every call passes it (a repeat answered by
   * repeatedCallsOnce without running ends here too).
   */
  inCallOrder() {
    const ended = this.ended;
    return createMiddleware({
      name: 'LexcasePassageHandlesInCallOrder',
      wrapToolCall: async (request, handler) => {
        const id = request.toolCall.id;
        const { calls, at } = replyOfCall(request.state, id);
        if (!id || at < 0) return handler(request);
        this.earlierEnded.set(
          id,
          Promise.all(
            calls
              .slice(0, at)
              .filter((c) => c.id && c.id !== id)
              .map((c) => ended(c.id as string).promise),
          ),
        );
        try {
          return await handler(request);
        } finally {
          ended(id).settle();
        }
      },
    });
  }
}

const scope = new AsyncLocalStorage<PassageHandles>();

/**
 * Run `fn` with the item's handle map in scope (`passageHandles()` returns it inside): the enclosing
 * map when there is one (a stage called from a system joins the item's map), else `handles` or a
 * fresh one.
 */
export function withPassageHandles<T>(fn: (handles: PassageHandles) => T, handles?: PassageHandles): T {
  const h = handles ?? scope.getStore() ?? new PassageHandles();
  return scope.run(h, () => fn(h));
}

/** The nearest enclosing map (from withPassageHandles); outside any scope, a new one per call site. */
export function passageHandles(): PassageHandles {
  return scope.getStore() ?? new PassageHandles();
}
