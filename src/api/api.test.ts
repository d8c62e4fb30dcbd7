/**
 * `lexcase serve --api`: the versioned JSON API over real HTTP on 127.0.0.1 against the bundled
 * default index. The OpenAPI document it serves is validated as OpenAPI 3.1 (swagger-parser), and
 * EVERY response these tests receive — successes and errors — is validated against the schema the
 * document gives for its path, method and status (ajv, JSON Schema 2020-12); a status the document
 * does not list fails the test. Results are checked against the library (the query service).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INDEX_DIR, ensureDefaultIndex } from '../../retrieval/default-index.js';
import { runBuiltCli, startServerChild, type ServerChild } from '../mcp/test-support/children.js';
import { openRetriever } from '../../retrieval/open.js';
import { openQueryService, type QueryService } from '../../serve/query/query-service.js';
import { MAX_QUERY_CHARS, type EvidenceInput } from '../../serve/query/schemas.js';
import { API_OPERATIONS, openApiDocument } from './openapi.js';
import { runRetrievalGridRun } from '../../eval/reproduce/retrieval-run.js';
import { readConfig, readResults } from '../../eval/run-dir.js';
import { headlineFigures } from '../../eval/systems.js';
import { reciprocalRanks } from '../../eval/headline-metrics.js';
import { startApiServer, type ApiServer } from './server.js';
import { startExplorer } from '../../web/server/server.js';

let root: string;
let idx: string;
let svc: QueryService;
let api: ApiServer;
let doc: any;
let ajv: Ajv2020;
const seen = new Set<string>();

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-api-'));
  idx = await ensureDefaultIndex(join(root, DEFAULT_INDEX_DIR));
  svc = await openQueryService({ indexes: [{ name: 'default', dir: idx }] });
  api = await startApiServer(svc, { port: 0, indexes: [{ name: 'default', dir: idx }] });
  const res = await fetch(`${api.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(doc, 'openapi');
}, 180_000);

afterAll(async () => {
  await api?.close();
  await svc?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The body conforms to the schema the document gives for this path, method and status. */
