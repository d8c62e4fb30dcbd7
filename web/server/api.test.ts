/**
 * The explorer's JSON API over real HTTP on 127.0.0.1 (port 0), against fixtures made through the
 * library: a tiny real index, an offline CASE run and an ACAL run with the sample hearsay graph.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGraph } from '../../agents/acal/graph/store.js';
import { withResult } from '../../agents/acal/graph/recompute.js';
import { createAnalyzer } from '../../indexer/analyzer.js';
import { openDocStore } from '../../indexer/docstore.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { makeExplorerFixtures, type ExplorerFixtures } from '../test-support/explorer-fixtures.js';
import { loadAssets } from './assets.js';
import { startExplorer, type ExplorerServer } from './server.js';
import { DEFAULT_K, SEARCH_K } from '../../retrieval/default-k.js';
import { SYSTEMS } from '../../eval/systems.js';

let f: ExplorerFixtures;
let s: ExplorerServer;

async function call(path: string, init: { body?: unknown; raw?: string; method?: string; headers?: Record<string, string> } = {}) {
  const hasBody = init.body !== undefined || init.raw !== undefined;
  const res = await fetch(s.url + path, {
    method: init.method ?? (hasBody ? 'POST' : 'GET'),
    headers: hasBody ? { 'content-type': 'application/json', ...init.headers } : init.headers,
    body: init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, type: res.headers.get('content-type') ?? '' };
}

/** A request over real HTTP with any headers, Host included (fetch cannot forge Host). */
function raw(
  target: ExplorerServer,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; text: string }> {
  const u = new URL(target.url);
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolveReply, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: init.method ?? (body ? 'POST' : 'GET'),
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...init.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolveReply({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Every file under dir with its size and mtime, to prove what a request did (not) write. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(relative(dir, p), `${st.size}:${st.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  f = await makeExplorerFixtures();
  s = await startExplorer({ index: f.index, runs: f.runs, port: 0 });
}, 120_000);

afterAll(async () => {
  await s?.close();
  await f?.cleanup();
});

describe('explorer server', () => {
  it('the app script goes brotli- or gzip-compressed by Accept-Encoding and decodes to the very bytes served uncompressed', async () => {
    const get = (path: string, acceptEncoding?: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> =>
      new Promise((done, fail) => {
        const u = new URL(s.url);
        request({ host: u.hostname, port: u.port, path, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', fail);
        })
          .on('error', fail)
          .end();
      });
    const plain = await get('/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('/api/acal/contest');
    const gz = await get('/app.js', 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.byteLength);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const br = await get('/app.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    // under 40% of the bytes on the wire (the minified bundle at the time of writing: 881 KiB plain, 303 KiB gzip, 252 KiB brotli)
    expect(gz.body.byteLength).toBeLessThan(plain.body.byteLength * 0.4);
    expect(br.body.byteLength).toBeLessThan(gz.body.byteLength);
    expect((await get('/app.js', 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
    expect((await get('/app.js', 'identity')).body.equals(plain.body)).toBe(true);
    const css = await get('/app.css', 'gzip');
    expect(gunzipSync(css.body).toString()).toContain('{');
  });

  it('from the sources, the app is bundled and compressed once per process: every server it starts serves the very same bytes', async () => {
    const [a, b] = [await loadAssets(), await loadAssets()];
    expect(b['app.js'].body).toBe(a['app.js'].body);
    expect(b['app.js'].encoded.br).toBe(a['app.js'].encoded.br);
    expect(b['app.js'].body.toString()).toContain('/api/acal/contest');
  });

  it('binds to 127.0.0.1 and serves its own built page and script (no CDN)', async () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await call('/');
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.text).toContain('<script src="/app.js">');
    expect(page.text).not.toMatch(/https?:\/\//);
    const js = await call('/app.js');
    expect(js.status).toBe(200);
    expect(js.type).toContain('javascript');
    expect(js.text).toContain('/api/acal/contest');
    // the only URLs in the bundle (vega included) are XML namespaces, vega's schema id and an issue
    // link in a vega-lite message: none is fetched (the browser test also fails on any request
    // that does not go to the server)
    const NOT_FETCHED = new Set([
      'http://www.w3.org/2000/svg',
      'http://www.w3.org/1999/xlink',
      'http://www.w3.org/2000/xmlns/',
      'https://vega.github.io/schema/vega/v6.json',
      'https://github.com/vega/vega-lite/issues/2415',
    ]);
    expect([...new Set(js.text.match(/https?:\/\/[^\s"'`)]*/g) ?? [])].filter((u) => !NOT_FETCHED.has(u))).toEqual([]);
  });

  it('reports the index methods and no LLM configuration details', async () => {
    const r = await call('/api/info');
    expect(r.status).toBe(200);
    expect(r.json.index.methods).toEqual(['bm25', 'qld']);
    expect(r.json.index.passages).toBeGreaterThan(150);
    expect(r.json.llm).toEqual({ available: false });
    // The explorer's k defaults come from the one place (retrieval/default-k.ts), not from the app.
    expect(r.json.defaults).toEqual({ searchK: SEARCH_K, evidenceK: DEFAULT_K });
    // the system list comes from eval/systems.ts, one entry per system
    expect(r.json.systems.map((s: { id: string }) => s.id)).toEqual(SYSTEMS.map((s) => s.id));
    expect(r.json.systems.find((s: { id: string }) => s.id === 'case')).toEqual({
      id: 'case',
      name: 'CASE',
      traceKind: 'case',
      reportSection: 'case',
      takesIndex: true,
      runnable: true,
      variants: [],
    });
    expect(r.text).not.toMatch(/apiKey|baseUrl|sk-/i);
  });

  it("does not leak a configured model's key or endpoint to the browser", async () => {
    const secret = 'sk-explorer-test-SECRET-0123456789';
    const model = { apiKey: secret, baseUrl: 'http://10.0.0.9:8000/v1', lc_kwargs: { apiKey: secret } } as never;
    const t = await startExplorer({ index: f.index, port: 0, llm: model, llmLabel: 'test-model' });
    try {
      const r = await fetch(`${t.url}/api/info`).then((x) => x.text());
      expect(JSON.parse(r).llm).toEqual({ available: true, label: 'test-model' });
      expect(r).not.toContain(secret);
      expect(r).not.toContain('10.0.0.9');
    } finally {
      await t.close();
    }
  });

  it('search: ranked hits whose highlighted words are exactly the passage words analysed to query terms; /api/explain gives each hit a per-term explanation summing to its score', async () => {
    const query = 'hearsay statements offered to prove the truth';
    const r = await call(`/api/search?q=${encodeURIComponent(query)}&method=bm25&k=5`);
    expect(r.status).toBe(200);
    const analyzer = createAnalyzer();
    const terms = new Set(analyzer.tokens(query));
    expect(new Set(r.json.queryTerms)).toEqual(terms);
    expect(r.json.hits.length).toBe(5);
    expect(r.json.explainable).toBe(true);
    const docs = await openDocStore(f.index);
    try {
      for (const hit of r.json.hits) {
        expect(hit.explanation).toBeUndefined(); // explained on demand, not in the search reply
        const p = await docs.get(hit.id);
        const joined = hit.segments.map((x: [string, string | null]) => x[0]).join('');
        expect(p!.text.startsWith(joined)).toBe(true);
        const marked = hit.segments.filter((x: [string, string | null]) => x[1] !== null);
        expect(marked.length).toBeGreaterThan(0);
        for (const [word, term] of marked) {
          expect(analyzer.term(word)).toBe(term);
          expect(terms.has(term)).toBe(true);
        }
        // every unmarked word of the passage analyses to a non-query term
        for (const [text, term] of hit.segments)
          if (term === null) for (const w of text.match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? []) expect(terms.has(analyzer.term(w) ?? '')).toBe(false);
        const ex = await call(`/api/explain?q=${encodeURIComponent(query)}&method=bm25&id=${encodeURIComponent(hit.id)}`);
        expect(ex.status).toBe(200);
        expect(ex.json.id).toBe(hit.id);
        const e = ex.json.explanation;
        const sum = e.terms.reduce((t: number, x: { score: number }) => t + x.score, 0) + (e.base ?? 0);
        expect(sum).toBeCloseTo(hit.score, 6);
        expect(e.terms.filter((x: { tf: number }) => x.tf > 0).length).toBeGreaterThan(0);
      }
    } finally {
      await docs.close();
    }
    const scores = r.json.hits.map((x: { score: number }) => x.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const qld = await call(`/api/search?q=${encodeURIComponent(query)}&method=qld&k=3`);
    expect(qld.json.method).toBe('qld');
    const qex = await call(`/api/explain?q=${encodeURIComponent(query)}&method=qld&id=${encodeURIComponent(qld.json.hits[0].id)}`);
    expect(qex.json.explanation.terms.length).toBeGreaterThan(0);
    expect(qex.json.explanation.score).toBeCloseTo(qld.json.hits[0].score, 6);
  });

  it('explain: an unknown passage is a 404, a missing id or an unknown method a 400', async () => {
    const unknown = await call('/api/explain?q=hearsay&method=bm25&id=no-such-passage');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatch(/no-such-passage/);
    const noId = await call('/api/explain?q=hearsay&method=bm25');
    expect(noId.status).toBe(400);
    expect(noId.json.error).toMatch(/"id"/);
    const dense = await call('/api/explain?q=hearsay&method=dense&id=x');
    expect(dense.status).toBe(400);
  });

  it('search: bad input is a 400 naming the field', async () => {
    const noQ = await call('/api/search?method=bm25');
    expect(noQ.status).toBe(400);
    expect(noQ.json.error).toMatch(/"q"/);
    const blank = await call('/api/search?q=%20%20');
    expect(blank.status).toBe(400);
    const k0 = await call('/api/search?q=contract&k=0');
    expect(k0.status).toBe(400);
    expect(k0.json.error).toMatch(/"k"/);
    const kText = await call('/api/search?q=contract&k=ten');
    expect(kText.status).toBe(400);
    const dense = await call('/api/search?q=contract&method=dense');
    expect(dense.status).toBe(400);
    expect(dense.json.error).toMatch(/not in this index \(available: bm25, qld\)/);
  });

  it('evidence: the offline advocate returns passages its own tool calls retrieved, highlighted', async () => {
    const r = await call('/api/evidence', { body: { hypothesis: 'A promise without consideration is not enforceable', k: 3 } });
    expect(r.status).toBe(200);
    expect(r.json.mode).toBe('offline heuristic, no LLM');
    expect(r.json.evidence).toHaveLength(3);
    const returned = new Set(r.json.toolCalls.flatMap((c: { ids: string[] }) => c.ids));
    // the offline query plan without facts: the hypothesis, then its key terms, through bm25
    expect(r.json.toolCalls.map((c: { tool: string; query: string }) => [c.tool, c.query])).toEqual([
      ['bm25_search', 'A promise without consideration is not enforceable'],
      ['bm25_search', 'promise without consideration enforceable'],
    ]);
    for (const e of r.json.evidence) expect(returned.has(e.id)).toBe(true);
    const facts = 'Alpha promised to convey an apartment house to Beta; Beta gave nothing in return.';
    const against = await call('/api/evidence', { body: { hypothesis: 'A promise without consideration is not enforceable', facts, k: 3, against: true } });
    expect(against.status).toBe(200);
    expect(against.json.stance).toBe('against');
    // offline counter-evidence contrasts the facts with the hypothesis, so it needs facts
    const noFacts = await call('/api/evidence', { body: { hypothesis: 'A promise without consideration is not enforceable', against: true } });
    expect(noFacts.status).toBe(400);
  });

  it('evidence: with a model, mode "llm" runs the LLM advocate over the index\'s retrieval tools', async () => {
    const top = (await call('/api/search?q=hearsay%20statement&method=bm25&k=3')).json.hits.map((x: { id: string }) => x.id);
    // the model cites the first hit by the handle its tool result showed (models never see ids; a real id written out is no pick)
    const model = new FakeChatModel((call, i) =>
      i === 0
        ? { toolCalls: [{ name: 'bm25_search', args: { query: 'hearsay statement' } }] }
        : JSON.stringify({
            analysis: 'the first hit defines hearsay',
            evidence: [
              { id: /"id":"(P\d+)"/.exec(call.text)?.[1], justification: 'defines the term' },
              { id: 'never-returned', justification: 'invented' },
            ],
          }),
    );
    const t = await startExplorer({ index: f.index, port: 0, llm: model as never, llmLabel: 'fake' });
    try {
      const res = await fetch(`${t.url}/api/evidence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hypothesis: 'The statement is hearsay', mode: 'llm', k: 2 }),
      });
      const r = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(r.mode).toBe('llm');
      expect(model.calls[0].tools.map((x) => x.function.name)).toEqual(expect.arrayContaining(['bm25_search', 'qld_search']));
      expect(r.toolCalls[0]).toMatchObject({ tool: 'bm25_search', query: 'hearsay statement' });
      expect(r.toolCalls[0].ids).toHaveLength(2); // the model named no k: the tools search with the request's k
      expect(r.evidence.map((e: { id: string }) => e.id)).toEqual([top[0]]); // an id no tool returned is dropped
      expect(r.rejectedIds).toEqual(['never-returned']);
      expect(r.evidence[0].segments.some((x: [string, string | null]) => x[1] === 'statement')).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('evidence: empty hypothesis, LLM mode without a model, bad JSON and a wrong content type are 4xx', async () => {
    expect((await call('/api/evidence', { body: { hypothesis: '  ' } })).status).toBe(400);
    const llm = await call('/api/evidence', { body: { hypothesis: 'x', mode: 'llm' } });
    expect(llm.status).toBe(400);
    expect(llm.json.error).toMatch(/no LLM is configured/);
    const bad = await call('/api/evidence', { raw: '{"hypothesis": ' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/not valid JSON/);
    const text = await call('/api/evidence', { raw: 'hypothesis=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect((await call('/api/evidence', { body: { hypothesis: 'x', k: 99 } })).status).toBe(400);
    expect((await call('/api/evidence')).status).toBe(405);
  });

  it('runs: lists the CASE and ACAL runs; the question filter splits all into correct and wrong', async () => {
    const r = await call('/api/runs');
    const ids = r.json.runs.map((x: { id: string }) => x.id).sort();
    expect(ids).toEqual([f.acalRunId, f.caseRunId, f.llmRunId].sort());
    expect(r.text).not.toContain(f.root); // absolute paths stay on the server
    const all = await call(`/api/run/questions?run=${f.caseRunId}`);
    expect(all.json.total).toBe(f.questions.length);
    const correct = await call(`/api/run/questions?run=${f.caseRunId}&filter=correct`);
    const wrong = await call(`/api/run/questions?run=${f.caseRunId}&filter=wrong`);
    expect(correct.json.questions.every((q: { correct: boolean }) => q.correct)).toBe(true);
    expect(wrong.json.questions.every((q: { correct: boolean }) => !q.correct)).toBe(true);
    expect(correct.json.questions.length + wrong.json.questions.length).toBe(f.questions.length);
    expect((await call(`/api/run/questions?run=${f.caseRunId}&filter=maybe`)).status).toBe(400);
  });

  it('trace: hypotheses, tool calls and evidence of each advocate, with the gold answer and gold passages of the dataset', async () => {
    const q = f.questions[0];
    const r = await call(`/api/run/trace?run=${f.caseRunId}&item=${q.id}`);
    expect(r.status).toBe(200);
    expect(r.json.question.answer).toBe(q.answer);
    expect(r.json.goldPassageIds).toEqual(q.goldPassageIds);
    expect(r.json.goldPassages[0].snippet).toBeTruthy(); // the gold passage is in the served index
    const advocates = r.json.trace.advocates;
    expect(advocates.map((a: { letter: string }) => a.letter)).toEqual(q.choices.map((_, i) => 'ABCD'[i]));
    for (const a of advocates) {
      expect(a.toolCalls.length).toBeGreaterThan(0);
      expect(a.toolCalls[0].query).toContain(a.hypothesis);
      expect(a.evidence.length).toBe(5);
    }
    expect(r.json.trace.verdict.answer).toBe(r.json.result.prediction);
    expect((await call(`/api/run/trace?run=${f.caseRunId}&item=nope`)).status).toBe(404);
  });

  it('a trace of another attempt than its results line (a retry stopped between the two writes) is not shown, as lexcase report skips it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lexcase-explorer-attempt-'));
    try {
      const runs = join(root, 'runs');
      cpSync(join(f.runs, f.caseRunId), join(runs, 'killed-retry'), { recursive: true });
      const q = f.questions[0];
      const traceFile = join(runs, 'killed-retry', 'traces', `${q.id}.json`);
      const trace = JSON.parse(readFileSync(traceFile, 'utf8'));
      // the new attempt's trace: another prediction than the line results.jsonl still holds
      trace.runner = { ...trace.runner, prediction: trace.runner.prediction === 'A' ? 'B' : 'A', ms: 1 };
      writeFileSync(traceFile, JSON.stringify(trace));
      const t = await startExplorer({ index: f.index, runs, port: 0 });
      try {
        const r = (await (await fetch(`${t.url}/api/run/trace?run=killed-retry&item=${q.id}`)).json()) as any;
        expect(r.trace).toBeNull();
        expect(r.traceProblem).toMatch(/another attempt than its results\.jsonl line/);
        // the other items' traces are still served
        const other = (await (await fetch(`${t.url}/api/run/trace?run=killed-retry&item=${f.questions[1].id}`)).json()) as any;
        expect(other.trace.advocates.length).toBeGreaterThan(0);
        expect(other.traceProblem).toBeNull();
      } finally {
        await t.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("trace of an LLM run: advocates' tool loops, the seeded juror panel with reasoning and votes, and the jury verdict", async () => {
    const q = f.questions[0];
    const r = await call(`/api/run/trace?run=${f.llmRunId}&item=${q.id}`);
    expect(r.status).toBe(200);
    const t = r.json.trace;
    expect(t.mode).toBe('llm');
    expect(t.advocates).toHaveLength(q.choices.length);
    for (const a of t.advocates) {
      expect(a.toolCalls[0]).toMatchObject({ tool: 'bm25_search', step: 1 });
      const returned = new Set(a.toolCalls.flatMap((c: { ids: string[] }) => c.ids));
      for (const e of a.evidence) expect(returned.has(e.id)).toBe(true);
    }
    expect(t.jurors).toHaveLength(3);
    expect(t.jurors.map((j: { persona: string }) => j.persona)).toEqual(t.panel);
    expect(t.jurors.every((j: { vote: string }) => j.vote === q.answer)).toBe(true);
    expect(t.verdict).toMatchObject({ answer: q.answer, confidence: 'high' });
    expect(r.json.result.correct).toBe(true);
    const wrong = await call(`/api/run/questions?run=${f.llmRunId}&filter=wrong`);
    // the second question's jurors all voted "A"
    expect(wrong.json.questions.map((x: { id: string }) => x.id)).toEqual(f.questions[1].answer === 'A' ? [] : [f.questions[1].id]);
  });

  it('contest: rejecting an argument recomputes σ(claim) through the library, saves the graph and appends the audit log', async () => {
    const runDir = join(f.runs, f.acalRunId);
    const before = await call(`/api/acal/graph?run=${f.acalRunId}&item=${f.acalItem}`);
    expect(before.status).toBe(200);
    const s0 = before.json.graph.result.claimStrength;
    expect(before.json.audit).toEqual([]);
    const r = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'reject', argument: 's1' }, who: 'tester' } });
    expect(r.status).toBe(200);
    expect(r.json.entry.claim.before.strength).toBeCloseTo(s0, 12);
    const saved = withResult(readGraph(runDir, f.acalItem));
    expect(saved.revision).toBe(1);
    expect(saved.arguments.find((a) => a.id === 's1')!.status).toBe('rejected');
    expect(r.json.graph.result.claimStrength).toBeCloseTo(saved.result!.claimStrength, 12);
    expect(saved.result!.claimStrength).toBeLessThan(s0); // a supporter left the QBAF
    expect(r.json.audit).toHaveLength(1);
    expect(r.json.audit[0].who).toBe('tester');
    const lines = readFileSync(join(runDir, 'acal', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(1);
    // set-base and add go through the same path
    const sb = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'set-base', argument: 'a1', base: 0.1 } } });
    expect(sb.status).toBe(200);
    expect(sb.json.graph.result.effectiveBase.a1).toBe(0.1);
    const add = await call('/api/acal/contest', {
      body: {
        run: f.acalRunId,
        item: f.acalItem,
        action: { type: 'add', side: 'attack', text: 'Offered only to show her state of mind.', base: 0.5, relations: [{ kind: 'attack', to: 's2' }] },
      },
    });
    expect(add.status).toBe(200);
    expect(add.json.graph.arguments.map((a: { id: string }) => a.id)).toContain('h1');
    expect(add.json.graph.revision).toBe(3);
    // compare-and-set (issue 37, item 2): an action meant for revision 2 is refused, nothing written
    const auditBefore = readFileSync(join(runDir, 'acal', 'audit.jsonl'), 'utf8');
    const stale = await call('/api/acal/contest', {
      body: { run: f.acalRunId, item: f.acalItem, action: { type: 'reject', argument: 'a1' }, expectRevision: 2 },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.code).toBe('REVISION_CONFLICT');
    expect(readGraph(runDir, f.acalItem).revision).toBe(3);
    expect(readFileSync(join(runDir, 'acal', 'audit.jsonl'), 'utf8')).toBe(auditBefore);
    const current = await call('/api/acal/contest', {
      body: { run: f.acalRunId, item: f.acalItem, action: { type: 'reject', argument: 'a1' }, expectRevision: 3 },
    });
    expect(current.status).toBe(200);
    expect(current.json.graph.revision).toBe(4);
  });

  it('contest: invalid actions are 400 naming the field; unknown arguments 404; cross-origin POSTs 403', async () => {
    const base2 = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'set-base', argument: 's2', base: 2 } } });
    expect(base2.status).toBe(400);
    expect(base2.json.error).toMatch(/action\.base/);
    const unknownType = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'delete', argument: 's2' } } });
    expect(unknownType.status).toBe(400);
    const noArg = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'accept', argument: 'zz9' } } });
    expect(noArg.status).toBe(404);
    expect(noArg.json.error).toMatch(/zz9/);
    const cross = await call('/api/acal/contest', {
      body: { run: f.acalRunId, item: f.acalItem, action: { type: 'accept', argument: 's2' } },
      headers: { origin: 'http://evil.example' },
    });
    expect(cross.status).toBe(403);
  });

  it('path traversal: runs and items outside the listing are 404 and nothing is written outside the run directory', async () => {
    const outside = snapshot(f.root);
    const tries = [
      `/api/run/questions?run=${encodeURIComponent('../')}`,
      `/api/run/questions?run=${encodeURIComponent('/etc')}`,
      `/api/run/trace?run=${f.caseRunId}&item=${encodeURIComponent('../../config')}`,
      `/api/acal/graph?run=${encodeURIComponent(f.acalRunId + '/..')}&item=${f.acalItem}`,
      `/api/acal/graph?run=${f.acalRunId}&item=${encodeURIComponent('../../../index/manifest')}`,
      `/api/acal/graphs?run=${encodeURIComponent('..')}`,
      '/..%2f..%2fpackage.json',
      '/%2e%2e/%2e%2e/etc/passwd',
    ];
    for (const t of tries) expect((await call(t)).status, t).toBe(404);
    for (const [run, item] of [
      ['..', f.acalItem],
      [`${f.acalRunId}/../..`, f.acalItem],
      [f.acalRunId, '../../../evil'],
      [f.acalRunId, `${f.acalItem}/../../x`],
    ]) {
      const r = await call('/api/acal/contest', { body: { run, item, action: { type: 'add', side: 'support', text: 'x', base: 0.5 } } });
      expect(r.status, `${run} ${item}`).toBe(404);
    }
    expect(snapshot(f.root)).toEqual(outside);
  });

  it('unknown API routes are 404 and other verbs 405', async () => {
    expect((await call('/api/nothing')).status).toBe(404);
    expect((await call('/api/search?q=x', { method: 'DELETE' })).status).toBe(405);
    expect((await call('/', { method: 'PUT', raw: '' })).status).toBe(405);
  });
});

describe('explorer server: host and origin rules (DNS rebinding)', () => {
  const port = () => new URL(s.url).port;

  it('a rebound name (Host: evil.example:PORT with its own Origin) cannot contest a graph: 403, graph and audit log untouched', async () => {
    const before = snapshot(f.runs);
    const r = await raw(s, '/api/acal/contest', {
      headers: { host: `evil.example:${port()}`, origin: `http://evil.example:${port()}` },
      body: { run: f.acalRunId, item: f.acalItem, action: { type: 'reject', argument: 's2' }, who: 'attacker' },
    });
    expect(r.status).toBe(403);
    expect(r.text).not.toContain('attacker');
    expect(snapshot(f.runs)).toEqual(before);
  });

  it('GETs under a foreign Host are refused too: no run, trace, search or page is read', async () => {
    for (const path of [
      '/api/runs',
      `/api/run/questions?run=${f.caseRunId}`,
      `/api/run/trace?run=${f.caseRunId}&item=${f.questions[0].id}`,
      '/api/info',
      '/api/search?q=hearsay',
      '/',
      '/app.js',
    ])
      for (const host of [
        `evil.example:${port()}`,
        'evil.example',
        `127.0.0.1.evil.example:${port()}`,
        `127.0.0.1:${Number(port()) + 1}`,
        `localhost:${port()}@evil.example`,
      ]) {
        const r = await raw(s, path, { headers: { host } });
        expect(r.status, `${host} ${path}`).toBe(403);
        expect(r.text, `${host} ${path}`).not.toContain(f.caseRunId);
      }
  });

  it('the bound names are served: 127.0.0.1, localhost and [::1] with the bound port, case-insensitively', async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `LOCALHOST:${port()}`, `[::1]:${port()}`]) {
      const r = await raw(s, '/api/runs', { headers: { host } });
      expect(r.status, host).toBe(200);
      expect(JSON.parse(r.text).runs.length).toBe(3);
    }
  });

  it('an Origin other than a bound name on the bound port is refused, on GET and POST; a same-origin POST is served', async () => {
    const host = `127.0.0.1:${port()}`;
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${port()}`,
      'null',
      `https://127.0.0.1:${port()}`,
      `http://127.0.0.1:${Number(port()) + 1}`,
      `http://127.0.0.1:${port()}.evil.example`,
    ]) {
      expect((await raw(s, '/api/runs', { headers: { host, origin } })).status, origin).toBe(403);
      const post = await raw(s, '/api/acal/contest', {
        headers: { host, origin },
        body: { run: f.acalRunId, item: f.acalItem, action: { type: 'accept', argument: 's2' } },
      });
      expect(post.status, origin).toBe(403);
    }
    expect((await raw(s, '/api/runs', { headers: { host, origin: `http://localhost:${port()}` } })).status).toBe(200);
    const ok = await raw(s, '/api/acal/contest', {
      headers: { host, origin: `http://127.0.0.1:${port()}` },
      body: { run: f.acalRunId, item: f.acalItem, action: { type: 'accept', argument: 's2' }, who: 'same-origin' },
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).entry.who).toBe('same-origin');
  });

  it('a request without a Host header (HTTP/1.0) is refused', async () => {
    const { connect } = await import('node:net');
    const u = new URL(s.url);
    const reply = await new Promise<string>((resolveReply, reject) => {
      const sock = connect(Number(u.port), u.hostname, () => sock.end('GET /api/runs HTTP/1.0\r\n\r\n'));
      let out = '';
      sock.on('data', (c) => (out += c.toString()));
      sock.on('end', () => resolveReply(out));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.[01] 403/);
    expect(reply).not.toContain(f.caseRunId);
  });

  it('a server bound with --host 127.0.0.2 answers to that address and the loopback names, and to no other', async () => {
    const t = await startExplorer({ runs: f.runs, host: '127.0.0.2', port: 0 });
    try {
      const p = new URL(t.url).port;
      expect(t.url).toBe(`http://127.0.0.2:${p}`);
      for (const host of [`127.0.0.2:${p}`, `localhost:${p}`]) expect((await raw(t, '/api/runs', { headers: { host } })).status, host).toBe(200);
      expect((await raw(t, '/api/runs', { headers: { host: `127.0.0.2:${p}`, origin: `http://127.0.0.2:${p}` } })).status).toBe(200);
      for (const host of [`example.internal:${p}`, `127.0.0.3:${p}`]) expect((await raw(t, '/api/runs', { headers: { host } })).status, host).toBe(403);
    } finally {
      await t.close();
    }
  });

  it('prototype names are no routes: /constructor, /__proto__, /toString and the same under /api/ are 404 (GET and POST)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect((await call(`/${name}`)).status, `/${name}`).toBe(404);
      expect((await call(`/api/${name}`)).status, `/api/${name}`).toBe(404);
      expect((await call(`/api/${name}`, { body: {} })).status, `POST /api/${name}`).toBe(404);
    }
  });
});

