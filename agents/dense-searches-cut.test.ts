/**
 * An agent run's dense searches longer than the dense model reads (512 tokens for the tiny BERT
 * fixture, as for BGE) are counted per item (results.jsonl `denseSearches`) and said in report.md and
 * report.json, the same for every system (eval/runner.ts counts them); and a /v1 or MCP search
 * (the query service) says `queryCut`. Before, only a once-per-run stderr warning said it: a
 * dense-rag run's accuracy from cut queries carried no trace in its run dir. Driven through the CLI
 * and the real OpenAI client against a scripted server on 127.0.0.1, on Bar Exam QA val questions.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeSparseIndexes } from '../retrieval/open.js';
import { openQueryService } from '../serve/query/query-service.js';
import { runCli } from '../tests/support/run-cli.js';
import { useScriptedLlm } from '../tests/support/scripted-llm-env.js';
import { startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { buildTinyBertIndex, TINY_BERT_DIR, tinyBertPassages } from '../tests/support/tiny-bert-index.js';
import { evidenceOutput } from '../serve/query/schemas.js';
import { startExplorer } from '../web/server/server.js';
import { CHROMIUM, openTestBrowser } from '../web/test-support/browser.js';

const modelDir = TINY_BERT_DIR;
const passages = tinyBertPassages();

let tmp: string;
let index: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-searches-'));
  index = join(tmp, 'ix');
  await buildTinyBertIndex(index, passages);
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  await rm(tmp, { recursive: true, force: true });
});
afterEach(() => vi.unstubAllEnvs());

/** Tokens the fixture's tokenizer gives a text (special tokens included, as the pipeline reads it). */
async function tokenCounter(): Promise<(t: string) => number> {
  const { AutoTokenizer, env } = await import('@xenova/transformers');
  env.localModelPath = dirname(modelDir);
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained('tiny-bert');
  return (t) => tokenizer.encode(t).length;
}

