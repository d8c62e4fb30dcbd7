/**
 * The API behind the issue-17 views, over HTTP on 127.0.0.1 against the library-made fixtures
 * (with one scripted run each of MAD, EMAR and 3-ply): run summaries agree with the run files and
 * the library's bootstrap, the run page carries plots and a table.json (not one linked outside the
 * runs root), compare equals compareRuns, the retrieval evaluation equals evalRetrieval on the same
 * index — for the bundled split and, on this untied set, for a user's topics+qrels files (whose
 * evaluation equals `eval retrieval --topics`: retrieval-eval-api.test.ts) — and bad input is a 4xx naming
 * the field, file or line. No reply carries an absolute path.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import { retrievalQuery } from '../../corpora/barexam.js';
import { wilsonCi } from '../../eval/wilson.js';
import { compareRuns } from '../../eval/report/compare.js';
import { readRun } from '../../eval/report/read-run.js';
import { evalRetrieval } from '../../eval/retrieval-eval.js';
import { openRetriever } from '../../retrieval/open.js';
import { startExplorer, type ExplorerServer } from './server.js';
import { readTopicsQrels } from './eval-sets.js';
import { makeExplorerFixtures, type ExplorerFixtures } from '../test-support/explorer-fixtures.js';

let f: ExplorerFixtures;
let s: ExplorerServer;
let outside: string;

async function call(path: string) {
  const res = await fetch(`${s.url}${path}`);
  const text = await res.text();
  expect(text).not.toContain(f.root); // no absolute path of the fixture tree leaves the server
  return { status: res.status, json: JSON.parse(text) };
}

beforeAll(async () => {
  f = await makeExplorerFixtures(4, { systems: true });
  outside = mkdtempSync(join(tmpdir(), 'lexcase-outside-'));
  // a user topics+qrels set: the first 4 val questions' queries and gold ids, one without judgments
  const qs = f.questions;
  writeFileSync(join(f.root, 'topics.tsv'), qs.map((q) => `${q.id}\t${retrievalQuery(q).replace(/\s+/g, ' ')}`).join('\n') + '\nextra\tno judgments here\n');
  writeFileSync(join(f.root, 'qrels.txt'), qs.flatMap((q) => q.goldPassageIds.map((g) => `${q.id} 0 ${g} 1`)).join('\n') + `\n${qs[0].id} 0 not-relevant 0\n`);
  s = await startExplorer({
    index: f.index,
    runs: f.runs,
    port: 0,
    evalSets: [{ topics: join(f.root, 'topics.tsv'), qrels: join(f.root, 'qrels.txt'), name: 'my topics' }],
  });
}, 180_000);

afterAll(async () => {
  await s?.close();
  await f?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe('runs summary and run page', () => {
  it("every run: n, model, method, k, its system's headline figures (Wilson intervals on proportions), failures and tokens from its files", async () => {
    const r = await call('/api/runs/summary');
    expect(r.json.runs.map((x: { id: string }) => x.id).sort()).toEqual([f.caseRunId, f.llmRunId, ...Object.values(f.systemRuns!)].sort());
    const expectedFigures: Record<string, string[]> = {
      case: ['accuracy', 'gold-in-evidence'],
      'mad/mad': ['accuracy'],
      emar: ['macro-f1', 'accuracy', 'convergence'],
      threeply: ['hallucination-accuracy', 'factor-utilization-recall', 'abstention'],
      // new runs record a variant as `<id>/<variant>` (issue 39)
      'acal/acal': ['macro-f1', 'accuracy', 'convergence'],
      'baseline/bm25-rag': ['accuracy'],
    };
    for (const x of r.json.runs) {
      const run = await readRun(join(f.runs, x.id), { traces: false });
      const cfg = run.config.config as Record<string, unknown>;
      const correct = run.results.filter((y) => y.correct).length;
      expect(x).toMatchObject({
        n: run.results.length,
        correct,
        failures: run.results.filter((y) => y.error).length,
        system: cfg.system,
        model: cfg.model ?? null,
        smallN: true,
      });
      expect(x.figures.map((g: { id: string }) => g.id)).toEqual(expectedFigures[String(cfg.system)]);
      const acc = x.figures.find((g: { id: string }) => g.id === 'accuracy');
      if (acc) {
        const w = wilsonCi(correct, run.results.length);
        expect(acc).toMatchObject({ estimate: w.estimate, lo: w.lo, hi: w.hi, interval: 'wilson', n: run.results.length, smallN: true });
      }
      expect(x.tokens).toBe(run.results.reduce((t, y) => t + (y.tokens?.total ?? 0), 0));
      expect(x.date).toBe(run.config.provenance.createdAt);
    }
    const byId = Object.fromEntries(r.json.runs.map((x: { id: string }) => [x.id, x]));
    expect(byId[f.caseRunId]).toMatchObject({ k: '5', systemName: 'CASE' });
    expect(byId[f.systemRuns!.madRunId]).toMatchObject({ k: '2', method: 'sparse', systemName: 'MAD' });
    expect(byId[f.systemRuns!.threeplyRunId]).toMatchObject({ method: 'reflective', systemName: '3-ply' });
    // 3-ply: hallucination accuracy pooled over its triples, as the paper's formula (1 − ΣnH / ΣnGt)
    const tp = await readRun(join(f.runs, f.systemRuns!.threeplyRunId), { traces: false });
    const sum = (k: string) => tp.results.reduce((a, y) => a + Number(y.metrics?.[k] ?? 0), 0);
    expect(byId[f.systemRuns!.threeplyRunId].figures[0].estimate).toBeCloseTo(1 - sum('nH') / sum('nGt'), 12);
  });

  it('run page: MAD gets its per-round plot; table.json is shown, but not when it links outside the runs root', async () => {
    const mad = f.systemRuns!.madRunId;
    let r = await call(`/api/run/summary?run=${mad}`);
    expect(r.json.plots.map((p: { id: string }) => p.id)).toEqual(['mad-rounds']);
    const values = r.json.plots[0].spec.data.values as { round: number; n: number; accuracy: number }[];
    expect(values.map((v) => [v.round, v.n])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(r.json.table).toBeNull();
    writeFileSync(join(f.runs, mad, 'table.json'), JSON.stringify([{ system: 'mad', accuracy: 0.5 }]));
    r = await call(`/api/run/summary?run=${mad}`);
    expect(r.json.table).toEqual([{ system: 'mad', accuracy: 0.5 }]);
    rmSync(join(f.runs, mad, 'table.json'));
    writeFileSync(join(outside, 'secret.json'), JSON.stringify({ secret: 'do not serve' }));
    symlinkSync(join(outside, 'secret.json'), join(f.runs, mad, 'table.json'));
    r = await call(`/api/run/summary?run=${mad}`);
    expect(r.json.table).toBeNull();
    expect(r.json.summary.hasTable).toBe(false);
    rmSync(join(f.runs, mad, 'table.json'));
    // the LLM CASE run has confidence labels: a reliability diagram with its bins' counts
    r = await call(`/api/run/summary?run=${f.llmRunId}`);
    const rel = r.json.plots.find((p: { id: string }) => p.id === 'reliability');
    expect(rel.spec.data.values.reduce((n: number, b: { n: number }) => n + b.n, 0)).toBe(2);
  });

  it('a `lexcase reproduce` directory is listed with its grid runs — one named `dense` too — and its page carries the paper-vs-lexcase table', async () => {
    const dir = join(f.runs, 'repro-case-table3');
    const { mkdirSync, cpSync } = await import('node:fs');
    mkdirSync(join(dir, 'runs'), { recursive: true });
    const table = {
      recipe: 'case-table3',
      title: 'Recall',
      columns: ['Recall@10'],
      rows: [{ label: 'BM25-RAG', cells: [{ column: 'Recall@10', paper: 0, value: 0.07, ci: [0.03, 0.12], n: 124, outsideCi: true }] }],
      notes: [],
    };
    writeFileSync(join(dir, 'reproduction.json'), JSON.stringify({ recipe: 'case-table3', runs: [{ id: 'bm25', status: 'done' }] }));
    writeFileSync(join(dir, 'table.json'), JSON.stringify(table));
    cpSync(join(f.runs, f.systemRuns!.madRunId), join(dir, 'runs', 'bm25'), { recursive: true });
    cpSync(join(f.runs, f.systemRuns!.madRunId), join(dir, 'runs', 'dense'), { recursive: true });
    try {
      const list = await call('/api/runs');
      const ids = list.json.runs.map((r: { id: string }) => r.id);
      expect(ids).toContain('repro-case-table3');
      expect(ids).toContain('repro-case-table3/runs/bm25');
      expect(ids).toContain('repro-case-table3/runs/dense');
      const sums = await call('/api/runs/summary');
      expect(sums.json.runs.find((r: { id: string }) => r.id === 'repro-case-table3/runs/dense')).toMatchObject({ parent: 'repro-case-table3' });
      expect(list.json.runs.find((r: { id: string }) => r.id === 'repro-case-table3')).toMatchObject({ system: 'reproduce', dataset: 'case-table3' });
      const r = await call('/api/run/summary?run=repro-case-table3');
      expect(r.json.summary.hasTable).toBe(true);
      expect(r.json.table).toEqual(table);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('3-ply trace: the factor table marks used factors and the hallucinated F27', async () => {
    const id = f.systemRuns!.threeplyRunId;
    const run = await readRun(join(f.runs, id));
    const item = run.results.find((x) => x.prediction === 'argue')!;
    const r = await call(`/api/run/trace?run=${id}&item=${item.id}`);
    const used = r.json.factors.flatMap((c: { factors: { used: boolean }[] }) => c.factors.filter((x) => x.used));
    const hall = r.json.factors.flatMap((c: { hallucinated: unknown[] }) => c.hallucinated);
    expect(used).toHaveLength(item.metrics!.nUtil as number);
    expect(hall).toHaveLength(item.metrics!.nH as number);
    expect(r.json.factors[0].hallucinated.map((x: { id: string }) => x.id)).toContain('F27');
  });
});

describe('compare', () => {
  it('equals compareRuns, lists the items where the runs differ; unknown runs are 404', async () => {
    const c = await compareRuns(join(f.runs, f.caseRunId), join(f.runs, f.llmRunId));
    const r = await call(`/api/compare?a=${f.caseRunId}&b=${f.llmRunId}`);
    expect(r.json.sign).toBe('B − A');
    expect(r.json.primary).toMatchObject({
      id: 'accuracy',
      estimate: c.primary.estimate,
      lo: c.primary.lo,
      hi: c.primary.hi,
      p: c.primary.p,
      text: c.primary.text,
    });
    expect(r.json.agreement).toEqual(c.agreement);
    const a = await readRun(join(f.runs, f.caseRunId), { traces: false });
    const b = new Map((await readRun(join(f.runs, f.llmRunId), { traces: false })).results.map((x) => [x.id, x]));
    expect(r.json.differ.map((d: { id: string }) => d.id)).toEqual(
      a.results.filter((x) => b.has(x.id) && (b.get(x.id)!.prediction !== x.prediction || b.get(x.id)!.correct !== x.correct)).map((x) => x.id),
    );
    expect((await call(`/api/compare?a=${f.caseRunId}&b=../etc`)).status).toBe(404);
    expect((await call(`/api/compare?a=${f.caseRunId}`)).status).toBe(400);
  });
});

describe('compare N runs, LLM calls, passage page', () => {
  it("N runs: every run's summary, a key-by-key config diff, overlaid per-round curves, paired Δ against the first", async () => {
    const { madRunId } = f.systemRuns!;
    const r = await call(`/api/compare/runs?runs=${f.caseRunId},${f.llmRunId},${madRunId}`);
    expect(r.json.runs.map((x: { id: string }) => x.id)).toEqual([f.caseRunId, f.llmRunId, madRunId]);
    const diff = Object.fromEntries(r.json.configDiff.map((d: { key: string; values: unknown[] }) => [d.key, d.values]));
    expect(diff.jurors).toEqual([0, 3, { absent: true }]);
    expect(diff.rounds).toEqual([{ absent: true }, { absent: true }, 2]);
    expect(diff.split).toBeUndefined(); // the same in all three: not a difference
    expect(r.json.plots.map((p: { id: string }) => p.id)).toEqual(['round-curves', 'figures']);
    const c = await compareRuns(join(f.runs, f.caseRunId), join(f.runs, f.llmRunId));
    // the same difference, the same sign (B − A: this run − the reference) as the pair view and `lexcase compare`
    expect(r.json.pairs[0]).toMatchObject({
      a: f.caseRunId,
      b: f.llmRunId,
      shared: c.shared,
      estimate: c.primary.estimate,
      lo: c.primary.lo,
      hi: c.primary.hi,
      p: c.primary.p,
      text: c.primary.text,
      agreement: c.agreement,
    });
    // each pair's items left out — only in the reference, only in this run — as the two-run view gives them
    const c2 = await compareRuns(join(f.runs, f.caseRunId), join(f.runs, madRunId));
    for (const [pair, cc] of [
      [r.json.pairs[0], c],
      [r.json.pairs[1], c2],
    ] as const)
      expect({ onlyA: pair.onlyA, onlyB: pair.onlyB, onlyLine: pair.onlyLine }).toEqual({ onlyA: cc.onlyA, onlyB: cc.onlyB, onlyLine: cc.onlyLine });
    expect(r.json.pairs[0].onlyA).toBeGreaterThan(0); // the fixture's LLM run answered fewer items than the reference
    expect((await call(`/api/compare/runs?runs=${f.caseRunId}`)).status).toBe(400);
    expect((await call(`/api/compare/runs?runs=${f.caseRunId},nope`)).status).toBe(404);
  });

  it('LLM calls: the recorded exchanges of an item (errors on the failing call); without a recording, the steps its trace shows', async () => {
    const item = f.questions[0].id;
    // the runner's recording (core/llm/record-replay.ts, <run>/llm/<item>.jsonl): one Exchange per
    // request — a tool-loop turn, a reply the reader refused, a request that failed after its retries
    // (no stage recorded: named by its schema) — and a last line that is not JSON
    const { mkdirSync } = await import('node:fs');
    const dir = join(f.runs, f.llmRunId, 'llm');
    mkdirSync(dir, { recursive: true });
    const usage = (i: number, o: number) => ({ tokenUsage: { promptTokens: i, completionTokens: o, totalTokens: i + o } });
    const lines = [
      {
        n: 0,
        key: 'k0',
        stage: 'advocate A',
        ms: 812,
        at: '2026-11-26T01:00:00.000Z',
        request: {
          messages: [
            { role: 'system', content: 'You are an advocate' },
            { role: 'user', content: 'Hypothesis to support: …' },
          ],
          params: { model: 'scripted', tools: [{ type: 'function', function: { name: 'bm25_search' } }] },
        },
        reply: {
          generations: [{ text: '', message: { content: '', tool_calls: [{ name: 'bm25_search', args: { query: 'hearsay' }, id: 'c1' }] } }],
          llmOutput: usage(1200, 40),
        },
      },
      {
        n: 1,
        key: 'k1',
        stage: 'juror Skeptic',
        ms: 95,
        invalid: 'reply is not valid JSON',
        request: {
          messages: [{ role: 'user', content: [{ type: 'text', text: 'You are a juror on a panel' }] }],
          params: { model: 'scripted', response_format: { type: 'json_schema', json_schema: { name: 'juror_Skeptic' } } },
        },
        reply: { generations: [{ text: 'not json', message: { content: 'not json' } }], llmOutput: usage(900, 3) },
      },
      {
        n: 2,
        key: 'k2',
        ms: 20001,
        error: { code: 'LLM_TIMEOUT', message: 'LLM request timed out after 20000 ms' },
        request: {
          messages: [{ role: 'user', content: 'You are a juror on a panel' }],
          params: { model: 'scripted', response_format: { type: 'json_schema', json_schema: { name: 'juror_Skeptic' } } },
        },
      },
    ];
    writeFileSync(join(dir, `${item}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n{broken\n');
    try {
      const r = await call(`/api/run/calls?run=${f.llmRunId}&item=${item}`);
      expect(r.json.source).toBe('recorded');
      expect(r.json.calls.map((c: { stage: string }) => c.stage)).toEqual(['advocate A', 'juror Skeptic', 'juror Skeptic']);
      expect(r.json.calls[0]).toMatchObject({
        ms: 812,
        tokens: { input: 1200, output: 40, total: 1240 },
        toolCalls: [{ name: 'bm25_search', args: { query: 'hearsay' } }],
      });
      expect(r.json.calls[0].messages[0]).toEqual({ role: 'system', content: 'You are an advocate' });
      expect(r.json.calls[0].error).toBeUndefined();
      expect(r.json.calls[1]).toMatchObject({ reply: 'not json', error: 'reply refused: reply is not valid JSON', ms: 95, tokens: { total: 903 } });
      expect(r.json.calls[1].messages[0]).toEqual({ role: 'user', content: 'You are a juror on a panel' });
      expect(r.json.calls[2]).toMatchObject({ reply: null, error: 'LLM_TIMEOUT: LLM request timed out after 20000 ms' });
      expect(r.json.problems).toContainEqual(expect.stringMatching(/^unreadable exchange line 4: not JSON/));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const t = await call(`/api/run/calls?run=${f.llmRunId}&item=${item}`);
    expect(t.json.source).toBe('trace');
    const trace = (await readRun(join(f.runs, f.llmRunId))).traces.get(item) as { advocates: unknown[]; jurors: unknown[] };
    expect(t.json.calls).toHaveLength(trace.advocates.length + trace.jurors.length);
    expect(t.json.totals.calls).toBeGreaterThan(0);
    const mad = await call(`/api/run/calls?run=${f.systemRuns!.madRunId}&item=${item}`);
    expect(mad.json.calls.map((c: { stage: string }) => c.stage)).toContain('judge');
    expect((await call(`/api/run/calls?run=${f.llmRunId}&item=nope`)).status).toBe(404);
    // the offline CASE run made no LLM call: its advocates' steps are not shown as LLM calls
    const offline = await call(`/api/run/calls?run=${f.caseRunId}&item=${item}`);
    expect(offline.json.totals.calls).toBe(0);
    expect(offline.json.calls).toEqual([]);
  });

  it('passage page: text and metadata from the index, and the run items whose traces hold the id', async () => {
    const q = f.questions[0];
    const gold = q.goldPassageIds[0];
    const r = await call(`/api/passage?id=${encodeURIComponent(gold)}`);
    expect(r.json).toMatchObject({ id: gold, inIndex: true });
    expect(r.json.passage.text.length).toBeGreaterThan(20);
    // every trace file that holds the id is found, with the place in the trace
    const { readdirSync, readFileSync } = await import('node:fs');
    const holders: string[] = [];
    for (const run of [f.caseRunId, f.llmRunId, ...Object.values(f.systemRuns!)])
      for (const file of readdirSync(join(f.runs, run, 'traces')))
        if (readFileSync(join(f.runs, run, 'traces', file), 'utf8').includes(JSON.stringify(gold))) holders.push(`${run}/${file.replace(/\.json$/, '')}`);
    expect(r.json.retrievedIn.map((u: { run: string; item: string }) => `${u.run}/${u.item}`).sort()).toEqual(holders.sort());
    expect(r.json.retrievedIn.every((u: { place: string }) => u.place.length > 0)).toBe(true);
    const missing = await call('/api/passage?id=no-such-passage');
    expect(missing.json).toMatchObject({ inIndex: false, passage: null, retrievedIn: [] });
    expect((await call('/api/passage')).status).toBe(400);
  });
});

describe('retrieval evaluation', () => {
  it('lists the bundled splits and the user set', async () => {
    const r = await call('/api/eval/sets');
    expect(r.json.sets.map((x: { id: string }) => x.id)).toEqual(['barexam:val', 'barexam:test', 'user:1']);
    expect(r.json.sets[2].label).toBe('my topics');
  });

  it('bundled val split: metrics and per-query ranks equal evalRetrieval on the same index', async () => {
    const questions = await loadQuestions('barexam', 'val');
    const lib = await evalRetrieval({ retriever: await openRetriever(f.index, 'qld'), questions, ks: [1, 5, 10, 20, 50, 100] });
    const before = await call('/api/eval/progress?set=barexam:val&methods=bm25,qld');
    expect(before.json.methods).toEqual([
      { method: 'bm25', done: 0, total: null, finished: false },
      { method: 'qld', done: 0, total: null, finished: false },
    ]);
    const r = await call('/api/eval/retrieval?set=barexam:val&methods=bm25,qld&a=qld&b=bm25&metric=mrr@10');
    // once evaluated, progress says every topic is done
    const after = await call('/api/eval/progress?set=barexam:val&methods=bm25,qld');
    expect(after.json.methods).toEqual(['bm25', 'qld'].map((m) => ({ method: m, done: questions.length, total: questions.length, finished: true })));
    expect(r.json.queries[0].relevantIds).toEqual(lib.perQuery[0].goldIds);
    const qld = r.json.results.find((x: { method: string }) => x.method === 'qld');
    for (const k of ['recall@10', 'recall@100', 'mrr@10', 'ndcg@10'])
      expect(qld.metrics[k]).toMatchObject({ estimate: lib.metrics[k].estimate, lo: lib.metrics[k].lo, hi: lib.metrics[k].hi });
    expect(r.json.queries.map((q: { firstRank: Record<string, number | null> }) => q.firstRank.qld)).toEqual(lib.perQuery.map((q) => q.firstRank));
    expect(r.json.paired).toMatchObject({ a: 'qld', b: 'bm25', metric: 'mrr@10', n: questions.length });
    // the fixture index holds the gold passages of the first 4 questions only: the other 120 count as misses, said as eval retrieval says it
    expect(r.json.warnings).toEqual([
      expect.stringMatching(
        /^120 of 124 topics have no gold passage in this index \(e\.g\. mbe_\d+(, mbe_\d+){4}\); they count as misses\. Index a corpus that contains the gold passages \(e\.g\. "default" or "barexam"\)\.$/,
      ),
    ]);
    // the curve spec holds both methods, with recall@10 equal to the table's
    const pts = r.json.curveSpec.data.values as { method: string; k: number; recall: number }[];
    expect(pts.find((p) => p.method === 'qld' && p.k === 10)!.recall).toBeCloseTo(lib.metrics['recall@10'].estimate, 12);
  }, 60_000);

  it('user topics+qrels: judged topics are evaluated, the unjudged one skipped, non-relevant judgments ignored', async () => {
    const r = await call('/api/eval/retrieval?set=user:1&methods=bm25');
    expect(r.json.set).toMatchObject({ id: 'user:1', n: 5 });
    expect(r.json.skipped).toBe(1);
    expect(r.json.queries.map((q: { id: string }) => q.id)).toEqual(f.questions.map((q) => q.id));
    const lib = await evalRetrieval({
      retriever: await openRetriever(f.index, 'bm25'),
      questions: f.questions,
      ks: [1, 5, 10, 20, 50, 100],
      queryOf: (q) => retrievalQuery(q).replace(/\s+/g, ' '),
    });
    expect(r.json.results[0].metrics['recall@10'].estimate).toBe(lib.metrics['recall@10'].estimate);
    expect(r.json.paired).toBeNull();
  });

  it('bad input: unknown method 400, unknown set 404, bad metric 400', async () => {
    const bad = await call('/api/eval/retrieval?set=barexam:val&methods=dense');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/"methods": "dense" is not a method of this index/);
    expect((await call('/api/eval/retrieval?set=nope&methods=bm25')).status).toBe(404);
    expect((await call('/api/eval/retrieval?set=barexam:val&methods=bm25&metric=recall@7')).json.error).toMatch(/field "metric"/);
  });

  // (a second server on the same index: its close() closes the shared sparse index, so this stays the last HTTP test)
  it('a missing topics file is a 400 naming the file, not its path', async () => {
    const s2 = await startExplorer({ index: f.index, port: 0, evalSets: [{ topics: join(f.root, 'nope.tsv'), qrels: join(f.root, 'qrels.txt') }] });
    try {
      const res = await fetch(`${s2.url}/api/eval/retrieval?set=user:1&methods=bm25`);
      const body = (await res.json()) as { error: string };
      expect(res.status).toBe(400);
      expect(body.error).toMatch(/^invalid topics file nope\.tsv: .*not found/);
      expect(body.error).not.toContain('/');
    } finally {
      await s2.close();
    }
  });

  it('user topics and qrels go through the TREC loaders: graded relevance, file and line named on a malformed line', async () => {
    const d = await mkdtemp(join(tmpdir(), 'eval-sets-'));
    await writeFile(join(d, 't.tsv'), 'q1\tfirst\nq2\tsecond\n');
    await writeFile(join(d, 'q.txt'), 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n');
    expect(await readTopicsQrels(join(d, 't.tsv'), join(d, 'q.txt'))).toEqual([
      {
        id: 'q1',
        query: 'first',
        relevant: ['d1'],
        judged: new Map([
          ['d1', 1],
          ['d2', 0],
        ]),
      },
      { id: 'q2', query: 'second', relevant: ['d3'], judged: new Map([['d3', 2]]) },
    ]);
    await writeFile(join(d, 'bad.tsv'), 'q1\tok\nno tab here\n');
    await expect(readTopicsQrels(join(d, 'bad.tsv'), join(d, 'q.txt'))).rejects.toThrow(/bad\.tsv.*2/);
    await writeFile(join(d, 'bad-q.txt'), 'q1 0 d1\n');
    await expect(readTopicsQrels(join(d, 't.tsv'), join(d, 'bad-q.txt'))).rejects.toThrow(/bad-q\.txt.*1/);
    await rm(d, { recursive: true, force: true });
  });
});
