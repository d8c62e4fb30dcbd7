/**
 * The explorer's JSON API over real HTTP on 127.0.0.1 (port 0), against fixtures made through the
 * library: a tiny real index, an offline CASE run and an ACAL run with the sample hearsay graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGraph } from '../../agents/acal/graph/store.js';
import { withResult } from '../../agents/acal/graph/recompute.js';
import { createAnalyzer } from '../../indexer/analyzer.js';
import { openDocStore } from '../../indexer/docstore.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { makeExplorerFixtures, type ExplorerFixtures } from '../test-support/explorer-fixtures.js';
import { startExplorer, type ExplorerServer } from './server.js';

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
    expect(js.text).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('reports the index methods and no LLM configuration details', async () => {
    const r = await call('/api/info');
    expect(r.status).toBe(200);
    expect(r.json.index.methods).toEqual(['bm25', 'qld']);
    expect(r.json.index.passages).toBeGreaterThan(150);
    expect(r.json.llm).toEqual({ available: false });
    expect(r.text).not.toMatch(/apiKey|baseUrl|sk-/i);
  });

  it('does not leak a configured model\'s key or endpoint to the browser', async () => {
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

  it('search: ranked hits whose highlighted words are exactly the passage words analysed to query terms, and a per-term explanation summing to the score', async () => {
    const query = 'hearsay statements offered to prove the truth';
    const r = await call(`/api/search?q=${encodeURIComponent(query)}&method=bm25&k=5`);
    expect(r.status).toBe(200);
    const analyzer = createAnalyzer();
    const terms = new Set(analyzer.tokens(query));
    expect(new Set(r.json.queryTerms)).toEqual(terms);
    expect(r.json.hits.length).toBe(5);
    const docs = await openDocStore(f.index);
    try {
      for (const hit of r.json.hits) {
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
        for (const [text, term] of hit.segments) if (term === null) for (const w of text.match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? []) expect(terms.has(analyzer.term(w) ?? '')).toBe(false);
        const e = hit.explanation;
        const sum = e.terms.reduce((t: number, x: { score: number }) => t + x.score, 0) + (e.base ?? 0);
        expect(sum).toBeCloseTo(hit.score, 6);
      }
    } finally {
      await docs.close();
    }
    const scores = r.json.hits.map((x: { score: number }) => x.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const qld = await call(`/api/search?q=${encodeURIComponent(query)}&method=qld&k=3`);
    expect(qld.json.method).toBe('qld');
    expect(qld.json.hits[0].explanation.terms.length).toBeGreaterThan(0);
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
    const model = new FakeChatModel([
      { toolCalls: [{ name: 'bm25_search', args: { query: 'hearsay statement' } }] },
      JSON.stringify({ analysis: 'the first hit defines hearsay', evidence: [{ id: top[0], justification: 'defines the term' }, { id: 'never-returned', justification: 'invented' }] }),
    ]);
    const t = await startExplorer({ index: f.index, port: 0, llm: model as never, llmLabel: 'fake' });
    try {
      const res = await fetch(`${t.url}/api/evidence`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hypothesis: 'The statement is hearsay', mode: 'llm', k: 2 }) });
      const r = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(r.mode).toBe('llm');
      expect(model.calls[0].tools.map((x) => x.function.name)).toEqual(expect.arrayContaining(['bm25_search', 'qld_search']));
      expect(r.toolCalls[0]).toMatchObject({ tool: 'bm25_search', query: 'hearsay statement' });
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

  it('trace of an LLM run: advocates\' tool loops, the seeded juror panel with reasoning and votes, and the jury verdict', async () => {
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
    const lines = readFileSync(join(runDir, 'acal', 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    // set-base and add go through the same path
    const sb = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'set-base', argument: 'a1', base: 0.1 } } });
    expect(sb.status).toBe(200);
    expect(sb.json.graph.result.effectiveBase.a1).toBe(0.1);
    const add = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'add', side: 'attack', text: 'Offered only to show her state of mind.', base: 0.5, relations: [{ kind: 'attack', to: 's2' }] } } });
    expect(add.status).toBe(200);
    expect(add.json.graph.arguments.map((a: { id: string }) => a.id)).toContain('h1');
    expect(add.json.graph.revision).toBe(3);
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
    const cross = await call('/api/acal/contest', { body: { run: f.acalRunId, item: f.acalItem, action: { type: 'accept', argument: 's2' } }, headers: { origin: 'http://evil.example' } });
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
