/**
 * One /v1/embeddings request, made with Node's own fetch (undici) rather than through
 * @langchain/openai: LangChain's OpenAIEmbeddings hands back number[][] parsed from JSON decimals,
 * and at thousands of passages per second that parse is the client's largest cost (issue 31:
 * undici's JSON parse was 19% of the CPU profile of bench/embed-openai-local.ts). Here the request
 * asks for `encoding_format: "base64"` (part of the OpenAI API): each vector arrives as one JSON
 * string of little-endian float32 bytes and is copied straight into a Float32Array. A server that
 * ignores the field and answers float arrays still works (each vector is read either way); one
 * that rejects it with a 4xx naming the field is asked again with "float", and the embedder
 * remembers that. Retries (connection errors, timeouts, 408/409/429/5xx, Retry-After) are the
 * LLM client's (core/llm/retry.ts), and so is each attempt's deadline (core/llm/deadline.ts
 * withDeadline: `timeoutMs` covers connecting, the headers and the whole body; an attempt past it
 * fails with a RequestDeadlineError, which the retry counts as a timeout). The reply's body is
 * read under a cap on its (decompressed) bytes, `maxReplyBytes` (core/llm/bounded-reply.ts).
 * Vectors are matched to inputs by `index` (in order where a reply has none, warned once per
 * endpoint; an index that is not an integer, or on some vectors only, is refused); a null/NaN/infinite component or an all-zero vector is refused (vectorOf).
 */
import { readBoundedText, ReplyTooLargeError } from '../../core/llm/bounded-reply.js';
import { withDeadline } from '../../core/llm/deadline.js';
import { withRetries } from '../../core/llm/retry.js';
import { log } from '../../core/log.js';
import { redactUrl } from '../../core/url-credentials.js';

export type EncodingFormat = 'base64' | 'float';

export interface EmbeddingsRequest {
  url: string;
  apiKey: string;
  model: string;
  input: string[];
  dimensions?: number;
  maxRetries: number;
  timeoutMs: number;
  /** Most bytes of one reply read (decompressed; default 128 MiB); past it the request fails (core/llm/bounded-reply.ts). */
  maxReplyBytes?: number;
  signal?: AbortSignal;
  /** Called with the model name a reply gives (`model`), where it gives one: the index records the name its passages' replies gave (openai.ts servedModels). */
  onServed?: (name: string) => void;
  /** Called with the number of vectors a reply of several gave without `index` fields (taken in the order they came): the index records their count (openai.ts arrivalOrderVectors). */
  onArrivalOrder?: (vectors: number) => void;
}

export const EMBED_REPLY_SETTING = 'LEXCASE_EMBED_MAX_REPLY_BYTES';
/** 128 MiB: a batch of 64 vectors of 3,072 floats is ~4 MB as JSON decimals. */
export const DEFAULT_EMBED_MAX_REPLY_BYTES = 128 * 1024 * 1024;

/**
 * A reply with an error status. Its message is the reply's body alone: the retry's failure names the
 * status (core/llm/retry.ts, "HTTP 413: <body>"), which the message repeated before ("HTTP 413: HTTP 413: …").
 */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    body: string,
  ) {
    super(body ? body.slice(0, 300) : '(empty body)');
  }
}

/** The HTTP status an embeddings request failed with (the reply's, through the retry's error), if one. */
export function httpStatusOf(e: unknown): number | undefined {
  for (let c: unknown = e; c; c = (c as { cause?: unknown }).cause) if (c instanceof HttpError) return c.status;
  return undefined;
}

