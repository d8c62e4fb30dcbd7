/**
 * The versioned HTTP API's routes and its OpenAPI 3.1 document, both from the query service's zod
 * schemas (serve/query/schemas.ts): request bodies are `z.toJSONSchema(input, {io: 'input'})`
 * (defaults optional), responses `{io: 'output'}` (defaults filled, no other properties). The server
 * (./server.ts) dispatches by this table and serves the document at GET /v1/openapi.json.
 */
import { z } from 'zod';
import { VERSION } from '../../core/version.js';
import {
  evidenceInput,
  evidenceOutput,
  explainInput,
  explainOutput,
  listIndexesOutput,
  passageInput,
  passageOutput,
  searchInput,
  searchOutput,
} from '../../serve/query/schemas.js';
import { listRunsOutput, runFiguresOutput, runInput } from './runs.js';

export const API_PREFIX = '/v1';

export const apiError = z.object({
  error: z.object({
    code: z
      .string()
      .describe(
        'LexcaseError code (INVALID_INPUT, NOT_FOUND, METHOD_UNAVAILABLE, LLM_NOT_CONFIGURED, …) or an HTTP one (UNAUTHORIZED, FORBIDDEN, METHOD_NOT_ALLOWED, UNSUPPORTED_MEDIA_TYPE, PAYLOAD_TOO_LARGE, INTERNAL)',
      ),
    message: z.string().describe('what was wrong, naming the field'),
  }),
});
export type ApiError = z.output<typeof apiError>;

/** One operation: where, which schemas, and the statuses it can answer with besides 200. */
export interface ApiOperation {
  path: string;
  method: 'get' | 'post';
  operationId: 'listIndexes' | 'search' | 'explain' | 'getPassage' | 'findEvidence' | 'listRuns' | 'getRun' | 'openapi';
  summary: string;
  /** POST: the JSON body; GET: query parameters (every property a string). */
  input?: z.ZodObject;
  output?: z.ZodType;
  errors: number[];
}

const COMMON_ERRORS = [401, 403, 500];

export const API_OPERATIONS: ApiOperation[] = [
  {
    path: '/v1/indexes',
    method: 'get',
    operationId: 'listIndexes',
    summary: 'The indexes this server searches, their methods, and whether evidence can use an LLM',
    output: listIndexesOutput,
    errors: [400, ...COMMON_ERRORS],
  },
  {
    path: '/v1/search',
    method: 'post',
    operationId: 'search',
    summary: 'Ranked passages for a query (exact BM25/QLD, or dense/hybrid when the index has them)',
    input: searchInput,
    output: searchOutput,
    errors: [400, 404, 413, 415, ...COMMON_ERRORS],
  },
  {
    path: '/v1/explain',
    method: 'post',
    operationId: 'explain',
    summary: 'Per-term scores of one passage for a query',
    input: explainInput,
    output: explainOutput,
    errors: [400, 404, 413, 415, ...COMMON_ERRORS],
  },
  {
    path: '/v1/passage',
    method: 'get',
    operationId: 'getPassage',
    summary: 'One passage: full text, title, source',
    input: passageInput,
    output: passageOutput,
    errors: [400, 404, ...COMMON_ERRORS],
  },
  {
    path: '/v1/evidence',
    method: 'post',
    operationId: 'findEvidence',
    summary: 'One CASE advocate: passages for or against a hypothesis, each with a justification',
    input: evidenceInput,
    output: evidenceOutput,
    errors: [400, 404, 413, 415, 502, ...COMMON_ERRORS],
  },
  {
    path: '/v1/runs',
    method: 'get',
    operationId: 'listRuns',
    summary:
      'Runs under --runs, each with its headline figures: 95% interval, its method and printed text (eval/stats; the same figures as report.md and the explorer)',
    output: listRunsOutput,
    errors: [400, 404, ...COMMON_ERRORS],
  },
  {
    path: '/v1/run',
    method: 'get',
    operationId: 'getRun',
    summary: "One run's headline figures, as GET /v1/runs lists them",
    input: runInput,
    output: runFiguresOutput,
    errors: [400, 404, ...COMMON_ERRORS],
  },
  { path: '/v1/openapi.json', method: 'get', operationId: 'openapi', summary: 'This document (served without a token)', errors: [403, 500] },
];

const STATUS_TEXT: Record<number, string> = {
  400: 'bad input: the message names the field',
  401: 'missing or wrong bearer token',
  403: 'Host or Origin not allowed (DNS-rebinding guard; servers without a token)',
  404: 'no such index, passage or run (or a runs route on a server started without --runs)',
  405: 'method not allowed on this path',
  413: 'request body over 256 KiB',
  415: 'body is not application/json',
  500: 'internal error',
  502: 'the LLM endpoint failed or answered out of schema',
};

const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'throw' }) as Record<string, unknown>;
  return rest;
}

const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);

/** The OpenAPI 3.1 document; `bearer` marks the operations as needing the bearer token. */
export function openApiDocument(o: { bearer: boolean }): Record<string, unknown> {
  const schemas: Record<string, unknown> = { Error: jsonSchema(apiError, 'output') };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of API_OPERATIONS) {
    const name = pascal(op.operationId);
    const responses: Record<string, unknown> = {};
    if (op.output) {
      schemas[`${name}Response`] = jsonSchema(op.output, 'output');
      responses['200'] = { description: op.summary, content: { 'application/json': { schema: component(`${name}Response`) } } };
    } else {
      responses['200'] = { description: 'the OpenAPI 3.1 document of this API', content: { 'application/json': { schema: { type: 'object' } } } };
    }
    for (const s of [...op.errors, 405])
      responses[String(s)] = { description: STATUS_TEXT[s], content: { 'application/json': { schema: component('Error') } } };
    const operation: Record<string, unknown> = { operationId: op.operationId, summary: op.summary, responses };
    if (op.operationId !== 'openapi') operation.security = o.bearer ? [{ bearer: [] }] : [];
    else operation.security = [];
    if (op.input && op.method === 'post') {
      schemas[`${name}Request`] = jsonSchema(op.input, 'input');
      operation.requestBody = { required: true, content: { 'application/json': { schema: component(`${name}Request`) } } };
    } else if (op.input) {
      const props = (jsonSchema(op.input, 'input').properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set((jsonSchema(op.input, 'input').required as string[] | undefined) ?? []);
      operation.parameters = Object.entries(props).map(([pname, schema]) => ({
        name: pname,
        in: 'query',
        required: required.has(pname),
        ...(schema.description ? { description: schema.description } : {}),
        schema,
      }));
    }
    paths[op.path] = { ...paths[op.path], [op.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'lexcase evidence API',
      version: VERSION,
      description:
        'Search, score explanations, passages and hypothesis-driven evidence over lexcase indexes (`lexcase serve --api`), and the headline figures of the runs under --runs. ' +
        'The same operations and schemas as the MCP tools of `lexcase mcp`. Errors are {"error": {"code", "message"}}.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: "the server's token, LEXCASE_API_TOKEN or --token-file (required when it is bound to a non-loopback address)",
        },
      },
    },
  };
}
