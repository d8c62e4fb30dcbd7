/**
 * `lexcase serve --api`: the query service as a versioned JSON API under /v1 (routes and OpenAPI
 * 3.1 document: ./openapi.ts), and with --runs the headline figures of the runs under it
 * (./runs.ts: the explorer's run summaries, eval/stats intervals). Bound to 127.0.0.1 by default. Without a token, every request's Host
 * (and Origin, if sent) must name this server (DNS-rebinding guard, serve/http/host-guard.ts); with
 * one (required off loopback, ./auth.ts), every request but GET /v1/openapi.json must carry
 * `Authorization: Bearer TOKEN`. Errors are `{error: {code, message}}` with the status the document
 * lists; messages carry no server path (the index directories show as their names).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { isLexcaseError } from '../../core/errors.js';
import { parseInput } from '../../core/parse-input.js';
import { log, redact } from '../../core/log.js';
import { allowedHostNames, refuseReason } from '../../serve/http/host-guard.js';
import { HttpError, queryParams, readJsonBody, sendJson } from '../../serve/http/http-util.js';
import { requestLife } from '../../serve/http/request-life.js';
import { createScrubber } from '../../serve/http/public-json.js';
import type { IndexSpec } from '../../serve/query/index-specs.js';
import type { QueryService } from '../../serve/query/query-service.js';
import { listen } from '../../serve/http/listen.js';
import { bearerOk } from '../../serve/http/auth.js';
import { listRunFigures, runFigures } from './runs.js';
import { API_OPERATIONS, API_PREFIX, openApiDocument, type ApiError, type ApiOperation } from './openapi.js';

export interface ApiServerOptions {
  host?: string;
  /** 0 = any free port. */
  port?: number;
  token?: string;
  /** The service's indexes, so that error messages show their names instead of their directories. */
  indexes?: IndexSpec[];
  /** A directory of run directories: GET /v1/runs and /v1/run serve their headline figures. */
  runs?: string;
}

export interface ApiServer {
  /** Base URL, e.g. http://127.0.0.1:8080 (routes are under /v1). */
  url: string;
  close(): Promise<void>;
}

const CODE_STATUS: Partial<Record<string, number>> = {
  USAGE: 400,
  INVALID_INPUT: 400,
  METHOD_UNAVAILABLE: 400,
  LLM_NOT_CONFIGURED: 400,
  NOT_FOUND: 404,
  INDEX_CORRUPT: 500,
  // the index was rebuilt on disk after the server opened it (retrieval/open-index.ts assertCurrent): say so, not "internal error"
  INDEX_INCOMPATIBLE: 500,
  LLM_OUTPUT_INVALID: 502,
  LLM_REQUEST_FAILED: 502,
};

const HTTP_CODE: Record<number, string> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const NO_INPUT = z.object({}).strict();

type Handler = (svc: QueryService, input: unknown, o: ApiServerOptions, signal: AbortSignal) => Promise<unknown> | unknown;
const HANDLERS: Record<ApiOperation['operationId'], Handler | undefined> = {
  listIndexes: (svc) => svc.listIndexes(),
  search: (svc, input) => svc.search(input as never),
  explain: (svc, input) => svc.explain(input as never),
  getPassage: (svc, input) => svc.getPassage(input as never),
  findEvidence: (svc, input, _o, signal) => svc.findEvidence(input as never, signal),
  listRuns: (_svc, _input, o) => listRunFigures(o.runs),
  getRun: (_svc, input, o) => runFigures(o.runs, input),
  openapi: undefined,
};

export async function startApiServer(svc: QueryService, o: ApiServerOptions = {}): Promise<ApiServer> {
  const host = o.host ?? '127.0.0.1';
  const names = allowedHostNames(host);
  const scrub = createScrubber((o.indexes ?? []).map((s) => [s.dir, s.name]));
  const doc = JSON.stringify(openApiDocument({ bearer: !!o.token }));
  const byPath = new Map<string, Map<string, ApiOperation>>();
  for (const op of API_OPERATIONS) byPath.set(op.path, (byPath.get(op.path) ?? new Map()).set(op.method.toUpperCase(), op));
  let port = -1;

  const handle = async (req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> => {
    if (!o.token) {
      const refused = refuseReason(req.headers, names, port);
      if (refused) throw new ApiFailure(403, 'FORBIDDEN', refused);
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const ops = byPath.get(url.pathname);
    if (!ops)
      throw new ApiFailure(
        404,
        'NOT_FOUND',
        `no API route ${url.pathname}${url.pathname.startsWith(API_PREFIX) ? '' : ` (routes are under ${API_PREFIX}/; see ${API_PREFIX}/openapi.json)`}`,
      );
    const op = ops.get(req.method ?? '');
    if (!op) throw new ApiFailure(405, 'METHOD_NOT_ALLOWED', `${req.method} not allowed on ${url.pathname}`, { allow: [...ops.keys()].join(', ') });
    if (op.operationId === 'openapi') {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(doc),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.end(doc);
      return;
    }
    if (o.token && !bearerOk(req.headers, o.token))
      throw new ApiFailure(401, 'UNAUTHORIZED', 'missing or wrong bearer token (send "Authorization: Bearer TOKEN")', {
        'www-authenticate': 'Bearer realm="lexcase"',
      });
    const input = op.method === 'post' ? await readJsonBody(req) : queryParams(url);
    // a GET route that takes no parameter refuses one (`/v1/runs?limt=5`) as the others refuse an unknown field
    if (!op.input) parseInput(NO_INPUT, input, op.operationId);
    sendJson(res, 200, await HANDLERS[op.operationId]!(svc, input, o, signal));
  };

  const fail = (res: ServerResponse, e: unknown) => {
    let status = 500;
    let body: ApiError = { error: { code: 'INTERNAL', message: 'internal error (see the server log)' } };
    let headers: Record<string, string> = {};
    if (e instanceof ApiFailure) {
      status = e.status;
      headers = e.headers;
      body = { error: { code: e.code, message: e.message } };
    } else if (e instanceof HttpError) {
      status = e.status;
      body = { error: { code: HTTP_CODE[e.status] ?? 'INVALID_INPUT', message: e.message } };
    } else if (isLexcaseError(e) && CODE_STATUS[e.code]) {
      status = CODE_STATUS[e.code]!;
      body = { error: { code: e.code, message: e.message } };
    } else {
      log.warn(`api: ${redact((e as Error)?.stack ?? String(e))}`);
    }
    body.error.message = scrub.text(redact(body.error.message));
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    sendJson(res, status, body);
  };

  // Requests whose connection closes before the reply (the client gave up, or close() below) are
  // cancelled and logged as one line, or, while stopping, counted and reported once (request-life.ts).
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  const http = createServer((req, res) => {
    const life = requestLife(req, res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    handle(req, res, life.signal).catch((e) => {
      if (life.gone(e)) return life.note('api', stopping);
      if (!res.headersSent) fail(res, e);
      else res.end();
    });
  });
  const l = await listen(http, o.port ?? 8080, host);
  port = l.port;
  return {
    url: `${l.base}`,
    close: async () => {
      stopping = true;
      const cancelled = inFlight.size;
      await l.close();
      if (cancelled) log.warn(`api: stopped with ${cancelled} request(s) in flight; they were cancelled`);
    },
  };
}
