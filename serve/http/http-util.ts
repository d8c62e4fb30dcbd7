/**
 * Small HTTP helpers for the explorer server: JSON replies, bounded JSON bodies, zod validation
 * and the mapping from errors to status codes (bad input → 400, unknown things → 404, anything
 * unexpected → 500 with a generic message). Messages are redacted before they leave the process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isLexcaseError } from '../../core/errors.js';
import { log, redact } from '../../core/log.js';
import { parseInput } from '../../core/parse-input.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...SECURITY_HEADERS });
  res.end(text);
}

export function sendBytes(res: ServerResponse, type: string, body: Buffer | string, headers: Record<string, string> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(200, {
    ...headers,
    'content-type': type,
    'content-length': buf.byteLength,
    'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'",
    ...SECURITY_HEADERS,
  });
  res.end(buf);
}

const STATUS: Partial<Record<string, number>> = {
  USAGE: 400,
  INVALID_INPUT: 400,
  METHOD_UNAVAILABLE: 400,
  LLM_NOT_CONFIGURED: 400,
  NOT_FOUND: 404,
  INDEX_MISSING: 404,
  DATASET_UNKNOWN: 404,
  RUN_INVALID: 422,
  LOCKED: 409,
  REVISION_CONFLICT: 409,
  LLM_OUTPUT_INVALID: 502,
  LLM_REQUEST_FAILED: 502,
  EMBEDDER_UNAVAILABLE: 503,
};

/** Error reply; `publicText` may further clean the message (the explorer drops absolute paths). */
export function sendError(res: ServerResponse, e: unknown, publicText: (message: string) => string = (m) => m): void {
  if (e instanceof HttpError) sendJson(res, e.status, { error: publicText(redact(e.message)) });
  else if (isLexcaseError(e)) sendJson(res, STATUS[e.code] ?? 500, { error: publicText(redact(e.message)), code: e.code });
  else {
    log.warn(`explorer: ${redact((e as Error)?.stack ?? String(e))}`);
    sendJson(res, 500, { error: 'internal error (see the server log)' });
  }
}

export const MAX_BODY_BYTES = 256 * 1024;

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new HttpError(415, 'expected a JSON body (content-type: application/json)');
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).byteLength;
    if (n > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (e) {
    throw badRequest(`body is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * Validate with zod (core/parse-input.ts): a 400 naming the field — an unknown one first (the
 * schemas are strict: a misspelt field is refused, never ignored), with the fields taken.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  try {
    return parseInput(schema, value, where);
  } catch (e) {
    throw isLexcaseError(e) ? badRequest(e.message) : e;
  }
}

/**
 * Query-string parameters as a plain object. A parameter given twice (`?id=a&id=b`, `?k=1&k=3`) is
 * a 400 naming it: which of its values was meant cannot be known, and answering with one of them
 * (the last, as before) searched or returned something the caller may not have asked for.
 */
export function queryParams(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (Object.hasOwn(out, k)) throw badRequest(`query parameter "${k}" is given ${url.searchParams.getAll(k).length} times; give it once`);
    out[k] = v;
  }
  return out;
}

/**
 * A whole-number query parameter as the query string gives it: decimal digits only, within
 * [min, max], with one message naming the parameter and what it takes. Number() coercion took
 * `0x3` as 3, `1e1` as 10, `%203` (" 3") as 3 and an empty value as 0, each answering for a number
 * the caller did not write.
 */
export function decimalParam(name: string, min: number, max: number, fallback: number) {
  const takes = `${name} takes a whole number from ${min} to ${max} in decimal digits (e.g. ${name}=${fallback})`;
  return z
    .string()
    .regex(/^[0-9]+$/, takes)
    .transform(Number)
    .pipe(z.number().int().min(min, takes).max(max, takes))
    .default(fallback);
}

/** A GET route that takes no query parameters: any one given is a 400 naming it, not ignored. */
export const noQueryParams = z.object({}).strict();
