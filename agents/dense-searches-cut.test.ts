/**
 * An agent run's dense searches longer than the dense model reads (512 tokens for the tiny BERT
 * fixture, as for BGE) are counted per item (results.jsonl `denseSearches`) and said in report.md and
 * report.json, the same for every system (eval/runner.ts counts them); and a /v1 or MCP search
 * (the query service) says `queryCut`. Before, only a once-per-run stderr warning said it: a
 * dense-rag run's accuracy from cut queries carried no trace in its run dir. Driven through the CLI
 * and the real OpenAI client against a scripted server on 127.0.0.1, on Bar Exam QA val questions.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeSparseIndexes } from '../retrieval/open.js';
import { openQueryService } from '../serve/query/query-service.js';
import { runCli } from '../tests/support/run-cli.js';
import { useScriptedLlm } from '../tests/support/scripted-llm-env.js';
import { startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { buildTinyBertIndex, TINY_BERT_DIR, tinyBertPassages } from '../tests/support/tiny-bert-index.js';

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
});