/** A little-endian float32 vector from base64 (the OpenAI API's `encoding_format: "base64"`). */
export function decodeBase64Floats(b64: string): Float32Array {
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length % 4 !== 0) throw new Error(`malformed response: a base64 embedding has ${bytes.length} bytes, not a multiple of 4`);
  const out = new Float32Array(bytes.length / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/**
 * data[i]'s vector, refused unless every component is a finite number and one is not 0: a null
 * (which Float32Array.from makes 0), NaN or ±Infinity component, or an all-zero vector (no direction:
 * its cosine with any other is undefined, and lexcase's would be 0 or NaN) is not a vector to rank
 * passages by. `input` is the text it stands for, named in the error.
 */
function vectorOf(e: unknown, i: number, input: string | undefined): Float32Array {
  let v: Float32Array;
  if (typeof e === 'string') v = decodeBase64Floats(e);
  else if (Array.isArray(e)) {
    const bad = e.findIndex((x) => typeof x !== 'number');
    if (bad >= 0) throw new Error(`malformed response: data[${i}].embedding[${bad}] is ${JSON.stringify(e[bad])}, not a number${inputText(input)}`);
    v = Float32Array.from(e as number[]);
  } else throw new Error(`malformed response: data[${i}].embedding is neither a float array nor a base64 string`);
  const bad = v.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new Error(`malformed response: data[${i}].embedding[${bad}] is ${v[bad]}${inputText(input)}`);
  if (!v.length) throw new Error(`malformed response: data[${i}].embedding is empty${inputText(input)}`);
  if (v.every((x) => x === 0)) throw new Error(`malformed response: data[${i}].embedding is all zeros (no direction to rank by)${inputText(input)}`);
  return v;
}

/** ` (input "first words…")`: which text a bad vector stands for. */
export function inputText(input: string | undefined): string {
  if (input === undefined) return '';
  const t = input.replace(/\s+/g, ' ').trim();
  return ` (input ${JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…` : t)})`;
}

/** Endpoints already warned about replies without `index` fields (once per URL per process). */
const warnedNoIndex = new Set<string>();
/** (endpoint, model asked, model named) triples already warned about. */
const warnedOtherModel = new Set<string>();

/** One attempt; `signal` is the attempt's own (the caller's, plus the deadline). */
async function once(r: EmbeddingsRequest, format: EncodingFormat, signal: AbortSignal): Promise<Float32Array[]> {
  const body: Record<string, unknown> = { model: r.model, input: r.input, encoding_format: format };
  if (r.dimensions) body.dimensions = r.dimensions;
  let res: Response;
  let text: string;
  try {
    res = await fetch(r.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${r.apiKey}` },
      body: JSON.stringify(body),
      signal,
    });
    text = await readBoundedText(res, r.maxReplyBytes ?? DEFAULT_EMBED_MAX_REPLY_BYTES, EMBED_REPLY_SETTING);
  } catch (e) {
    // undici says only "fetch failed"; the reason (ECONNREFUSED, a timeout, …) is its cause.
    const c = (e as { cause?: { code?: string; message?: string } }).cause;
    if (signal.aborted || !c || e instanceof ReplyTooLargeError) throw e;
    throw Object.assign(new Error(`${(e as Error).message}: ${c.code ?? c.message}`, { cause: c }), { name: (e as Error).name });
  }
  if (!res.ok) throw new HttpError(res.status, res.headers, text);
  const json = JSON.parse(text) as { model?: unknown; data?: Array<{ index?: number; embedding?: unknown }> };
  const data = json.data;
  if (!Array.isArray(data)) throw new Error('malformed response: no "data" array');
  if (data.length !== r.input.length) throw new Error(`malformed response: ${data.length} embeddings for ${r.input.length} inputs`);
  const out = new Array<Float32Array>(data.length);
  // An index that is there must be an integer: a string ("3") or a fraction was taken as absent or
  // left a hole, and a reply with indexes on some vectors only cannot say where the others go.
  const indexed = data.filter((d) => d.index !== undefined && d.index !== null).length;
  data.forEach((d, k) => {
    const has = d.index !== undefined && d.index !== null;
    if (has && !Number.isInteger(d.index)) throw new Error(`malformed response: data[${k}].index is ${JSON.stringify(d.index)}, not an integer`);
    if (!has && indexed > 0) throw new Error(`malformed response: data[${k}] has no "index" field, ${indexed} of the ${data.length} vectors have one`);
    const i = has ? (d.index as number) : k;
    if (i < 0 || i >= out.length || out[i]) throw new Error(`malformed response: data[${k}].index ${i} is out of range or repeated`);
    out[i] = vectorOf(d.embedding, k, r.input[i]);
  });
  // Without `index` the vectors can only be taken in the order they came: a server that reorders
  // them (and omits the field) gives passages each other's vectors, which nothing here can see.
  if (data.length > 1 && indexed === 0) r.onArrivalOrder?.(data.length);
  if (data.length > 1 && indexed === 0 && !warnedNoIndex.has(r.url)) {
    warnedNoIndex.add(r.url);
    log.warn(
      `embedding endpoint ${redactUrl(r.url)}: its reply has no "index" field on each vector; vectors are taken in the order they came (a server that reorders them would give passages each other's vectors)`,
    );
  }
  // A server that embeds with the model it has loaded (LM Studio, a proxy) names it in the reply;
  // the index records the model asked for, so another one is said once per endpoint and model.
  const served = typeof json.model === 'string' ? json.model.trim() : '';
  if (served) r.onServed?.(served);
  const pair = `${r.url}\u0000${r.model}\u0000${served}`;
  if (served && served !== r.model && !warnedOtherModel.has(pair)) {
    warnedOtherModel.add(pair);
    log.warn(
      `embedding endpoint ${redactUrl(r.url)}: asked for model "${r.model}", its reply names "${served}"; lexcase records "${r.model}" (if the server embeds with another model than the one asked for, give that one's name: --model / LEXCASE_EMBED_MODEL)`,
    );
  }
  return out;
}

/**
 * The embeddings of `r.input`, in input order. `format.value` is the encoding asked for; it turns
 * to 'float' for good when the server rejects base64 (a 400/422 whose body names it).
 */
export async function requestEmbeddings(r: EmbeddingsRequest, format: { value: EncodingFormat }): Promise<Float32Array[]> {
  const attempt = (f: EncodingFormat) => withDeadline(r.timeoutMs, r.signal, (signal) => once(r, f, signal));
  return withRetries(
    async () => {
      try {
        return await attempt(format.value);
      } catch (e) {
        if (format.value === 'base64' && e instanceof HttpError && (e.status === 400 || e.status === 422) && /encoding_format|base64/i.test(e.message)) {
          format.value = 'float';
          return attempt('float');
        }
        throw e;
      }
    },
    { maxRetries: r.maxRetries, baseMs: 500, maxMs: 10_000, signal: r.signal },
  );
}
