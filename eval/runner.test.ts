import { mkdtempSync, readFileSync, readdirSync, rmSync, appendFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { llmConfigSchema } from '../core/config.js';
import { errors } from '../core/errors.js';
import { createChatModel } from '../core/llm/factory.js';
import { invokeStructured } from '../core/llm/structured.js';
import { ITEM_COUNTS } from './item-counts.js';
import { SEED_DERIVATION } from '../core/rng.js';
import { UsageMeter } from '../core/llm/usage.js';
import { registerSecret, setLogLevel } from '../core/log.js';
import { createRetrievalTools } from '../retrieval/tools/index.js';
import type { DocStore, Retriever } from '../retrieval/types.js';
import { FakeChatModel } from '../tests/support/fake-chat-model.js';
import { startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { readRun } from './report/read-run.js';
import { summarySection } from './report/sections/summary.js';
import { readResults, resultsPath, tracePath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem, SystemContext } from './types.js';

interface Q {
  id: string;
  question: string;
  answer: string;
}

const ITEMS: Q[] = [
  { id: 'mbe_1', question: 'Is a promise to make a gift enforceable?', answer: 'B' },
  { id: 'mbe_2', question: 'May a party impeach its own witness?', answer: 'A' },
  { id: 'mbe_3', question: 'Does adverse possession require hostility?', answer: 'C' },
  { id: 'mbe_4', question: 'Is hearsay admissible to show effect on the listener?', answer: 'D' },
];

const PASSAGES: Record<string, string> = {
  p1: 'A promise to make a gift is generally unenforceable for want of consideration.',
  p2: 'Any party, including the party that called the witness, may attack the witness credibility.',
  p3: 'Adverse possession requires possession that is actual, open, notorious, hostile and continuous.',
};
const docs: DocStore = { size: 3, get: async (id) => (PASSAGES[id] ? { id, text: PASSAGES[id] } : undefined) };
const words = (s: string) => new Set(s.toLowerCase().match(/[a-z]{4,}/g) ?? []);
const overlap: Retriever = {
  method: 'bm25',
  async search(query, o) {
    const q = words(query);
    return Object.entries(PASSAGES)
      .map(([id, t]) => ({ id, score: [...words(t)].filter((w) => q.has(w)).length }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, o?.k ?? 5)
      .map((h, i) => ({ ...h, rank: i + 1 }));
  },
};

/** A small RAG system: search with the bm25 tool, then ask the model for {"answer": X}. */
const ragSystem: AgentSystem<Q> = async (item, ctx) => {
  const search = ctx.tools.find((t) => t.name === 'bm25_search')!;
  const out = JSON.parse(await (search as unknown as { invoke(x: unknown): Promise<string> }).invoke({ query: item.question, k: 2 }));
  const context = out.results.map((r: { snippet: string }) => r.snippet).join('\n');
  const { value, raw } = await invokeStructured(
    ctx.llm!,
    [new HumanMessage(`[${item.id}] ${item.question}\nContext:\n${context}\nReply {"answer": "A"|"B"|"C"|"D"}`)],
    z.object({ answer: z.enum(['A', 'B', 'C', 'D']) }),
    { what: 'answer' },
  );
  return {
    prediction: value.answer,
    confidence: 'high',
    trace: { context: out.results.map((r: { id: string }) => r.id), raw },
    metrics: { retrieved: out.results.length },
  };
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ctxFor =
  (llm: BaseChatModel | undefined) =>
  (_item: Q, { seed }: { seed: number }): SystemContext => ({
    seed,
    tools: createRetrievalTools({ retrievers: { bm25: overlap }, docs }),
    retrievers: { bm25: overlap },
    llm,
    getPassage: (id) => docs.get(id),
    options: {},
  });

describe('runExperiment', () => {
  it("contextFrom: each item gets the run's parts and its own seed; a part not given is empty", async () => {
    const seen: SystemContext[] = [];
    const system: AgentSystem<Q> = async (q, ctx) => {
      seen.push(ctx);
      return { prediction: q.answer, trace: {} };
    };
    const llm = new FakeChatModel([]) as unknown as BaseChatModel;
    const r = await runExperiment({
      runDir: dir,
      system,
      items: ITEMS,
      gold: (q) => q.answer,
      makeContext: contextFrom({ llm, retrievers: { bm25: overlap } }),
      config: {},
      seed: 7,
    });
    expect(r.ran).toBe(ITEMS.length);
    expect(new Set(seen.map((c) => c.seed)).size).toBe(ITEMS.length); // one seed per item, derived from the run's
    for (const c of seen) {
      expect(c).toMatchObject({ llm, retrievers: { bm25: overlap }, tools: [], options: {} });
      await expect(c.getPassage('p1')).resolves.toBeUndefined();
    }
    const bare = contextFrom()(ITEMS[0], { seed: 5 });
    expect(bare).toMatchObject({ seed: 5, tools: [], retrievers: {}, options: {} });
    expect(bare.llm).toBeUndefined();
  });

  it('writes config.json with provenance, one results line and one trace per item, with per-item tokens and tool calls', async () => {
    const llm = new FakeChatModel((call) => ({ content: `{"answer": "${call.text.includes('gift') ? 'B' : 'A'}"}`, usage: { input: 100, output: 7 } }));
    const usage = new UsageMeter();
    const r = await runExperiment({
      runDir: dir,
      system: ragSystem,
      items: ITEMS,
      gold: (q) => q.answer,
      makeContext: ctxFor(llm),
      config: { system: 'rag-test', k: 2 },
      seed: 7,
      usage,
    });
    expect(r).toMatchObject({ skipped: 0, ran: 4, failed: 0, aborted: false });
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(cfg.seed).toBe(7);
    // with how the items' seeds follow from the run seed (core/rng.ts)
    expect(cfg.config).toEqual({ system: 'rag-test', k: 2, seedDerivation: SEED_DERIVATION, itemCounts: ITEM_COUNTS });
    expect(cfg.provenance.datasetChecksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(cfg.provenance.gitSha).toMatch(/^([0-9a-f]{7,64}(-dirty)?|unknown)$/);
    expect(cfg.provenance.lexcaseVersion).toMatch(/^\d+\.\d+\.\d+/);
    const { records } = await readResults(dir);
    expect(records.map((x) => [x.id, x.prediction, x.correct])).toEqual([
      ['mbe_1', 'B', true],
      ['mbe_2', 'A', true],
      ['mbe_3', 'A', false],
      ['mbe_4', 'A', false],
    ]);
    expect(records[0].tokens).toEqual({ input: 100, output: 7, total: 107, calls: 1, cached: 0, retried: 0 });
    expect(records[0].metrics).toEqual({ retrieved: 1 });
    expect(usage.snapshot()).toMatchObject({ input: 400, output: 28, calls: 4 });
    const trace = JSON.parse(readFileSync(tracePath(dir, 'mbe_1'), 'utf8'));
    expect(trace.context).toEqual(['p1']);
    expect(trace.runner.toolCalls).toEqual([expect.objectContaining({ tool: 'bm25_search', input: { query: ITEMS[0].question, k: 2 }, ids: ['p1'] })]);
    expect(trace.runner).toMatchObject({ prediction: 'B', gold: 'B', correct: true });
  });

  it('records a failing item (system throws or returns error) and goes on', async () => {
    const system: AgentSystem<Q> = async (item) => {
      if (item.id === 'mbe_2') throw errors.llmOutputInvalid('juror vote', 'field "vote": expected A-D');
      if (item.id === 'mbe_3') return { prediction: null, trace: { note: 'abstained' }, error: 'no hypothesis survived' };
      return { prediction: item.answer, trace: {} };
    };
    const r = await runExperiment({ runDir: dir, system, items: ITEMS, gold: (q) => q.answer, makeContext: ctxFor(undefined), config: {}, seed: 1 });
    expect(r.failed).toBe(2);
    const { records } = await readResults(dir);
    const byId = Object.fromEntries(records.map((x) => [x.id, x]));
    expect(byId.mbe_2).toMatchObject({ prediction: null, correct: false, error: expect.stringMatching(/^LLM_OUTPUT_INVALID: .*juror vote/) });
    expect(byId.mbe_3).toMatchObject({ prediction: null, correct: false, error: 'no hypothesis survived' });
    expect(byId.mbe_4).toMatchObject({ prediction: 'D', correct: true });
    expect(JSON.parse(readFileSync(tracePath(dir, 'mbe_3'), 'utf8')).note).toBe('abstained');
  });

  it('the progress count says how many of its items failed, those a resume keeps failed included, as results.jsonl holds them', async () => {
    const system: AgentSystem<Q> = async (item) => {
      if (item.id === 'mbe_2') throw errors.llmOutputInvalid('juror vote', 'field "vote": expected A-D');
      if (item.id === 'mbe_3') return { prediction: null, trace: {}, error: 'no hypothesis survived' };
      return { prediction: item.answer, trace: {} };
    };
    const lines: string[] = [];
    const env = { mode: process.env.LEXCASE_PROGRESS, interval: process.env.LEXCASE_PROGRESS_INTERVAL };
    // plain lines at every update (an interval of 1 µs; each item's writes take longer)
    process.env.LEXCASE_PROGRESS = 'lines';
    process.env.LEXCASE_PROGRESS_INTERVAL = '0.000001';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      if (String(chunk).startsWith('[run]')) lines.push(String(chunk));
      return true;
    });
    try {
      const run = (items: Q[], limit: number) =>
        runExperiment({ runDir: dir, system, items, gold: (q) => q.answer, makeContext: ctxFor(undefined), config: { limit }, seed: 1, retryFailed: false });
      await run(ITEMS.slice(0, 2), 2);
      expect(lines.at(-1)).toMatch(/^\[run\] 2\/2 items \(100%\), 1 failed .*done in/);
      lines.length = 0;
      // grown to 4: mbe_2 kept failed (--no-retry-failed), mbe_3 fails now
      await run(ITEMS, 4);
      expect(lines.at(-1)).toMatch(/^\[run\] 4\/4 items \(100%\), 2 failed .*done in/);
    } finally {
      spy.mockRestore();
      for (const [k, v] of [
        ['LEXCASE_PROGRESS', env.mode],
        ['LEXCASE_PROGRESS_INTERVAL', env.interval],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    const { records } = await readResults(dir);
    expect(
      records
        .filter((r) => r.error !== undefined)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['mbe_2', 'mbe_3']);
  });

  it('stops the run on a makeContext (setup) error instead of recording every item as failed', async () => {
    const calls: string[] = [];
    const system: AgentSystem<Q> = async (item) => (calls.push(item.id), { prediction: item.answer, trace: {} });
    const makeContext = (item: Q, info: { seed: number }) => {
      if (item.id === 'mbe_2') throw errors.indexMissing('/nowhere/index');
      return ctxFor(undefined)(item, info);
    };
    await expect(runExperiment({ runDir: dir, system, items: ITEMS, gold: (q) => q.answer, makeContext, config: {}, seed: 1 })).rejects.toMatchObject({
      code: 'INDEX_MISSING',
    });
    expect(calls).toEqual(['mbe_1']);
    expect((await readResults(dir)).records.map((r) => r.id)).toEqual(['mbe_1']);
  });

  it('resumes an interrupted run: done items are skipped, the rest run once', async () => {
    const calls: string[] = [];
    const controller = new AbortController();
    const system: AgentSystem<Q> = async (item) => {
      calls.push(item.id);
      if (calls.length === 2) controller.abort();
      return { prediction: item.answer, trace: {} };
    };
    const base = { runDir: dir, system, items: ITEMS, gold: (q: Q) => q.answer, makeContext: ctxFor(undefined), config: { system: 's' }, seed: 3 };
    const first = await runExperiment({ ...base, signal: controller.signal });
    expect(first.aborted).toBe(true);
    expect(first.ran).toBe(2);
    calls.length = 0;
    const second = await runExperiment(base);
    expect(second).toMatchObject({ skipped: 2, ran: 2 });
    expect(calls).toEqual(['mbe_3', 'mbe_4']);
    expect((await readResults(dir)).records.map((x) => x.id)).toEqual(['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4']);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).resumes).toHaveLength(1);
  });

  it('a retry of failed items aborted midway keeps every item in results.jsonl: the retried one new, the rest still failed, their traces unchanged', async () => {
    const base = { runDir: dir, items: ITEMS, gold: (q: Q) => q.answer, makeContext: ctxFor(undefined), config: { system: 's' }, seed: 3 };
    // first run: only mbe_1 succeeds
    const down: AgentSystem<Q> = async (item) =>
      item.id === 'mbe_1' ? { prediction: item.answer, trace: {} } : { prediction: null, trace: { attempt: 1 }, error: 'upstream down' };
    expect(await runExperiment({ ...base, system: down })).toMatchObject({ ran: 4, failed: 3 });

    // the resume retries mbe_2, mbe_3, mbe_4: mbe_2 succeeds, then the run is interrupted during mbe_3
    const controller = new AbortController();
    const calls: string[] = [];
    const interrupted: AgentSystem<Q> = async (item, ctx) => {
      calls.push(item.id);
      if (item.id === 'mbe_2') return { prediction: item.answer, trace: { attempt: 2 } };
      controller.abort();
      throw ctx.signal!.reason;
    };
    const second = await runExperiment({ ...base, system: interrupted, signal: controller.signal });
    expect(second).toMatchObject({ aborted: true, retried: 3, ran: 1, skipped: 1 });
    expect(calls).toEqual(['mbe_2', 'mbe_3']);
    const byId = new Map((await readResults(dir)).records.map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual(['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4']);
    expect((await readResults(dir)).records).toHaveLength(4);
    expect(byId.get('mbe_2')).toMatchObject({ prediction: 'A', correct: true });
    expect(byId.get('mbe_2')!.error).toBeUndefined();
    for (const id of ['mbe_3', 'mbe_4']) {
      expect(byId.get(id)).toMatchObject({ prediction: null, correct: false, error: 'upstream down' });
      // the interrupted attempt wrote no trace: the failed record keeps its own
      expect(JSON.parse(readFileSync(tracePath(dir, id), 'utf8'))).toMatchObject({ attempt: 1, runner: { error: 'upstream down' } });
    }
    expect(JSON.parse(readFileSync(tracePath(dir, 'mbe_2'), 'utf8'))).toMatchObject({ attempt: 2, runner: { correct: true } });
    expect(second.results.map((r) => r.id).sort()).toEqual(['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4']);

    // the next resume retries the two still failed, and the file holds one line per item
    const third = await runExperiment({ ...base, system: async (item) => ({ prediction: item.answer, trace: {} }) });
    expect(third).toMatchObject({ retried: 2, ran: 2, skipped: 2 });
    const ids = (await readResults(dir)).records.map((r) => r.id);
    expect(ids.sort()).toEqual(['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4']);
    expect(third.results.every((r) => r.correct)).toBe(true);
  });

  it('drops a truncated last line left by a crash and redoes that item', async () => {
    const system: AgentSystem<Q> = async (item) => ({ prediction: item.answer, trace: {} });
    const base = { runDir: dir, system, items: ITEMS.slice(0, 2), gold: (q: Q) => q.answer, makeContext: ctxFor(undefined), config: {}, seed: 3 };
    await runExperiment(base);
    appendFileSync(resultsPath(dir), '{"id":"mbe_3","prediction":"C","go');
    const r = await runExperiment({ ...base, items: ITEMS });
    expect(r).toMatchObject({ skipped: 2, ran: 2 });
    const text = readFileSync(resultsPath(dir), 'utf8');
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4']);
  });

  it('refuses to resume into a run dir started with another config or seed', async () => {
    const system: AgentSystem<Q> = async (item) => ({ prediction: item.answer, trace: {} });
    const base = { runDir: dir, system, items: ITEMS, gold: (q: Q) => q.answer, makeContext: ctxFor(undefined), config: { k: 3 }, seed: 3 };
    await runExperiment(base);
    await expect(runExperiment({ ...base, config: { k: 5 } })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "k" differs/),
    });
    await expect(runExperiment({ ...base, seed: 4 })).rejects.toMatchObject({ code: 'RUN_INVALID', message: expect.stringMatching(/seed 3/) });
  });

  it('grows a run: a larger limit or a split holding its items runs only the new items and records the change; a shrink or another field is refused', async () => {
    const calls: string[] = [];
    const system: AgentSystem<Q> = async (item) => {
      calls.push(item.id);
      return { prediction: item.answer, trace: {} };
    };
    const base = { runDir: dir, system, gold: (q: Q) => q.answer, makeContext: ctxFor(undefined), seed: 3 };
    await runExperiment({ ...base, items: ITEMS.slice(0, 2), config: { k: 3, split: 'val', limit: 2 } });
    calls.length = 0;
    const grown = await runExperiment({ ...base, items: ITEMS.slice(0, 3), config: { k: 3, split: 'val', limit: 3 } });
    expect(grown).toMatchObject({ skipped: 2, ran: 1 });
    expect(calls).toEqual(['mbe_3']);
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(cfg.config).toMatchObject({ limit: 3, split: 'val', k: 3 });
    expect(cfg.resumes.at(-1)).toMatchObject({ items: 3, skipped: 2, grown: { limit: { from: 2, to: 3 } } });
    // another split that holds every recorded item, no limit: grows too
    calls.length = 0;
    expect(await runExperiment({ ...base, items: ITEMS, config: { k: 3, split: 'all', limit: null } })).toMatchObject({ skipped: 3, ran: 1 });
    expect(calls).toEqual(['mbe_4']);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).resumes.at(-1).grown).toEqual({
      split: { from: 'val', to: 'all' },
      limit: { from: 3, to: null },
    });
    // a selection that leaves recorded items out is refused, and so is any other field
    await expect(runExperiment({ ...base, items: ITEMS.slice(0, 2), config: { k: 3, split: 'all', limit: 2 } })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/leaves out 2 recorded items \(e\.g\. mbe_3, mbe_4\).*not shrink/),
    });
    await expect(runExperiment({ ...base, items: ITEMS, config: { k: 5, split: 'all', limit: null } })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "k" differs/),
    });
    expect((await readResults(dir)).records.map((r) => r.id)).toEqual(['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4']);
  });

  it('runs items concurrently up to the limit, lines stay whole; duplicate ids are rejected', async () => {
    let open = 0;
    let max = 0;
    const system: AgentSystem<Q> = async (item) => {
      max = Math.max(max, ++open);
      await new Promise((r) => setTimeout(r, 15));
      open--;
      return { prediction: item.answer, trace: { pad: 'x'.repeat(5000) } };
    };
    const many = Array.from({ length: 12 }, (_, i) => ({ id: `q/${i}`, question: 'q', answer: 'A' }));
    const r = await runExperiment({
      runDir: dir,
      system,
      items: many,
      gold: (q) => q.answer,
      makeContext: ctxFor(undefined),
      config: {},
      seed: 1,
      concurrency: 3,
    });
    expect(max).toBe(3);
    expect(r.results).toHaveLength(12);
    expect((await readResults(dir)).records).toHaveLength(12);
    expect(existsSync(tracePath(dir, 'q/5'))).toBe(true);
    expect(readdirSync(join(dir, 'traces'))).toHaveLength(12);
    await expect(
      runExperiment({ runDir: dir, system, items: [many[0], many[0]], gold: (q) => q.answer, makeContext: ctxFor(undefined), config: {}, seed: 1 }),
    ).rejects.toThrow(/duplicate item id/);
  });

  it('keeps API keys out of traces and results', async () => {
    const key = 'sk-live-TOPSECRET-abcdef123456';
    registerSecret(key);
    const system: AgentSystem<Q> = async (item) => ({
      prediction: item.answer,
      trace: { request: { headers: { authorization: `Bearer ${key}` } } },
      error: `401 Incorrect API key provided: ${key}`,
    });
    await runExperiment({
      runDir: dir,
      system,
      items: ITEMS.slice(0, 1),
      gold: (q) => q.answer,
      makeContext: ctxFor(undefined),
      config: { apiKey: key },
      seed: 1,
    });
    for (const f of ['results.jsonl', 'config.json', 'traces/mbe_1.json']) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(key);
  });

  it('runs the real ChatOpenAI client against the scripted server: retries, and an unparseable reply becomes that item’s failure', async () => {
    const srv = await startScriptedServer((req) => {
      const text = JSON.stringify(req.body.messages);
      const id = /\[(mbe_\d)\]/.exec(text)?.[1];
      if (id === 'mbe_2') return { content: 'I think it is probably A, not sure.' };
      if (id === 'mbe_3' && !srv.requests.some((r) => r.index < req.index && JSON.stringify(r.body.messages).includes('[mbe_3]'))) return { status: 500 };
      return { content: `{"answer": "${id === 'mbe_1' ? 'B' : 'C'}"}`, usage: { prompt_tokens: 50, completion_tokens: 5 } };
    });
    try {
      const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, retryBaseMs: 1 }));
      const r = await runExperiment({
        runDir: dir,
        system: ragSystem,
        items: ITEMS.slice(0, 3),
        gold: (q) => q.answer,
        makeContext: ctxFor(llm),
        config: {},
        seed: 1,
      });
      expect(r.failed).toBe(1);
      const byId = Object.fromEntries(r.results.map((x) => [x.id, x]));
      expect(byId.mbe_1).toMatchObject({ prediction: 'B', correct: true, tokens: { input: 50, output: 5, calls: 1 } });
      expect(byId.mbe_2).toMatchObject({ prediction: null, error: expect.stringMatching(/LLM_OUTPUT_INVALID/) });
      expect(byId.mbe_2.tokens?.calls).toBe(2);
      expect(byId.mbe_3).toMatchObject({ prediction: 'C', correct: true });
    } finally {
      await srv.close();
    }
  });

  it('an endpoint that refuses the structured-output mode mid-run: config.json and the report say from which item the items were asked in prompt-only JSON', async () => {
    // the endpoint refuses response_format from the second item on (as a proxy put in front midway would)
    const srv = await startScriptedServer((req) => {
      const second = JSON.stringify(req.body.messages).includes('[mbe_2]');
      if (second && req.body.response_format) return { status: 400, error: 'response_format json_schema is not supported' };
      return { content: '{"answer": "B"}' };
    });
    setLogLevel('silent');
    try {
      const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, retryBaseMs: 1 }));
      const r = await runExperiment({
        runDir: dir,
        system: ragSystem,
        items: ITEMS.slice(0, 3),
        gold: (q) => q.answer,
        makeContext: ctxFor(llm),
        config: {},
        seed: 1,
        concurrency: 1,
      });
      expect(r.failed).toBe(0);
      // before: config.json and llm/model.json said json_schema for the whole run, with nothing else
      const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
      expect(cfg.structuredOutputSwitches).toEqual([{ from: 'json_schema', to: 'prompt', item: 'mbe_2', at: expect.any(String) }]);
      const summary = await summarySection(await readRun(dir), {} as never);
      expect(summary?.markdown).toMatch(/structured output switched\*\*: json_schema → prompt from item mbe_2 on/);
    } finally {
      setLogLevel('info');
      await srv.close();
    }
  });
});
