/**
 * A cap on the bytes of an HTTP reply that lexcase reads (LLM chat completions, the preflight,
 * /v1/embeddings). The body was read whole with `response.text()`: a 300 MB reply crashed the run
 * ("Invalid string length" at ~3 GB RSS, and every resume asked again and crashed again), and a
 * 1 MB gzip bomb reached 2.3 GB (fetch decompresses as it reads). Here the body is counted as it is
 * read — after decompression, so a bomb is stopped by what it inflates to — and at `maxBytes` + 1
 * the read stops, the connection is dropped (the stream is cancelled: nothing more is fetched or
 * inflated) and the read fails with ReplyTooLargeError, which retry.ts does not retry (the same
 * request would get the same reply): the request fails with one clear error, which the runner
 * records as that item's failure, and the run goes on.
 *
 * `boundedFetch(max)` is a fetch for the OpenAI client (its `fetch` option): every response it
 * returns has a counted body, so the SDK's own reads (an error body) are capped too.
 * `readBoundedText(res, max)` reads one response's text under the cap.
 */

/** A reply whose body (decompressed) is larger than the cap. */
export class ReplyTooLargeError extends Error {
  override readonly name = 'ReplyTooLargeError';
  constructor(
    readonly maxBytes: number,
    /** Where the cap is set, for the message: "llm.maxReplyBytes / LEXCASE_LLM_MAX_REPLY_BYTES". */
    readonly setting: string,
  ) {
    super(`the reply is larger than ${formatBytes(maxBytes)} (${setting}; decompressed bytes count): it was not read`);
  }
}

/** 16 MiB: far above any chat completion (a reply of ~4 million tokens). */
export const DEFAULT_MAX_REPLY_BYTES = 16 * 1024 * 1024;

export const LLM_REPLY_SETTING = 'llm.maxReplyBytes / LEXCASE_LLM_MAX_REPLY_BYTES';

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

const NO_BODY = new Set([101, 204, 205, 304]);

/** `res` with a body that fails with ReplyTooLargeError (and cancels the rest) past `maxBytes`. */
export function boundedResponse(res: Response, maxBytes: number, setting: string): Response {
  if (!res.body || NO_BODY.has(res.status)) return res;
  const declared = Number(res.headers.get('content-length'));
  const encoded = !!res.headers.get('content-encoding') && !/^identity$/i.test(res.headers.get('content-encoding')!);
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    // Said up front: fail at the first read without fetching any of it.
    void res.body.cancel().catch(() => undefined);
    const err = new ReplyTooLargeError(maxBytes, setting);
    return new Response(new ReadableStream({ start: (c) => c.error(err) }), { status: res.status, statusText: res.statusText, headers: res.headers });
  }
  let seen = 0;
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        seen += chunk.byteLength;
        if (seen > maxBytes) c.error(new ReplyTooLargeError(maxBytes, setting));
        else c.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** A fetch whose responses have counted bodies (`boundedResponse`). */
export function boundedFetch(maxBytes: number, setting = LLM_REPLY_SETTING, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => boundedResponse(await inner(input, init), maxBytes, setting);
}

/** The text of `res`, or ReplyTooLargeError when its body is over `maxBytes`. */
export function readBoundedText(res: Response, maxBytes: number, setting: string): Promise<string> {
  return boundedResponse(res, maxBytes, setting).text();
}