describe('agent runs count their dense searches cut to the model’s tokens', () => {
  it('run baseline --mode dense-rag records each item’s dense searches and report.md says how many were cut', async () => {
    const srv = await startScriptedServer(() => ({ content: '{"reasoning":"r","answer":"A"}' }));
    const runDir = join(tmp, 'dense-rag');
    try {
      useScriptedLlm(srv.url);
      const r = await runCli([
        'run',
        'baseline',
        '--mode',
        'dense-rag',
        '--split',
        'val',
        '--limit',
        '40',
        '--index',
        index,
        '--run-dir',
        runDir,
        '--no-cache',
      ]);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await srv.close();
    }
    // independently: the queries the traces say were searched, tokenized by the fixture's tokenizer
    const tokens = await tokenCounter();
    const traces = await readdir(join(runDir, 'traces'));
    const queries = await Promise.all(traces.map(async (f) => JSON.parse(await readFile(join(runDir, 'traces', f), 'utf8')).retrieval.query as string));
    const over = queries.filter((q) => tokens(q) > 512).length;
    expect(queries).toHaveLength(40);
    expect(over).toBe(3); // Bar Exam QA val's first 40: three fact patterns past 512 tokens

    const results = (await readFile(join(runDir, 'results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const rec of results) expect(rec.denseSearches).toMatchObject({ searches: 1, provider: 'transformers', maxTokens: 512 });
    expect(results.reduce((a, rec) => a + rec.denseSearches.cut, 0)).toBe(over);

    const line = `${over} of 40 dense searches were cut to the transformers model's 512 tokens (their rest not read) in ${over} of 40 items`;
    expect(await readFile(join(runDir, 'report.md'), 'utf8')).toContain(line);
    const json = JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8'));
    expect(json.sections.denseSearches).toMatchObject({ searches: 40, cut: over, items: over });
  }, 180_000);

  it('a query-service search (/v1/search, MCP search) says queryCut for a query past the model’s tokens, not for a short one', async () => {
    const svc = await openQueryService({ indexes: [{ name: 'bx', dir: index }] });
    const long = passages
      .slice(20, 30)
      .map((p) => p.text)
      .join(' ');
    expect((await tokenCounter())(long)).toBeGreaterThan(512);
    expect((await svc.search({ query: long, method: 'dense', k: 3 })).queryCut).toBe(
      "the query is longer than the transformers model's 512 tokens: embedded from its first 512 (the rest is not read)",
    );
    expect((await svc.search({ query: long, method: 'hybrid', k: 3 })).queryCut).toMatch(/hybrid ranking's dense component embedded it from its first 512/);
    expect(await svc.search({ query: 'hearsay exception', method: 'dense', k: 3 })).not.toHaveProperty('queryCut');
    expect(await svc.search({ query: long, method: 'bm25', k: 3 })).not.toHaveProperty('queryCut');
  }, 60_000);

  it('a run resumed from a run dir an older lexcase wrote (no itemCounts) warns, and report.md says how many earlier items were not counted', async () => {
    const srv = await startScriptedServer(() => ({ content: '{"reasoning":"r","answer":"A"}' }));
    const runDir = join(tmp, 'dense-rag-old');
    const run = (limit: string) =>
      runCli(['run', 'baseline', '--mode', 'dense-rag', '--split', 'val', '--limit', limit, '--index', index, '--run-dir', runDir, '--no-cache']);
    try {
      useScriptedLlm(srv.url);
      expect((await run('20')).code).toBe(0);
      // as the lexcase before 2026-12-02 wrote it: no itemCounts in config.json, no denseSearches on the lines
      const cfgPath = join(runDir, 'config.json');
      const cfg = JSON.parse(await readFile(cfgPath, 'utf8'));
      expect(cfg.config.itemCounts).toMatch(/^denseSearches: /);
      delete cfg.config.itemCounts;
      await writeFile(cfgPath, JSON.stringify(cfg, null, 2));
      const resPath = join(runDir, 'results.jsonl');
      const lines = (await readFile(resPath, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      await writeFile(resPath, lines.map(({ denseSearches: _, ...rest }) => `${JSON.stringify(rest)}\n`).join(''));
      const r = await run('40');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/written by an older lexcase and does not record itemCounts/);
      expect(JSON.parse(await readFile(cfgPath, 'utf8')).resumes.at(-1)).toMatchObject({ skipped: 20, unchecked: ['itemCounts'] });
    } finally {
      await srv.close();
    }
    // the report's dense line counts the 20 items the resume ran, and says the other 20 were not counted
    const results = (await readFile(join(runDir, 'results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const counted = results.filter((x) => x.denseSearches);
    expect(counted).toHaveLength(20);
    const cut = counted.reduce((a, x) => a + x.denseSearches.cut, 0);
    const day = new Date().toISOString().slice(0, 10);
    const md = await readFile(join(runDir, 'report.md'), 'utf8');
    expect(md).toContain(`${cut} of 20 dense searches were cut to the transformers model's 512 tokens (their rest not read)`);
    expect(md).toMatch(new RegExp(`the 20 items run before the resume of ${day} \\(by an older lexcase\\) were not counted`));
    const json = JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8'));
    expect(json.sections.denseSearches).toMatchObject({ searches: 20, cut, uncountedItems: 20 });
    expect(json.sections.tokens.textOtherAnswerUncountedItems).toBe(20);
    expect(md).toContain('Replies whose text named another answer than the one read were counted for the items resumed only');
  }, 180_000);

  /** A hypothesis past the model's 512 tokens: ten fixture passages. */
  const longHypothesis = () =>
    passages
      .slice(20, 30)
      .map((p) => p.text)
      .join(' ');

  it('lexcase evidence says how many of its dense searches were cut (--json queryCut, stderr), counted as the tool calls show; not for a short hypothesis', async () => {
    // before: the dense retriever's once-per-process warning only; --json, /v1/evidence, MCP and the explorer said nothing
    const tokens = await tokenCounter();
    const evidence = async (hypothesis: string, tools: string) => {
      const r = await runCli(['--json', 'evidence', hypothesis, '--index', index, '--offline', '--tools', tools, '-k', '3']);
      expect(r.code, r.stderr).toBe(0);
      return { json: JSON.parse(r.stdout), stderr: r.stderr };
    };
    for (const tools of ['dense', 'hybrid', 'bm25,dense']) {
      const { json, stderr } = await evidence(longHypothesis(), tools);
      // independently: the searches that reached the dense model (dense_search, or hybrid's dense component) and their queries' tokens
      const denseCalls = (json.toolCalls as { tool: string; query: string }[]).filter((c) => c.tool === 'dense_search' || c.tool === 'hybrid_search');
      const cut = denseCalls.filter((c) => tokens(c.query) > 512).length;
      expect(denseCalls.length, tools).toBeGreaterThan(0);
      expect(cut, tools).toBeGreaterThan(0);
      const note = `${cut} of ${denseCalls.length} dense ${denseCalls.length === 1 ? 'search was' : 'searches were'} longer than the transformers model's 512 tokens: embedded from their first 512 (the rest not read; the ranking read the query's start only)`;
      expect(json.queryCut, tools).toBe(note);
      expect(stderr).toContain(`evidence: ${note}`);
    }
    const short = await evidence('hearsay exception for a present sense impression', 'dense');
    expect(short.json.toolCalls.length).toBeGreaterThan(0);
    expect(short.json).not.toHaveProperty('queryCut');
    expect((await evidence(longHypothesis(), 'bm25')).json).not.toHaveProperty('queryCut');
  }, 120_000);

  it('/v1 find_evidence says queryCut, schema-valid, as its tool calls show; each call counts its own searches', async () => {
    // offline counter-evidence searches every one of bm25, qld, dense the index has
    const tokens = await tokenCounter();
    const svc = await openQueryService({ indexes: [{ name: 'bx', dir: index }] });
    const ask = (hypothesis: string) => svc.findEvidence({ hypothesis, facts: 'The witness repeated what the declarant said.', stance: 'against', k: 3 });
    // within /v1's 4,000 characters, past the model's 512 tokens
    const hypothesis = longHypothesis().slice(0, 3900);
    expect(tokens(hypothesis)).toBeGreaterThan(512);
    const long = evidenceOutput.parse(await ask(hypothesis));
    const dense = long.toolCalls.filter((c) => c.tool === 'dense_search');
    const cut = dense.filter((c) => tokens(c.query) > 512).length;
    expect(cut).toBeGreaterThan(0);
    expect(long.queryCut).toMatch(new RegExp(`^${cut} of ${dense.length} dense search(es were|was) longer than the transformers model's 512 tokens`));
    // a second call on the same (long-lived) retriever counts its own searches again, not the first one's as well
    expect((await ask(hypothesis)).queryCut).toBe(long.queryCut);
    expect(await ask('hearsay exception')).not.toHaveProperty('queryCut');
  }, 60_000);

  it('the explorer says a query was cut, above its hits and its evidence (API and page)', async () => {
    const s = await startExplorer({ index, port: 0 });
    try {
      // within the explorer's 5,000 characters of a GET query, past the model's 512 tokens
      const long = longHypothesis().slice(0, 3900);
      expect((await tokenCounter())(long)).toBeGreaterThan(512);
      const q = encodeURIComponent(long);
      const api = (await (await fetch(`${s.url}/api/search?q=${q}&method=dense&k=3`)).json()) as { queryCut?: string };
      expect(api.queryCut).toBe("the query is longer than the transformers model's 512 tokens: embedded from its first 512 (the rest is not read)");
      expect(await (await fetch(`${s.url}/api/search?q=${q}&method=bm25&k=3`)).json()).not.toHaveProperty('queryCut');
      expect(await (await fetch(`${s.url}/api/search?q=hearsay&method=dense&k=3`)).json()).not.toHaveProperty('queryCut');
      if (!CHROMIUM) return; // the page itself needs Chromium (as the explorer's browser tests)
      const b = await openTestBrowser(s.url, { width: 390, height: 844 });
      try {
        await b.page.goto(`${s.url}/#/search?q=${q}&method=dense&k=3`);
        await b.page.getByTestId('hit').first().waitFor();
        expect(await b.page.getByTestId('query-cut').textContent()).toBe(`Query cut: ${api.queryCut}.`);
        await b.page.goto(`${s.url}/#/search?q=hearsay&method=dense&k=3`);
        await b.page.getByTestId('hit').first().waitFor();
        expect(await b.page.getByTestId('query-cut').count()).toBe(0);
      } finally {
        await b.close();
      }
    } finally {
      await s.close();
    }
  }, 120_000);
});