function conforms(path: string, method: string, status: number, body: unknown): void {
  const ops = doc.paths[path];
  expect(ops, `${path} is in the document`).toBeDefined();
  // a method the path does not have: the 405 its operations document
  const op = ops[method.toLowerCase()] ?? (status === 405 ? Object.values(ops)[0] : undefined);
  expect(op, `${method} ${path} is in the document`).toBeDefined();
  const response = op.responses[String(status)];
  expect(response, `${method} ${path} documents status ${status}`).toBeDefined();
  const schema = response.content['application/json'].schema;
  const validate = schema.$ref ? ajv.getSchema(`openapi${schema.$ref}`)! : ajv.compile(schema);
  const ok = validate(body);
  expect(ok, `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true);
  seen.add(`${method.toLowerCase()} ${path} ${status}`);
}

interface Reply {
  status: number;
  json: any;
  headers: Headers;
}

/** One API call over HTTP; its response is checked against the document before it is returned. */
async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  pathAndQuery: string,
  o: { body?: unknown; raw?: string; type?: string; token?: string; base?: string } = {},
): Promise<Reply> {
  const hasBody = o.body !== undefined || o.raw !== undefined;
  const res = await fetch((o.base ?? api.url) + pathAndQuery, {
    method,
    headers: { ...(hasBody ? { 'content-type': o.type ?? 'application/json' } : {}), ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) },
    body: o.raw ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined),
  });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const json = await res.json();
  conforms(new URL(pathAndQuery, 'http://x').pathname, method, res.status, json);
  return { status: res.status, json, headers: res.headers };
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, generated from the zod schemas, listing every route', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(doc));
    expect(doc).toEqual(openApiDocument({ bearer: false }));
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(API_OPERATIONS.map((o) => o.path))].sort());
    // the request schema is the zod input schema: k has its bounds and default, query its description
    const search = doc.components.schemas.SearchRequest;
    expect(search.required).toEqual(['query']);
    expect(search.properties.k).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(search.properties.query.description).toMatch(/query/);
    expect(doc.components.schemas.SearchResponse.additionalProperties).toBe(false);
    const passage = doc.paths['/v1/passage'].get.parameters.map((p: any) => [p.name, p.in, p.required]);
    expect(passage).toEqual([
      ['index', 'query', false],
      ['id', 'query', true],
    ]);
  });

  it('the checks can fail: a broken document is rejected, a response off its schema does not conform', async () => {
    const { info: _info, ...noInfo } = doc;
    await expect(SwaggerParser.validate(structuredClone(noInfo))).rejects.toThrow(/info/);
    const bad = structuredClone(doc);
    bad.paths['/v1/search'].post.responses['200'].content = 'json';
    await expect(SwaggerParser.validate(bad)).rejects.toThrow();
    const validate = ajv.getSchema('openapi#/components/schemas/SearchResponse')!;
    const good = await svc.search({ query: 'hearsay', k: 1 });
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, extra: 1 })).toBe(false);
    expect(validate({ ...good, hits: [{ ...good.hits[0], score: 'high' }] })).toBe(false);
    const { uri: _uri, ...noUri } = good.hits[0];
    expect(validate({ ...good, hits: [noUri] })).toBe(false);
  });

  it('a document with bearer security is valid too', async () => {
    const secured = openApiDocument({ bearer: true });
    await SwaggerParser.validate(structuredClone(secured) as never);
    expect((secured as any).paths['/v1/search'].post.security).toEqual([{ bearer: [] }]);
  });
});

describe('/v1/runs and /v1/run (serve --api --runs)', () => {
  it("serve each run's headline figures from eval/stats: the system list's figures, interval method and printed text; 404 without --runs or for an unknown run", async () => {
    const runs = join(root, 'runs');
    const run = join(runs, 'bm25-val');
    await runRetrievalGridRun({ runDir: run, method: 'bm25', index: idx, limit: 12, ks: [10, 100] });
    const withRuns = await startApiServer(svc, { port: 0, runs, indexes: [{ name: 'default', dir: idx }] });
    try {
      const base = withRuns.url;
      const results = (await readResults(run)).records;
      const expected = headlineFigures('retrieval', results, { config: ((await readConfig(run)) as any).config });
      expect(expected.map((f) => f.id)).toEqual(['recall@10', 'recall@100', 'mrr']);
      const list = await call('GET', '/v1/runs', { base });
      expect(list.json.runs).toEqual([
        {
          id: 'bm25-val',
          system: 'retrieval',
          systemName: 'retrieval',
          n: 12,
          planned: 12,
          partial: false,
          inProgress: false,
          resultsProblem: null,
          failures: 0,
          note: null,
          figures: expected,
        },
      ]);
      const one = await call('GET', '/v1/run?run=bm25-val', { base });
      expect(one.json).toEqual(list.json.runs[0]);
      // Recall@k is a 0/1 hit per query: Wilson; MRR by the same rule as every per-item mean — a
      // proportion (Wilson) when each query's reciprocal rank is 0 or 1, else a graded mean
      // (bootstrap) — printed as a decimal
      const byId = Object.fromEntries(one.json.figures.map((f: any) => [f.id, f]));
      expect(byId['recall@10']).toMatchObject({ interval: 'wilson', kind: 'proportion', method: '95% Wilson', unit: 'decimal' });
      const rr = reciprocalRanks(results);
      const binary = rr.every((x) => x === 0 || x === 1);
      expect(byId.mrr).toMatchObject(
        binary
          ? { interval: 'wilson', kind: 'proportion', method: '95% Wilson', unit: 'decimal', n: 12 }
          : { interval: 'bootstrap', kind: 'mean', method: '95% bootstrap', unit: 'decimal', n: 12 },
      );
      expect(byId.mrr.text).toMatch(/^0\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]$/);
      const unknown = await call('GET', '/v1/run?run=../etc', { base });
      expect(unknown.status).toBe(404);
      expect((await call('GET', '/v1/run', { base })).status).toBe(400);
      expect(JSON.stringify(unknown.json)).not.toContain(root);
    } finally {
      await withRuns.close();
    }
    const none = await call('GET', '/v1/runs');
    expect(none.status).toBe(404);
    expect(none.json.error.message).toMatch(/started without --runs/);
  }, 120_000);

  it('a run with no result line yet is listed with n 0 and a note saying so, as the explorer lists it (was: left out of /v1/runs)', async () => {
    const runs = join(root, 'runs-empty');
    const started = join(runs, 'bm25-started');
    await runRetrievalGridRun({ runDir: join(runs, 'bm25-val'), method: 'bm25', index: idx, limit: 4, ks: [10] });
    await runRetrievalGridRun({ runDir: started, method: 'bm25', index: idx, limit: 4, ks: [10] });
    // as a run looks once its config.json is written and before its first item finishes
    writeFileSync(join(started, 'results.jsonl'), '');
    const withRuns = await startApiServer(svc, { port: 0, runs, indexes: [{ name: 'default', dir: idx }] });
    const explorer = await startExplorer({ port: 0, runs });
    try {
      const list = await call('GET', '/v1/runs', { base: withRuns.url });
      expect(list.json.runs.map((r: any) => r.id)).toEqual(['bm25-started', 'bm25-val']);
      const table = (await (await fetch(`${explorer.url}/api/runs/summary`)).json()) as { runs: { id: string; n: number }[] };
      expect(table.runs.map((r) => [r.id, r.n])).toEqual(list.json.runs.map((r: any) => [r.id, r.n]));
      const empty = list.json.runs[0];
      expect(empty).toMatchObject({ n: 0, planned: 4, partial: true, failures: 0, resultsProblem: null });
      expect(empty.note).toMatch(/^no result line yet/);
      expect(empty.figures).toEqual((table.runs[0] as unknown as { figures: unknown[] }).figures);
      expect(list.json.runs[1].note).toBeNull();
      expect((await call('GET', '/v1/run?run=bm25-started', { base: withRuns.url })).json).toEqual(empty);
    } finally {
      await withRuns.close();
      await explorer.close();
    }
  }, 120_000);

  it('an unknown query parameter is a 400 naming it, not ignored: /v1/run?run=ID&limt=5 (was: 200, the whole run), /v1/runs?limt=5, /v1/indexes?verbose=1', async () => {
    const runs = join(root, 'runs-strict');
    await runRetrievalGridRun({ runDir: join(runs, 'bm25-val'), method: 'bm25', index: idx, limit: 4, ks: [10] });
    const withRuns = await startApiServer(svc, { port: 0, runs, indexes: [{ name: 'default', dir: idx }] });
    try {
      const base = withRuns.url;
      for (const [path, message] of [
        ['/v1/run?run=bm25-val&limt=5', 'run: unknown field "limt"; run takes {run}'],
        ['/v1/run?rnu=bm25-val', 'run: unknown field "rnu"; did you mean "run"? run takes {run}'],
        ['/v1/runs?limt=5', 'listRuns: unknown field "limt"'],
        ['/v1/indexes?verbose=1', 'listIndexes: unknown field "verbose"'],
      ] as const) {
        const r = await call('GET', path, { base });
        expect(r.status, path).toBe(400);
        expect(r.json.error).toEqual({ code: 'INVALID_INPUT', message });
      }
      const ok = await call('GET', '/v1/run?run=bm25-val', { base });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ id: 'bm25-val', n: 4 });
      expect((await call('GET', '/v1/runs', { base })).status).toBe(200);
      expect((await call('GET', '/v1/indexes', { base })).status).toBe(200);
    } finally {
      await withRuns.close();
    }
  }, 120_000);
});

describe('/v1 routes', () => {
  it('a query parameter given twice is a 400 naming it (was: 200 with the last value, /v1/passage?id=A&id=B gave B alone)', async () => {
    const ids = (await svc.search({ query: 'hearsay statement against interest', k: 2 })).hits.map((h) => h.id);
    const path = `/v1/passage?id=${encodeURIComponent(ids[0])}&id=${encodeURIComponent(ids[1])}`;
    const twice = await call('GET', path);
    expect(twice.status).toBe(400);
    expect(twice.json.error).toEqual({ code: 'INVALID_INPUT', message: 'query parameter "id" is given 2 times; give it once' });
    const once = await call('GET', `/v1/passage?id=${encodeURIComponent(ids[1])}`);
    expect(once.status).toBe(200);
    expect(once.json.id).toBe(ids[1]);
  });

  it('indexes, search, explain, passage and evidence answer as the library does', async () => {
    const list = await call('GET', '/v1/indexes');
    expect(list.json).toEqual(svc.listIndexes());
    const body = { query: 'hearsay statement against interest', method: 'qld', k: 5 };
    const s = await call('POST', '/v1/search', { body });
    expect(s.status).toBe(200);
    expect(s.json).toEqual(await svc.search(body));
    expect(s.json.hits).toHaveLength(5);
    const filtered = await call('POST', '/v1/search', { body: { query: 'hearsay', filters: { sources: ['fre'] } } });
    expect(filtered.json.hits.every((h: any) => h.source === 'fre')).toBe(true);
    const id = s.json.hits[0].id;
    const ex = await call('POST', '/v1/explain', { body: { query: body.query, method: 'qld', id } });
    expect(ex.json).toEqual(await svc.explain({ query: body.query, method: 'qld', id }));
    expect(ex.json.score).toBeCloseTo(s.json.hits[0].score, 9);
    const p = await call('GET', `/v1/passage?id=${encodeURIComponent(id)}`);
    expect(p.json).toEqual(await svc.getPassage({ id }));
    const evBody: EvidenceInput = {
      hypothesis: 'A promise without consideration is not enforceable',
      facts: 'Alpha promised Beta a house; Beta gave nothing.',
      stance: 'against',
      k: 3,
    };
    const ev = await call('POST', '/v1/evidence', { body: evBody });
    expect(ev.json).toEqual(await svc.findEvidence(evBody));
    expect(ev.json.stance).toBe('against');
    expect(ev.json.evidence).toHaveLength(3);
  });

  it('a query longer than 2,000 characters (a fact pattern with its question) is searched whole; one over MAX_QUERY_CHARS is a 400 naming the field', async () => {
    // the terms that matter come after character 2,000: a cut query would find nothing
    const query = `${'The defendant, a merchant, was charged. '.repeat(55)}hearsay statement against interest`;
    expect(query.length).toBeGreaterThan(2200);
    const s = await call('POST', '/v1/search', { body: { query, k: 5 } });
    expect(s.status).toBe(200);
    const lib = await (await openRetriever(idx, 'bm25')).search(query, { k: 5 });
    expect(s.json.hits.map((h: any) => [h.id, h.score])).toEqual(lib.map((h) => [h.id, h.score]));
    const long = await call('POST', '/v1/search', { body: { query: 'x'.repeat(MAX_QUERY_CHARS + 1) } });
    expect(long.status).toBe(400);
    expect(long.json.error.message).toMatch(/field "query"/);
  });

  it("search with rm3: the hits of the library's RM3 retriever, method bm25+rm3 / qld+rm3; bad RM3 parameters are a 400 naming them", async () => {
    const query = 'hearsay statement against interest';
    const s = await call('POST', '/v1/search', { body: { query, k: 5, rm3: true } });
    expect(s.status).toBe(200);
    expect(s.json.method).toBe('bm25+rm3');
    const rm3 = await openRetriever(idx, 'bm25', { rm3: true });
    expect(s.json.hits.map((h: any) => [h.id, h.score])).toEqual((await rm3.search(query, { k: 5 })).map((h) => [h.id, h.score]));
    const plain = await call('POST', '/v1/search', { body: { query, k: 5 } });
    expect(plain.json.method).toBe('bm25');
    expect(s.json.hits.map((h: any) => h.id)).not.toEqual(plain.json.hits.map((h: any) => h.id));
    const q = await call('POST', '/v1/search', { body: { query, method: 'qld', k: 3, rm3: { fbDocs: 3, fbTerms: 5, originalQueryWeight: 0.7 } } });
    expect(q.json.method).toBe('qld+rm3');
    const qr = await openRetriever(idx, 'qld', { rm3: { fbDocs: 3, fbTerms: 5, originalQueryWeight: 0.7 } });
    expect(q.json.hits.map((h: any) => h.id)).toEqual((await qr.search(query, { k: 3 })).map((h) => h.id));
    const bad = await call('POST', '/v1/search', { body: { query, rm3: { fbDocs: 0 } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/rm3/);
  });

  it('rm3 fbDocs and fbTerms take up to 10,000, as the CLI and the library do (one limit, RM3_FB_MAX)', async () => {
    const query = 'hearsay statement against interest';
    const many = await call('POST', '/v1/search', { body: { query, k: 3, rm3: { fbDocs: 1500, fbTerms: 1500 } } });
    expect(many.status).toBe(200);
    const lib = await openRetriever(idx, 'bm25', { rm3: { fbDocs: 1500, fbTerms: 1500 } });
    expect(many.json.hits.map((h: any) => h.id)).toEqual((await lib.search(query, { k: 3 })).map((h) => h.id));
    const over = await call('POST', '/v1/search', { body: { query, rm3: { fbDocs: 10_001 } } });
    expect(over.status).toBe(400);
    expect(over.json.error.message).toMatch(/rm3.*fbDocs/);
  });

  it('bad input is a 400 naming the field; unknown index or passage a 404; wrong method 405; not JSON 415; bad JSON 400', async () => {
    const k0 = await call('POST', '/v1/search', { body: { query: 'x', k: 0 } });
    expect(k0.status).toBe(400);
    expect(k0.json.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/field "k"/) });
    const noQuery = await call('POST', '/v1/search', { body: { k: 3 } });
    expect(noQuery.json.error.message).toMatch(/field "query"/);
    const method = await call('POST', '/v1/search', { body: { query: 'x', method: 'dense' } });
    expect(method.status).toBe(400);
    expect(method.json.error.code).toBe('METHOD_UNAVAILABLE');
    const typo = await call('POST', '/v1/search', { body: { query: 'x', method: 'bm26' } });
    expect(typo.status).toBe(400);
    expect(typo.json.error).toMatchObject({
      code: 'METHOD_UNAVAILABLE',
      // the hint (did you mean, the known names, the index's) in the message /v1 answers
      message: expect.stringMatching(
        /^method "bm26" is not a lexcase retrieval method\n {2}hint: did you mean "bm25"\? known methods: bm25, qld, wink, .*; index "[^"]+" has: /,
      ),
    });
    expect((await call('POST', '/v1/search', { body: { query: 'x', index: 'nope' } })).status).toBe(404);
    const unknown = await call('GET', '/v1/passage?id=no-such-passage');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toMatch(/no passage "no-such-passage"/);
    expect((await call('GET', '/v1/passage')).status).toBe(400);
    expect((await call('POST', '/v1/explain', { body: { query: 'hearsay', id: 'no-such-passage' } })).status).toBe(404);
    const llm = await call('POST', '/v1/evidence', { body: { hypothesis: 'x', mode: 'llm' } });
    expect(llm.status).toBe(400);
    expect(llm.json.error.code).toBe('LLM_NOT_CONFIGURED');
    const get = await call('GET', '/v1/search');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await call('DELETE', '/v1/indexes')).status).toBe(405);
    expect((await call('POST', '/v1/search', { raw: 'query=x', type: 'text/plain' })).status).toBe(415);
    const bad = await call('POST', '/v1/search', { raw: '{"query": ' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/not valid JSON/);
    const big = await call('POST', '/v1/search', { raw: JSON.stringify({ query: 'x'.repeat(300_000) }) });
    expect(big.status).toBe(413);
    // no server path in any message
    for (const r of [k0, unknown, bad]) expect(JSON.stringify(r.json)).not.toContain(root);
  });

  it('an unknown route is a 404 and a foreign Host a 403 (DNS rebinding guard without a token)', async () => {
    const res = await fetch(`${api.url}/v1/nope`);
    expect(res.status).toBe(404);
    const u = new URL(api.url);
    const status = await new Promise<number>((r, j) => {
      const req = request({ host: u.hostname, port: u.port, path: '/v1/indexes', headers: { host: `evil.example:${u.port}` } }, (res2) => {
        const chunks: Buffer[] = [];
        res2.on('data', (c: Buffer) => chunks.push(c));
        res2.on('end', () => {
          conforms('/v1/indexes', 'GET', res2.statusCode ?? 0, JSON.parse(Buffer.concat(chunks).toString('utf8')));
          r(res2.statusCode ?? 0);
        });
      });
      req.on('error', j);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('with a token: every route but the document needs the bearer', async () => {
    const token = 'api-test-token-0123456789';
    const secured = await startApiServer(svc, { port: 0, token });
    try {
      const base = secured.url;
      const noToken = await call('POST', '/v1/search', { body: { query: 'hearsay' }, base });
      expect(noToken.status).toBe(401);
      expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await call('GET', '/v1/indexes', { base, token: 'wrong-token-0123456789' })).status).toBe(401);
      expect((await call('POST', '/v1/search', { body: { query: 'hearsay', k: 2 }, base, token })).json.hits).toHaveLength(2);
      const d = await fetch(`${base}/v1/openapi.json`);
      expect(d.status).toBe(200);
      expect(((await d.json()) as any).paths['/v1/search'].post.security).toEqual([{ bearer: [] }]);
    } finally {
      await secured.close();
    }
  });

  it('every documented 200 was seen and validated', () => {
    for (const op of API_OPERATIONS.filter((o) => o.operationId !== 'openapi'))
      expect(seen.has(`${op.method} ${op.path} 200`), `${op.method} ${op.path}`).toBe(true);
  });
});

describe('lexcase serve --api (the built CLI)', () => {
  let s: ServerChild | undefined;
  afterAll(async () => {
    await s?.stop();
  });

  it('serves /v1 over the default index when no --index is given; refuses a non-loopback host without --token', async () => {
    const refused = await runBuiltCli(['serve', '--api', '--host', '0.0.0.0', '--port', '0'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/binding 0\.0\.0\.0 \(not a loopback address\) needs an API token/);
    const mixed = await runBuiltCli(['serve', '--api', '--topics', join(root, 't.tsv'), '--port', '0'], { cwd: root });
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/--api serves the JSON API only/);
    s = await startServerChild(['serve', '--api', '--port', '0'], { cwd: root });
    expect(s.info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(s.info.indexes).toEqual(['default']);
    const base = s.info.url.replace(/\/v1$/, '');
    const r = await call('POST', '/v1/search', { body: { query: 'hearsay statement against interest', k: 3 }, base });
    expect(r.json).toEqual(await svc.search({ query: 'hearsay statement against interest', k: 3 }));
    expect(await s.stop()).toBe(0);
    s = undefined;
  }, 240_000);
});
