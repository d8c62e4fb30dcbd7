/**
 * Retrieval tools on a small REAL index (bundled Bar Exam QA gold passages + legal_corpus
 * distractors), used directly, through a LangChain agent driven by the real ChatOpenAI client
 * against the scripted server, and rewrite_query with a fake model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage, Question } from '../../corpora/types.js';
import { openDocStore } from '../../indexer/docstore.js';
import { buildIndex } from '../../indexer/build.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { startScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { closeSparseIndexes, openRetriever } from '../open.js';
import type { Retriever } from '../types.js';
import { createRetrievalTools, makeSnippet, searchHits, ToolRecorder, withToolRecorder } from './index.js';

let dir: string;
let questions: Question[];
let retrievers: { bm25: Retriever; qld: Retriever };
let docs: Awaited<ReturnType<typeof openDocStore>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-tools-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, 8);
  const gold = new Set(questions.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 300) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: join(dir, 'idx'), corpusName: 'test', workers: 0 },
  );
  retrievers = { bm25: await openRetriever(join(dir, 'idx'), 'bm25'), qld: await openRetriever(join(dir, 'idx'), 'qld') };
  docs = await openDocStore(join(dir, 'idx'));
}, 60_000);

afterAll(async () => {
  await docs?.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const byName = (tools: { name: string }[], name: string) =>
  tools.find((t) => t.name === name)! as unknown as { invoke(x: unknown): Promise<string>; name: string };

describe('createRetrievalTools', () => {
  it('makes one search tool per retriever given, and rewrite_query only with an llm', () => {
    expect(createRetrievalTools({ retrievers, docs }).map((t) => t.name)).toEqual(['bm25_search', 'qld_search']);
    expect(createRetrievalTools({ retrievers: { qld: retrievers.qld }, docs, llm: new FakeChatModel([]) }).map((t) => t.name)).toEqual([
      'qld_search',
      'rewrite_query',
    ]);
  });

  it('bm25_search returns the retriever ranking with scores and query-aware snippets, and records the call', async () => {
    const recorder = new ToolRecorder();
    const tools = createRetrievalTools({ retrievers, docs, recorder, snippetChars: 200 });
    const q = questions[0];
    const query = `${q.prompt} ${q.question}`;
    const out = JSON.parse(await byName(tools, 'bm25_search').invoke({ query, k: 4 }));
    const direct = await retrievers.bm25.search(query, { k: 4 });
    expect(out.results.map((r: { id: string }) => r.id)).toEqual(direct.map((h) => h.id));
    expect(out.results.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(out.results[0].score).toBeCloseTo(direct[0].score, 3);
    for (const r of out.results) {
      expect(r.snippet.length).toBeGreaterThan(20);
      expect(r.snippet.length).toBeLessThanOrEqual(204);
      const text = (await docs.get(r.id))!.text.replace(/\s+/g, ' ');
      expect(text).toContain(r.snippet.replace(/^… /, '').replace(/ …$/, ''));
    }
    expect(recorder.calls).toHaveLength(1);
    expect(recorder.calls[0]).toMatchObject({ tool: 'bm25_search', input: { query, k: 4 }, ids: direct.map((h) => h.id) });
    expect(recorder.calls[0].ms).toBeGreaterThanOrEqual(0);
  });

  it('uses defaultK when k is omitted and rejects k outside 1..50', async () => {
    const tools = createRetrievalTools({ retrievers, docs, defaultK: 3 });
    const out = JSON.parse(await byName(tools, 'qld_search').invoke({ query: 'adverse possession hostile' }));
    expect(out.results).toHaveLength(3);
    await expect(byName(tools, 'qld_search').invoke({ query: 'x', k: 0 })).rejects.toThrow();
    await expect(byName(tools, 'qld_search').invoke({ query: 'x', k: 51 })).rejects.toThrow();
  });

  it('turns a retriever failure into {error, results: []} so an agent loop goes on', async () => {
    const recorder = new ToolRecorder();
    const broken: Retriever = {
      method: 'dense',
      search: async () => {
        throw new Error('embedder unavailable');
      },
    };
    const [dense] = createRetrievalTools({ retrievers: { dense: broken }, docs, recorder });
    const out = JSON.parse(await (dense as unknown as { invoke(x: unknown): Promise<string> }).invoke({ query: 'negligence' }));
    expect(out).toMatchObject({ error: 'embedder unavailable', results: [] });
    expect(recorder.calls[0]).toMatchObject({ tool: 'dense_search', ids: [], error: 'embedder unavailable' });
  });

  it('hands the same hits to code as a typed artifact next to the text the model reads', async () => {
    const [bm25] = createRetrievalTools({ retrievers: { bm25: retrievers.bm25 }, docs, defaultK: 4 });
    const q = questions[0];
    const art = await searchHits(bm25, { query: q.question });
    const direct = await retrievers.bm25.search(q.question, { k: 4 });
    expect(art.method).toBe('bm25');
    expect(art.results.map((r) => r.id)).toEqual(direct.map((h) => h.id));
    expect(art.results.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(art.results.every((r) => typeof r.snippet === 'string' && r.snippet.length > 0)).toBe(true);
    const text = JSON.parse(String(await bm25.invoke({ query: q.question })));
    // the model reads id, score, rank and text only; the title (which only some passages have) stays with the code
    expect(text.results).toEqual(art.results.map(({ id, score, rank, snippet }) => ({ id, score, rank, snippet })));
    expect(art.results.some((r) => r.title)).toBe(true);
    for (const r of text.results) expect(Object.keys(r).sort()).toEqual(['id', 'rank', 'score', 'snippet']);
  });

  it('records calls on the scoped recorder of concurrent items separately', async () => {
    const tools = createRetrievalTools({ retrievers, docs });
    const a = new ToolRecorder();
    const b = new ToolRecorder();
    await Promise.all([
      withToolRecorder(a, () => byName(tools, 'bm25_search').invoke({ query: 'easement' })),
      withToolRecorder(b, async () => {
        await byName(tools, 'bm25_search').invoke({ query: 'contract offer' });
        await byName(tools, 'qld_search').invoke({ query: 'contract acceptance' });
      }),
    ]);
    expect(a.calls.map((c) => c.input.query)).toEqual(['easement']);
    expect(b.counts()).toEqual({ bm25_search: 1, qld_search: 1 });
  });

  it('works in a LangChain createAgent loop driven by the real ChatOpenAI client', async () => {
    const q = questions[1];
    const srv = await startScriptedServer([
      { toolCalls: [{ name: 'qld_search', args: { query: q.question, k: 3 } }] },
      { content: 'The passages support option A.' },
    ]);
    try {
      const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, retryBaseMs: 1 }));
      const recorder = new ToolRecorder();
      const agent = createAgent({ model, tools: createRetrievalTools({ retrievers, docs, recorder }) });
      const result = await agent.invoke({ messages: [{ role: 'user', content: 'Find the rule.' }] });
      expect(result.messages.at(-1)?.content).toBe('The passages support option A.');
      const sentTools = srv.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
      expect(sentTools).toEqual(['bm25_search', 'qld_search']);
      const toolMsg = srv.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
      const direct = await retrievers.qld.search(q.question, { k: 3 });
      expect(JSON.parse(toolMsg.content).results.map((r: { id: string }) => r.id)).toEqual(direct.map((h) => h.id));
      expect(recorder.calls[0]).toMatchObject({ tool: 'qld_search', ids: direct.map((h) => h.id) });
    } finally {
      await srv.close();
    }
  });

  it('records a call whose arguments the schema refuses (k 100, "10", 10.5) as a failed search, on its own recorder and the scoped one', async () => {
    // before: such a call never reached the tool, so a run's tool counts left it out (4 searches, 3 refused: "qld_search 1", 0 errors)
    const q = questions[2];
    const srv = await startScriptedServer([
      {
        toolCalls: [
          { name: 'qld_search', args: { query: q.question, k: 100 } },
          { name: 'qld_search', args: { query: q.question, k: '10' } },
          { name: 'qld_search', args: { query: q.question, k: 10.5 } },
          { name: 'qld_search', args: { query: q.question, k: 5 } },
        ],
      },
      { content: 'The passages support option B.' },
    ]);
    try {
      const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, retryBaseMs: 1 }));
      const own = new ToolRecorder();
      const scoped = new ToolRecorder();
      const agent = createAgent({ model, tools: createRetrievalTools({ retrievers, docs, recorder: own }) });
      await withToolRecorder(scoped, () => agent.invoke({ messages: [{ role: 'user', content: 'Find the rule.' }] }));
      // the model was told each refusal, as before
      const toolMsgs = srv.requests[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
      expect(toolMsgs.map((m: { content: string }) => /did not match expected schema/.test(m.content))).toEqual([true, true, true, false]);
      for (const rec of [own, scoped]) {
        expect(rec.counts()).toEqual({ qld_search: 4 });
        expect(rec.calls.map((c) => c.input.k)).toEqual([100, '10', 10.5, 5]);
        expect(rec.calls.map((c) => c.error !== undefined)).toEqual([true, true, true, false]);
        expect(rec.calls[0]).toMatchObject({ tool: 'qld_search', ids: [], input: { query: q.question } });
        expect(rec.calls[0].error).toMatch(/did not match expected schema[\s\S]*<=50[\s\S]*at k/);
        expect(rec.calls[3].ids).toHaveLength(5);
      }
    } finally {
      await srv.close();
    }
  });
});

describe('rewrite_query', () => {
  it('structured style: the model writes the legal issue and rule, and that text is the query', async () => {
    const llm = new FakeChatModel([
      '{"issue": "Whether a party may impeach its own witness.", "rule": "Under FRE 607 any party, including the party that called the witness, may attack the witness\'s credibility."}',
    ]);
    const recorder = new ToolRecorder();
    const tool = byName(createRetrievalTools({ retrievers, docs, llm, recorder }), 'rewrite_query');
    const out = JSON.parse(await tool.invoke({ query: 'Can Paul contradict Wes?', facts: 'Paul called Wes, who testified the light was green.' }));
    expect(out.style).toBe('structured');
    expect(out.query).toBe(
      "Whether a party may impeach its own witness. Under FRE 607 any party, including the party that called the witness, may attack the witness's credibility.",
    );
    expect(llm.calls[0].text).toContain('Paul called Wes');
    expect(llm.calls[0].text).toMatch(/legal issue/);
    expect(recorder.calls[0]).toMatchObject({ tool: 'rewrite_query', ids: [], output: out.query });
  });

  it('keywords style returns the model query; an unparseable reply (twice) returns {error, query: original}', async () => {
    const llm = new FakeChatModel(['{"query": "impeach own witness FRE 607"}', 'no json', 'still no json']);
    const tool = byName(createRetrievalTools({ retrievers, docs, llm }), 'rewrite_query');
    expect(JSON.parse(await tool.invoke({ query: 'q', style: 'keywords' })).query).toBe('impeach own witness FRE 607');
    const failed = JSON.parse(await tool.invoke({ query: 'original need' }));
    expect(failed.query).toBe('original need');
    expect(failed.error).toMatch(/could not be parsed/);
  });
});

describe('makeSnippet', () => {
  const text =
    'Contracts require consideration. A gift promise is unenforceable. Adverse possession requires hostile, open and notorious possession for the statutory period. Trespass is an intentional tort.';
  it('starts at the sentence sharing most words with the query and marks cuts', () => {
    const s = makeSnippet(text, 'hostile notorious possession', 80);
    expect(s.startsWith('… Adverse possession requires hostile')).toBe(true);
    expect(s.endsWith(' …')).toBe(true);
  });
  it('returns the whole (whitespace-normalised) text when it fits', () => {
    expect(makeSnippet('A  short\n passage.', 'x', 100)).toBe('A short passage.');
  });
  it('is at most maxChars long with its "… " and " …" marks (before: a 600-character snippet of a Bar Exam passage was up to 604)', async () => {
    // the Bar Exam passages longer than 600 characters, each asked for with a sentence from its middle (so the snippet starts there, marked)
    const long: Passage[] = [];
    for await (const p of loadPassages('barexam')) if (p.text.length > 900 && long.length < 300) long.push(p);
    expect(long).toHaveLength(300);
    const over: string[] = [];
    let bothMarks = 0;
    for (const p of long)
      for (const width of [600, 120]) {
        const words = p.text.replace(/\s+/g, ' ').split(' ');
        const query = words.slice(Math.floor(words.length / 2), Math.floor(words.length / 2) + 12).join(' ');
        const s = makeSnippet(p.text, query, width);
        if (s.length > width) over.push(`${p.id} ${width}: ${s.length}`);
        if (s.startsWith('… ') && s.endsWith(' …')) bothMarks++;
      }
    expect(over).toEqual([]);
    expect(bothMarks).toBeGreaterThan(100);
  });
});
