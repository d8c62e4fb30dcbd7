/**
 * An agent's searches return the top k `lexcase search -k` prints. On the bundled barexam passages
 * mbe_126 and mbe_2644 are the same text, so they tie on every method; `lexcase search -k 1`
 * (searchTopK over the index's retriever, src/cli/commands/search.ts) gives mbe_2644 (trec_eval's
 * order, ties by id descending). The agents' search tool (`bm25_search` via searchHits), a RAG
 * baseline's context and the IR solver's pool gave mbe_126 (the retriever's index order): an agent
 * saw another passage than the CLI shows for its query, and a RAG prompt held another passage than
 * the run file `eval retrieval` writes. Question mbe_390's gold passage is mbe_2644, so at k = 1 the
 * bm25-rag baseline missed its gold passage, which the CLI ranks first.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import { buildIndex } from '../indexer/build.js';
import { closeSparseIndexes } from '../retrieval/open-sparse.js';
import { openCaseIndex, type AgentIndex } from '../retrieval/open-index.js';
import { createRetrievalTools } from '../retrieval/tools/index.js';
import { searchHits } from '../retrieval/tools/search-hits.js';
import { searchTopK } from '../retrieval/top-k.js';
import { startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { createBaseline } from './case/baselines/baseline-system.js';
import { runCaseExperiment } from './case/experiment.js';
import { irSolverVerdict } from './case/ir-solver.js';

const QUERY = 'federal jurisdiction demands not only a contested federal issue but a substantial one';
const tmp = mkdtempSync(join(tmpdir(), 'lexcase-agent-tie-order-'));
const dir = join(tmp, 'index');
let idx: AgentIndex;

beforeAll(async () => {
  await buildIndex(loadPassages('barexam'), { out: dir, corpusName: 'barexam', workers: 0 });
  idx = await openCaseIndex(dir, ['bm25', 'qld']);
}, 120_000);
afterAll(async () => {
  await idx?.close();
  await closeSparseIndexes();
  rmSync(tmp, { recursive: true, force: true });
});

/** What `lexcase search -k <k> -m <method>` prints: its ids, in order. */
const cliIds = async (method: string, query: string, k: number) =>
  (await searchTopK((d) => idx.retrievers[method]!.search(query, { k: d }), k)).map((h) => h.id);

describe('agents search in the order lexcase search prints, at a tie across the cut', () => {
  it.each(['bm25', 'qld'])('%s_search (k = 1, 2) returns the CLI’s top k: mbe_2644 before its copy mbe_126', async (method) => {
    const tools = createRetrievalTools({ retrievers: { [method]: idx.retrievers[method] }, docs: idx.docs });
    const tool = tools.find((t) => t.name === `${method}_search`)!;
    expect(await cliIds(method, QUERY, 1)).toEqual(['mbe_2644']);
    for (const k of [1, 2]) {
      const seen = (await searchHits(tool, { query: QUERY, k })).results;
      expect(seen.map((r) => r.id)).toEqual(await cliIds(method, QUERY, k));
      expect(seen.map((r) => r.rank)).toEqual(seen.map((_, i) => i + 1));
    }
  });

  it('the bm25-rag baseline prompts (real LLM client, local server) with the CLI’s top 1, the gold passage of mbe_390', async () => {
    const q = (await loadQuestions('barexam', 'all')).find((x) => x.id === 'mbe_390')!;
    expect(q.goldPassageIds).toEqual(['mbe_2644']);
    // its question and options with the gold passage's own words as the facts, so that the two copies rank first
    const item = { ...q, prompt: QUERY };
    const facts = `${item.prompt.trim()}\n${item.question.trim()}`;
    const srv = await startScriptedServer(() => ({ content: '{"reasoning":"r","answer":"A"}' }));
    const cacheDir = join(tmp, 'llm-cache');
    try {
      const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir, maxRetries: 0, retryBaseMs: 1 }));
      const ctx = { seed: 1, tools: [], retrievers: idx.retrievers, llm, getPassage: idx.getPassage, options: { k: 1 } };
      const out = await createBaseline('bm25-rag', { k: 1 })(item, ctx);
      const retrieval = out.trace.retrieval as { query: string; ids: string[] };
      expect(retrieval.query).toBe(facts);
      expect(retrieval.ids).toEqual(await cliIds('bm25', facts, 1));
      expect(retrieval.ids).toEqual(['mbe_2644']);
      expect(out.metrics?.goldInContext).toBe(true);
      expect(srv.requests).toHaveLength(1);
    } finally {
      await srv.close();
    }
  });

  it("the IR solver's candidate pool is the CLI's top `depth`", async () => {
    const v = await irSolverVerdict(
      idx.retrievers.bm25!,
      { facts: QUERY, question: 'Which is right?', options: [{ letter: 'A', text: 'federal issue' }] },
      1,
      1,
    );
    expect(v.support.A).toBe((await cliIds('bm25', QUERY, 1))[0]);
    expect(v.support.A).toBe('mbe_2644');
  });

  it('an agent run records searchRanking; resuming a run dir an older lexcase started (none recorded: index order at a tie) warns naming it', async () => {
    const runDir = join(tmp, 'run-old');
    const run = (limit: number) =>
      runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index: dir, limit, runDir });
    expect(await run(1)).toMatchObject({ ran: 1, skipped: 0 });
    const file = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    expect(cfg.config.searchRanking).toBe('trec_eval, top k past ties');
    delete cfg.config.searchRanking;
    writeFileSync(file, JSON.stringify(cfg));
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
    try {
      expect(await run(2)).toMatchObject({ ran: 1, skipped: 1 });
    } finally {
      spy.mockRestore();
    }
    expect(stderr).toMatch(
      /does not record searchRanking \(how each search's top k is cut: an older lexcase kept the retriever's index order where passages tied at the cut/,
    );
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.config.searchRanking).toBe('trec_eval, top k past ties');
    expect(after.resumes.at(-1).unchecked).toEqual(['searchRanking']);
  }, 120_000);
});
