/**
 * One statistics module behind every surface (issue 36, item 3), as a user reads a run: the built
 * CLI in child processes — `lexcase reproduce`, `lexcase report`, `lexcase compare`, `lexcase run`,
 * the explorer (`lexcase serve --runs`, its /api) and the /v1 API (`lexcase serve --api --runs`) —
 * over real runs on a small real index (the Bar Exam QA gold passages of the first val questions +
 * part of the bundled legal corpus), the LLM runs against the scripted OpenAI-compatible server.
 *
 * - A retrieval run read through report.md / report.json, the explorer, /v1, table.json and
 *   `compare` shows the same Recall@10 and MRR, the same interval and the same method name; it is
 *   summarised by Recall@k and MRR (never "accuracy"), MRR as a decimal.
 * - A 4-item CASE run: report.md and the explorer give the same accuracy interval (Wilson), where
 *   report.md printed [0.0, 100.0] (a bootstrap of 4 items) and the explorer [15.0, 85.0].
 * - Two 2-item runs compared: B − A in `compare` and in both explorer tables, p from the exact
 *   McNemar test (0.500), no interval below n = 10 — where `compare` printed p < 0.001.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage, Question } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { wilsonCi } from '../../eval/wilson.js';
import { scriptedAll } from '../support/scripted-all.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase, ROOT, startLexcase, STACK_TRACE, type Running } from '../support/spawn-cli.js';

const N = 12;
let dir: string;
let idx: string;
let runs: string;
let val: Question[];
let env: Record<string, string | undefined>;
const servers: ScriptedServer[] = [];
let explorer: Running;
let explorerUrl: string;

/* eslint-disable @typescript-eslint/no-explicit-any */
const getJson = async (url: string): Promise<any> => {
  const r = await fetch(url);
  expect(r.status, url).toBe(200);
  return r.json();
};
const ok = (r: { code: number | null; stdout: string; stderr: string }) => {
  expect(r.code, r.stderr).toBe(0);
  expect(STACK_TRACE.test(r.stdout + r.stderr), r.stderr).toBe(false);
};
const text = (c: unknown): string => (typeof c === 'string' ? c : JSON.stringify(c));

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-stats-surfaces-'));
  runs = join(dir, 'runs');
  mkdirSync(runs);
  idx = join(dir, 'idx');
  val = await loadQuestions('barexam', 'val');
  // the gold passages of only some of the first questions, so hits and ranks differ between items
  const gold = new Set(
    val
      .slice(0, N)
      .filter((_, i) => i % 3 !== 2)
      .flatMap((q) => q.goldPassageIds),
  );
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 400) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: idx, corpusName: 'stats-test', workers: 0 },
  );
  await closeSparseIndexes();
  env = isolatedEnv({ LEXCASE_LLM_API_KEY: 'sk-test', LEXCASE_LLM_MAX_RETRIES: '0' });
  explorer = startLexcase(['serve', '--runs', runs, '--port', '0'], { cwd: dir, env });
  [explorerUrl] = await explorer.waitFor(/http:\/\/127\.0\.0\.1:\d+/);
}, 600_000);