describe("explorer server: nothing of the server's file system or endpoint settings reaches the browser", () => {
  it('/api/info names the index by its directory name only', async () => {
    const r = await call('/api/info');
    expect(r.json.index.name).toBe('index');
    expect(r.json.index.dir).toBeUndefined();
    expect(r.text).not.toContain(f.root);
    expect(r.text).not.toContain(realpathSync(f.root));
  });

  it('every run API reply is free of absolute paths, baseUrl and cacheDir (a run config with model settings and an absolute index path; an error naming a file)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lexcase-explorer-private-'));
    try {
      const runs = join(root, 'runs');
      cpSync(join(f.runs, f.caseRunId), join(runs, 'with-model'), { recursive: true });
      const cfgFile = join(runs, 'with-model', 'config.json');
      const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
      cfg.config.model = { baseUrl: 'http://10.0.0.9:8000/v1', model: 'qwen-test', cacheDir: join(root, 'llm-cache'), apiKey: '***', temperature: 0 };
      cfg.config.index = join(root, 'indexes', 'barexam-index');
      writeFileSync(cfgFile, JSON.stringify(cfg));
      cpSync(join(f.runs, f.acalRunId), join(runs, 'acal-run'), { recursive: true });
      writeFileSync(join(runs, 'acal-run', 'acal', 'broken.graph.json'), JSON.stringify({ itemId: 'broken', claim: 42 })); // valid JSON, not a graph: the error names the file
      const t = await startExplorer({ index: f.index, runs, port: 0 });
      try {
        const get = async (path: string) => {
          const r = await fetch(t.url + path);
          return { status: r.status, text: await r.text() };
        };
        const replies = [
          await get('/api/info'),
          await get('/api/runs'),
          await get('/api/run/questions?run=with-model'),
          ...(await Promise.all(f.questions.map((q) => get(`/api/run/trace?run=with-model&item=${q.id}`)))),
          await get('/api/acal/graphs?run=acal-run'),
          await get(`/api/acal/graph?run=acal-run&item=${f.acalItem}`),
          await get('/api/acal/graph?run=acal-run&item=broken'),
          await get('/api/search?q=hearsay'),
        ];
        for (const r of replies) {
          for (const secret of [root, realpathSync(root), f.root, realpathSync(f.root), '10.0.0.9', 'llm-cache']) expect(r.text).not.toContain(secret);
          expect(r.text).not.toMatch(/baseUrl|cacheDir/i);
        }
        const questions = JSON.parse(replies[2].text);
        expect(questions.run.config.model).toEqual({ model: 'qwen-test', temperature: 0 });
        expect(questions.run.config.index).toBe('barexam-index');
        // the broken graph is listed with its error, which names the file relative to the runs root
        const broken = JSON.parse(replies[replies.length - 4].text).graphs.find((g: { itemId: string }) => g.itemId === 'broken');
        expect(broken.error).toContain('runs/acal-run/acal/broken.graph.json');
      } finally {
        await t.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('explorer server: symbolic links under --runs', () => {
  it('a linked run, trace or graph that resolves outside the runs root is neither listed nor served; links inside it are', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lexcase-explorer-links-'));
    try {
      const runs = join(root, 'runs');
      const outside = join(root, 'outside');
      mkdirSync(runs, { recursive: true });
      cpSync(join(f.runs, f.caseRunId), join(outside, 'case-run'), { recursive: true });
      cpSync(join(f.runs, f.acalRunId), join(outside, 'acal-run'), { recursive: true });
      // 1. a run directory linked from outside the root
      symlinkSync(join(outside, 'case-run'), join(runs, 'linked-out'));
      // 2. a real run inside whose trace file links outside
      cpSync(join(f.runs, f.caseRunId), join(runs, 'real-case'), { recursive: true });
      const item = f.questions[0].id;
      const traceFile = join(runs, 'real-case', 'traces', `${item}.json`);
      rmSync(traceFile);
      symlinkSync(join(outside, 'case-run', 'traces', `${item}.json`), traceFile);
      // 3. an ACAL run inside whose graph file links outside; 4. one whose acal/ folder links outside
      mkdirSync(join(runs, 'acal-linked-graph', 'acal'), { recursive: true });
      const graphName = readdirSync(join(outside, 'acal-run', 'acal')).find((n) => n.endsWith('.graph.json'))!;
      symlinkSync(join(outside, 'acal-run', 'acal', graphName), join(runs, 'acal-linked-graph', 'acal', graphName));
      mkdirSync(join(runs, 'acal-linked-dir'));
      symlinkSync(join(outside, 'acal-run', 'acal'), join(runs, 'acal-linked-dir', 'acal'));
      // 5. a link that stays inside the root is followed
      symlinkSync(join(runs, 'real-case'), join(runs, 'alias-inside'));
      const outsideBefore = snapshot(outside);

      const t = await startExplorer({ runs, port: 0 });
      try {
        const get = async (path: string) => {
          const r = await fetch(t.url + path);
          return { status: r.status, json: (await r.json()) as any };
        };
        const ids = (await get('/api/runs')).json.runs.map((r: { id: string }) => r.id).sort();
        expect(ids).toEqual(['alias-inside', 'real-case']);
        expect((await get('/api/run/questions?run=linked-out')).status).toBe(404);
        expect((await get(`/api/run/trace?run=real-case&item=${item}`)).status).toBe(404);
        expect((await get(`/api/run/trace?run=real-case&item=${f.questions[1].id}`)).status).toBe(200);
        expect((await get(`/api/run/trace?run=alias-inside&item=${f.questions[1].id}`)).status).toBe(200);
        expect((await get(`/api/acal/graph?run=acal-linked-graph&item=${f.acalItem}`)).status).toBe(404);
        expect((await get(`/api/acal/graphs?run=acal-linked-dir`)).status).toBe(404);
        const contest = await fetch(`${t.url}/api/acal/contest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ run: 'acal-linked-graph', item: f.acalItem, action: { type: 'reject', argument: 's1' } }),
        });
        expect(contest.status).toBe(404);
      } finally {
        await t.close();
      }
      expect(snapshot(outside)).toEqual(outsideBefore);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
