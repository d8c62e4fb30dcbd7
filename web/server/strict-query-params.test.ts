/**
 * The explorer's query routes (GET /api/search, /api/explain, /api/passage, and the run routes) refuse a query parameter
 * they do not take, or one given twice, instead of answering as if it were not there. Before, a
 * misspelt `kk=3` searched with the default k = 10, `metod=dense` searched bm25, `index=other`
 * searched the served index, and `k=1&k=3` searched k = 3 (the last value won) — each a 200 whose
 * hits were not the ones asked for. Now each is a 400 naming the parameter; what the explorer's own
 * front end sends (web/app/search-view.ts, passage-view.ts) still answers 200.
 *
 * Data: the explorer fixtures (web/test-support/explorer-fixtures.ts): a real index of Bar Exam gold
 * passages and legal_corpus distractors; the explorer runs on 127.0.0.1 in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExplorerFixtures, type ExplorerFixtures } from '../test-support/explorer-fixtures.js';
import { startExplorer, type ExplorerServer } from './server.js';

let f: ExplorerFixtures;
let s: ExplorerServer;

beforeAll(async () => {
  f = await makeExplorerFixtures();
  s = await startExplorer({ index: f.index, runs: f.runs, port: 0 });
}, 120_000);
afterAll(async () => {
  await s?.close();
  await f?.cleanup();
});

const get = async (path: string) => {
  const res = await fetch(s.url + path);
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

const Q = encodeURIComponent('hearsay statement against interest');

describe('GET /api/search, /api/explain, /api/passage refuse an unknown or repeated query parameter', () => {
  it('kk=3, metod=qld and index=other are 400 naming the parameter, not a default-k bm25 search of the served index', async () => {
    for (const [path, message] of [
      [`/api/search?q=${Q}&kk=3`, 'search: unknown field "kk"; did you mean "k"? search takes {q, method, k}'],
      [`/api/search?q=${Q}&metod=qld&k=3`, 'search: unknown field "metod"; did you mean "method"? search takes {q, method, k}'],
      [`/api/search?q=${Q}&k=3&index=other`, 'search: unknown field "index"'],
      [`/api/explain?q=${Q}&metod=qld&id=x`, 'explain: unknown field "metod"; did you mean "method"? explain takes {q, method, id}'],
      [`/api/passage?id=x&idx=1`, 'passage: unknown field "idx"'],
    ] as const) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.json.error, path).toContain(message);
    }
  });

  it('k=1&k=3 (a parameter given twice) is a 400 naming it, not a search with the last value', async () => {
    const r = await get(`/api/search?q=${Q}&k=1&k=3`);
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('query parameter "k" is given 2 times; give it once');
  });

  it('k takes only decimal digits: k=, k=0x3, k=1e1, k=%203 and k=0 are one 400 naming k and what it takes', async () => {
    for (const k of ['', '0x3', '1e1', '%203', '3.0', '-3', '0', '101']) {
      const r = await get(`/api/search?q=${Q}&k=${k}`);
      expect(r.status, `k=${k}`).toBe(400);
      expect(r.json.error, `k=${k}`).toContain('k takes a whole number from 1 to 100 in decimal digits (e.g. k=10)');
      expect(r.json.error, `k=${k}`).not.toContain('Too small');
    }
    const ok = await get(`/api/search?q=${Q}&k=003`);
    expect(ok.status).toBe(200);
    expect(ok.json.k).toBe(3);
    expect(ok.json.hits).toHaveLength(3);
    const dflt = await get(`/api/search?q=${Q}`);
    expect(dflt.status).toBe(200);
    expect(dflt.json.k).toBe(10);
  });

  it("the front end's own queries answer 200 with the k and method they name", async () => {
    const hits = await get(`/api/search?q=${Q}&method=qld&k=3`);
    expect(hits.status).toBe(200);
    expect(hits.json).toMatchObject({ method: 'qld', k: 3 });
    expect(hits.json.hits).toHaveLength(3);
    const id = hits.json.hits[0].id as string;
    const why = await get(`/api/explain?q=${Q}&method=qld&id=${encodeURIComponent(id)}`);
    expect(why.status).toBe(200);
    expect(why.json.explanation.score).toBe(hits.json.hits[0].score);
    const p = await get(`/api/passage?id=${encodeURIComponent(id)}`);
    expect(p.status).toBe(200);
    expect(p.json.id).toBe(id);
  });
});

describe('the run routes refuse a parameter they do not take (they answered as if it were not there)', () => {
  it('filtr=wrong, a compare given a seed, a run summary given an item: 400 naming the parameter, not every row or an unasked default', async () => {
    const run = encodeURIComponent(f.caseRunId);
    const llm = encodeURIComponent(f.llmRunId);
    for (const [path, message] of [
      // before: every row (filter defaulted to all), while the caller asked for the wrong answers
      [`/api/run/questions?run=${run}&filtr=wrong`, 'questions: unknown field "filtr"; did you mean "filter"?'],
      [`/api/run/summary?run=${run}&item=x`, 'run summary: unknown field "item"'],
      [`/api/compare?a=${run}&b=${llm}&seed=7`, 'compare: unknown field "seed"'],
      [`/api/compare/runs?runs=${run},${llm}&iterations=500`, 'compare: unknown field "iterations"'],
      [`/api/run/trace?run=${run}&item=x&itm=y`, 'trace: unknown field "itm"'],
      [`/api/run/calls?run=${run}&item=x&k=3`, 'calls: unknown field "k"'],
      [`/api/acal/graphs?run=${run}&item=x`, 'graphs: unknown field "item"'],
      [`/api/acal/graph?run=${run}&item=x&action=y`, 'graph: unknown field "action"'],
      [`/api/runs?run=${run}`, 'runs: unknown field "run"'],
      [`/api/runs/summary?run=${run}`, 'runs summary: unknown field "run"'],
    ] as const) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.json.error, path).toContain(message);
    }
  });

  it("the front end's own run queries (web/app) still answer 200", async () => {
    const run = encodeURIComponent(f.caseRunId);
    const wrong = await get(`/api/run/questions?run=${run}&filter=wrong`);
    expect(wrong.status).toBe(200);
    const all = await get(`/api/run/questions?run=${run}`);
    expect(all.status).toBe(200);
    expect(wrong.json.questions.length).toBeLessThanOrEqual(all.json.questions.length);
    for (const path of [`/api/run/summary?run=${run}`, `/api/compare?a=${run}&b=${encodeURIComponent(f.llmRunId)}`, '/api/runs', '/api/runs/summary']) {
      expect((await get(path)).status, path).toBe(200);
    }
  });
});