afterAll(async () => {
  await explorer?.stop();
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A report.md table row: its cells, trimmed. */
function mdRow(md: string, first: string): string[] {
  const line = md.split('\n').find((l) => l.split('|')[1]?.trim() === first);
  expect(line, `report.md has a "${first}" row:\n${md}`).toBeDefined();
  return line!
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

describe('one retrieval run, every surface', () => {
  it('report.md, report --json, the explorer, /v1, table.json and compare give the same Recall@10 and MRR, the same interval and method; no "accuracy"; MRR a decimal', async () => {
    const repro = join(runs, 'repro');
    // case-table3 with its runs seeded 7: every surface still bootstraps with the statistics module's seed (13), not the run's
    const recipe = JSON.parse(readFileSync(join(ROOT, 'recipes', 'case-table3.json'), 'utf8'));
    for (const r of recipe.runs) r.args.seed = 7;
    const recipeFile = join(dir, 'case-table3-seed7.json');
    writeFileSync(recipeFile, JSON.stringify(recipe));
    ok(await lexcase(['reproduce', recipeFile, '--limit', String(N), '--index', idx, '--run-dir', repro], { cwd: dir, env }));
    expect(JSON.parse(readFileSync(join(repro, 'runs', 'bm25', 'config.json'), 'utf8')).seed).toBe(7);
    const bm25 = join(repro, 'runs', 'bm25');
    const qld = join(repro, 'runs', 'qld');
    const hits = readFileSync(join(bm25, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).metrics['recall@10'] as number);
    expect(hits).toHaveLength(N);
    const w = wilsonCi(hits.filter((h) => h === 1).length, N);

    // `lexcase report`: the JSON figures and the Markdown
    const rep = await lexcase(['--json', 'report', bm25], { cwd: dir, env });
    ok(rep);
    const sections = JSON.parse(rep.stdout).sections;
    const figs = Object.fromEntries(sections.figures.figures.map((f: any) => [f.id, f]));
    expect(sections.accuracy).toBeUndefined(); // a retrieval run is not judged on "gold at rank 1"
    expect(figs['recall@10']).toMatchObject({ estimate: w.estimate, lo: w.lo, hi: w.hi, n: N, interval: 'wilson', method: '95% Wilson', unit: 'decimal' });
    expect(figs.mrr).toMatchObject({ n: N, interval: 'bootstrap', method: '95% bootstrap', unit: 'decimal' });
    expect(figs.mrr.text).toMatch(/^0\.\d{3} \[0\.\d{3}, [01]\.\d{3}\]$/); // a decimal, never a percentage
    const md = readFileSync(join(bm25, 'report.md'), 'utf8');
    expect(md).not.toMatch(/^## Accuracy/m);
    expect(mdRow(md, 'Recall@10')).toEqual(['Recall@10', String(N), figs['recall@10'].text, '95% Wilson']);
    expect(mdRow(md, 'MRR')).toEqual(['MRR', String(N), figs.mrr.text, '95% bootstrap']);
    expect(md).toContain('Wilson score interval');

    // the explorer: the runs list and the run page
    const list = await getJson(`${explorerUrl}/api/runs/summary`);
    const row = list.runs.find((r: any) => r.id === 'repro/runs/bm25');
    const page = await getJson(`${explorerUrl}/api/run/summary?run=repro/runs/bm25`);
    for (const s of [row, page.summary]) expect(s.figures).toEqual(sections.figures.figures);

    // the /v1 API
    const api = startLexcase(['--json', 'serve', '--api', '--index', idx, '--runs', runs, '--port', '0'], { cwd: dir, env });
    try {
      const [, base] = await api.waitFor(/"url":\s*"(http:\/\/127\.0\.0\.1:\d+)\/v1"/);
      const one = await getJson(`${base}/v1/run?run=repro/runs/bm25`);
      expect(one).toMatchObject({ id: 'repro/runs/bm25', system: 'retrieval', n: N });
      expect(one.figures).toEqual(sections.figures.figures);
      const all = await getJson(`${base}/v1/runs`);
      expect(all.runs.find((r: any) => r.id === 'repro/runs/bm25').figures).toEqual(sections.figures.figures);
    } finally {
      await api.stop();
    }

    // table.json: the same interval in the recipe's 4 decimals, the same method, no flag below n = 10 … and n = 12 here
    const table = JSON.parse(readFileSync(join(repro, 'table.json'), 'utf8'));
    const cell = table.rows[0].cells.find((c: any) => c.column === 'Recall@10');
    const r4 = (x: number) => Number(x.toFixed(4));
    expect(cell).toMatchObject({ value: r4(w.estimate), ci: [r4(w.lo), r4(w.hi)], n: N, method: '95% Wilson' });
    expect(readFileSync(join(repro, 'table.md'), 'utf8')).toContain(
      `lexcase ${r4(w.estimate).toFixed(4)} [${r4(w.lo).toFixed(4)}, ${r4(w.hi).toFixed(4)}] 95% Wilson n=${N}`,
    );

    // `lexcase compare`: two retrieval runs are compared on Recall@k and MRR, the A side printed as every surface prints it
    const cmp = await lexcase(['--json', 'compare', bm25, qld], { cwd: dir, env });
    ok(cmp);
    const c = JSON.parse(cmp.stdout);
    expect(c).toMatchObject({ sign: 'B − A', judgedBy: 'retrieval measures' });
    expect(c.measures.map((m: any) => m.id)).toEqual(['recall@10', 'recall@100', 'recall@1000', 'mrr']);
    const byId = Object.fromEntries(c.measures.map((m: any) => [m.id, m]));
    expect(byId['recall@10'].text.a).toBe(figs['recall@10'].text.split(' ')[0]);
    expect(byId.mrr.text.a).toBe(figs.mrr.text.split(' ')[0]);
    expect(byId['recall@10'].test).toBe('mcnemar-exact');
    expect(byId.mrr.test).toMatch(/^sign-flip/);
  }, 300_000);
});

describe('a 4-item CASE run', () => {
  it('report.md and the explorer agree on accuracy and its Wilson interval', async () => {
    const srv = await startScriptedServer(scriptedAll());
    servers.push(srv);
    const out = join(runs, 'case4');
    ok(
      await lexcase(
        [
          'run',
          'case',
          '--dataset',
          'barexam',
          '--split',
          'val',
          '--limit',
          '4',
          '--tools',
          'bm25,qld',
          '--index',
          idx,
          '--endpoint',
          srv.url,
          '--model',
          'scripted',
          '--no-cache',
          '--run-dir',
          out,
        ],
        { cwd: dir, env, timeoutMs: 300_000 },
      ),
    );
    ok(await lexcase(['report', out], { cwd: dir, env }));
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const right = results.filter((r) => !r.error && r.prediction === r.gold).length;
    const w = wilsonCi(right, 4);
    const expected = `${(100 * w.estimate).toFixed(1)}% [${(100 * w.lo).toFixed(1)}, ${(100 * w.hi).toFixed(1)}]`;
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(mdRow(md, 'accuracy')).toEqual(['accuracy', '4', expected, '95% Wilson']);
    // the Accuracy section: the same interval, its method beside it
    const acc = mdRow(md, 'all items');
    expect(acc.slice(3)).toEqual([expected.split(' ')[0], expected.slice(expected.indexOf('[')), '95% Wilson']);
    const page = await getJson(`${explorerUrl}/api/run/summary?run=case4`);
    const f = page.summary.figures.find((x: any) => x.id === 'accuracy');
    expect(f).toMatchObject({ text: expected, method: '95% Wilson', n: 4 });
  }, 300_000);
});

describe('two runs on 2 items', () => {
  it('compare: B − A everywhere, exact McNemar p = 0.500, no interval below n = 10, and a line naming the two servers asked', async () => {
    // run A answers every question wrongly, run B rightly (the server reads the question in the prompt)
    const letters = ['A', 'B', 'C', 'D'];
    const answer = (right: boolean) => (r: RecordedRequest) => {
      const all = text(r.body.messages);
      const q = val.find((x) => all.includes(x.question.slice(0, 80)));
      const gold = q?.answer ?? 'A';
      return { content: JSON.stringify({ reasoning: 'r', answer: right ? gold : letters.find((l) => l !== gold)! }) };
    };
    const wrong = await startScriptedServer(answer(false));
    const rightSrv = await startScriptedServer(answer(true));
    servers.push(wrong, rightSrv);
    const a = join(runs, 'two-a');
    const b = join(runs, 'two-b');
    for (const [srv, out] of [
      [wrong, a],
      [rightSrv, b],
    ] as const)
      ok(
        await lexcase(
          [
            'run',
            'baseline',
            '--mode',
            'llm-only',
            '--dataset',
            'barexam',
            '--split',
            'val',
            '--limit',
            '2',
            '--endpoint',
            srv.url,
            '--model',
            'scripted',
            '--no-cache',
            '--run-dir',
            out,
          ],
          { cwd: dir, env, timeoutMs: 300_000 },
        ),
      );

    const plain = await lexcase(['compare', a, b], { cwd: dir, env });
    ok(plain);
    expect(plain.stdout).toMatch(/^# Paired comparison \(B − A\) on 2 shared items/m);
    expect(plain.stdout).toMatch(/\| accuracy +\| +2 \| +0\.0% \| +100\.0% \| +\+100\.0 pp \| +\(n < 10\) \| +0\.500 \| +exact McNemar \|/);
    expect(plain.stdout).not.toContain('< 0.001');
    const c = JSON.parse((await lexcase(['--json', 'compare', a, b], { cwd: dir, env })).stdout);
    expect(c.primary).toMatchObject({ id: 'accuracy', estimate: 1, lo: null, hi: null, p: 0.5, test: 'mcnemar-exact', aOnly: 0, bOnly: 2 });

    // the explorer's two tables: the same difference, the same sign, the same p
    const pair = await getJson(`${explorerUrl}/api/compare?a=two-a&b=two-b`);
    const many = await getJson(`${explorerUrl}/api/compare/runs?runs=two-a,two-b`);
    expect(pair.sign).toBe('B − A');
    expect(many.sign).toBe('B − A');
    expect(pair.primary).toMatchObject({ estimate: 1, p: 0.5, text: c.primary.text });
    expect(many.pairs[0]).toMatchObject({ a: 'two-a', b: 'two-b', estimate: 1, p: 0.5, text: c.primary.text });
    expect(c.primary.text).toMatchObject({ diff: '+100.0 pp', interval: '(n < 10)', p: '0.500', pLine: 'p = 0.500 (exact McNemar)' });

    // the two runs asked model "scripted" of two servers: a line names them (host:port/path), on every surface
    const host = (u: string) => u.replace(/^http:\/\//, '');
    const servedBy = `the two runs asked model "scripted" of different servers — A ${host(wrong.url)}, B ${host(rightSrv.url)}: their figures are not of one server`;
    expect(plain.stdout).toContain(`- ${servedBy}`);
    expect(c.pairingLines).toContain(servedBy);
    expect(pair.pairingLines).toContain(servedBy);
    expect(many.pairs[0].pairingLines).toContain(servedBy);
  }, 300_000);
});
