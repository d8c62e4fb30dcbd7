/**
 * One wall-clock deadline per LLM request attempt, covering everything: connecting, the response
 * headers, the body, a stream. The OpenAI client's own `timeout` ends a request that never sends
 * headers, but not one that sends `200` and then stalls (a `Content-Length` never filled, a body
 * dripping a byte a second, an SSE stream that never ends): such a call used to hang for minutes,
 * holding its concurrency slot. `withDeadline` runs one attempt with its own AbortSignal (linked
 * to the caller's and unhooked afterwards, so a run-long signal collects no listeners) and settles
 * it when the deadline passes, whether or not the client honours the abort: the attempt fails with
 * a RequestDeadlineError, which retry.ts treats as a timeout (retried like a 5xx), and the slot is
 * released at once.
 */

/** An attempt that did not complete (headers, body and stream) within its deadline. */
export class RequestDeadlineError extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly ms: number) {
    super(`no complete reply within ${ms} ms (timeoutMs: the deadline covers the headers, the body and any stream)`);
  }
}

/**
 * Run `attempt` with a signal that aborts when `outer` does or when `ms` pass; after `ms` the
 * returned promise rejects with RequestDeadlineError even if `attempt` never settles. No deadline
 * when `ms` is undefined or not positive.
 */
export function withDeadline<T>(ms: number | undefined, outer: AbortSignal | undefined, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const c = new AbortController();
  const onAbort = () => c.abort(outer!.reason);
  if (outer?.aborted) c.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline =
    ms !== undefined && ms > 0
      ? new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => {
            const e = new RequestDeadlineError(ms);
            reject(e); // first, so the deadline (a timeout) wins over the client's abort error
            c.abort(e);
          }, ms);
        })
      : undefined;
  const run = attempt(c.signal);
  if (deadline) run.catch(() => undefined); // settled after the deadline: nobody is listening any more
  return (deadline ? Promise.race([run, deadline]) : run).finally(() => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  });
}
