/**
 * Issue 15, item 1: no LLM request of any system (except the oracle baseline) carries a real passage
 * id. A small REAL index from the bundled data — the gold passages of the first Bar Exam QA val
 * questions (ids mbe_N) and legal_corpus distractors (cap-…#pN, fre-…) —
 * serves every system through the real OpenAI client against the scripted server; every request
 * body is recorded and scanned for every id of the index. The scripted models cite what they were
 * shown (handles), and the traces must still name the real ids.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLegalBenchTask } from '../../corpora/legalbench.js';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import type { Passage, Question } from '../../corpora/types.js';
import type { SystemContext } from '../../eval/types.js';
import { buildIndex } from '../../indexer/build.js';
import { openDocStore } from '../../indexer/docstore.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { createAcalSystem } from '../acal/system.js';
import { scriptedArena } from '../acal/test-support/scripted-arena.js';
import { createBaseline } from '../case/baselines/baseline-system.js';
import { createCase } from '../case/index.js';
import { questionToCase } from '../emar/cases.js';
import { createEmarSystem } from '../emar/system.js';
import type { ClaimEmbedder } from '../emar/types.js';
import { createSelfConsistency, createSingleRag } from '../mad/baselines.js';
import { createMad } from '../mad/debate.js';
import { judgeReply, roleOf } from '../mad/test-support/script.js';
import { buildScenarios } from '../threeply/scenarios.js';
import { createThreePlySystem } from '../threeply/system.js';
import { rulesScript } from '../threeply/test-support/scripted-threeply.js';

let dir: string;
let questions: Question[];
let ids: Set<string>;
let ctxBase: Omit<SystemContext, 'llm' | 'seed'>;

let docs: Awaited<ReturnType<typeof openDocStore>> | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-no-ids-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, 3);
  const gold = new Set(questions.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 400 || /hearsay/i.test(p.text)) passages.push(p);
  ids = new Set(passages.map((p) => p.id));
  const out = join(dir, 'idx');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'no-ids', methods: ['bm25', 'qld'], workers: 0 },
  );
  const retrievers = { bm25: await openRetriever(out, 'bm25'), qld: await openRetriever(out, 'qld') };
  docs = await openDocStore(out);
  ctxBase = { tools: createRetrievalTools({ retrievers, docs }), retrievers, getPassage: async (id) => (await docs!.get(id)) ?? undefined, options: { k: 3 } };
}, 120_000);

afterAll(async () => {
  await docs?.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

/** Every id of the index that occurs in a request body (as a whole token). */
function leakedIds(requests: RecordedRequest[]): string[] {
  const found = new Set<string>();
  for (const r of requests) {
    const text = JSON.stringify(r.body);
    for (const tok of text.split(/[^A-Za-z0-9_#.\-:/]+/)) {
      for (const t of [tok, tok.replace(/[.:/-]+$/, '')]) if (ids.has(t)) found.add(t);
    }
  }
  return [...found].sort();
}

async function record<T>(
  script: (r: RecordedRequest) => ScriptReply,
  run: (ctx: SystemContext) => Promise<T>,
): Promise<{ requests: RecordedRequest[]; out: T }> {
  const srv = await startScriptedServer(script);
  try {
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 10_000 }));
    const out = await run({ ...ctxBase, llm, seed: 7 });
    return { requests: srv.requests, out };
  } finally {
    await srv.close();
  }
}

const text = (r: RecordedRequest) => JSON.stringify(r.body.messages);
const lastUser = (r: RecordedRequest) => String([...r.body.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '');
/** The first passage reference the prompt shows, whatever its form ("[P1] text", "[mbe_3] text"). */
const firstShown = (r: RecordedRequest) => /\n\[([^\]\n]+)\] /.exec(lastUser(r))?.[1];

/** CASE: an advocate searches twice (bm25, then qld), then picks the first two results it saw; jurors vote B. */
function caseScript(r: RecordedRequest): ScriptReply {
  if (/juror on a panel/.test(text(r))) return { content: JSON.stringify({ reasoning: 'relevance', vote: 'B' }) };
  const tools = (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (tools.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'admissible evidence relevant witness' } }] };
  if (tools.length === 1) return { toolCalls: [{ name: 'qld_search', args: { query: 'negligence duty of care' } }] };
  const seen = tools.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
  return { content: JSON.stringify({ analysis: 'a', evidence: [...new Set(seen)].slice(0, 2).map((id) => ({ id, justification: 'on point' })) }) };
}

/** MAD: debaters and the analyst cite the first authority shown; the judge picks A. */
function madScript(r: RecordedRequest): ScriptReply {
  const role = roleOf(r);
  const cite = firstShown(r);
  const claims = [{ text: 'The rule governs these facts', cites: cite ? [cite] : [] }];
  if (role === 'debater') return { content: JSON.stringify({ rebuttal: 'it fails', argument: 'the option is right', claims }) };
  if (role === 'judge') return judgeReply('A');
  if (role === 'analyst') return { content: JSON.stringify({ reasoning: 'r', answer: 'A', claims }) };
  return { status: 500, error: 'unexpected request' };
}

function emarScript(r: RecordedRequest): ScriptReply {
  const s = String(r.body.messages[0].content);
  const json = (o: unknown): ScriptReply => ({ content: JSON.stringify(o) });
  if (s.startsWith('You are a fact-finding clerk')) return json({ facts: ['a witness testified'] });
  if (s.startsWith('You are a neutral Judge')) return json({ established_facts: [], answer: 'B', rationale: 'r' });
  return json({ answer: 'B', stance: 'agree', claim: 'option B is right', argument: 'because', evidence: ['testimony'] });
}

const bow: ClaimEmbedder = {
  id: 'fake:bow-16',
  dimension: 16,
  async embed(texts) {
    return texts.map((t) => {
      const v = new Float32Array(16);
      for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) v[w.length % 16] += 1;
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  },
};

describe('no LLM request carries a real passage id (scripted server, real index from bundled data)', () => {
  it('the index holds Bar Exam QA gold ids (mbe_N) next to distractors', () => {
    expect([...ids].filter((id) => id.startsWith('mbe_')).length).toBe(3);
    expect([...ids].some((id) => id.startsWith('cap-'))).toBe(true);
  });

  it('CASE: advocates (multi-turn tool loops) and jurors see handles; traces keep the real ids', async () => {
    const { requests, out } = await record(caseScript, async (ctx) => Promise.all(questions.map((q) => createCase({ jurors: 3 })(q, ctx))));
    expect(requests.length).toBeGreaterThan(questions.length * 12);
    expect(leakedIds(requests)).toEqual([]);
    for (const o of out) {
      expect(o.error).toBeUndefined();
      for (const a of (o.trace as any).advocates) {
        expect(a.evidence).toHaveLength(2);
        const returned = new Set(a.toolCalls.flatMap((c: any) => c.ids));
        for (const e of a.evidence) expect(ids.has(e.id) && returned.has(e.id)).toBe(true);
      }
    }
  }, 120_000);

  it('baselines: every RAG mode and llm-only; the oracle alone may show gold text (under [n] too)', async () => {
    for (const mode of ['llm-only', 'bm25-rag', 'qld-rag', 'oracle'] as const) {
      const { requests, out } = await record(
        () => ({ content: '{"reasoning":"r","answer":"A"}' }),
        async (ctx) => Promise.all(questions.map((q) => createBaseline(mode)(q, ctx))),
      );
      expect(requests).toHaveLength(questions.length);
      expect(leakedIds(requests), mode).toEqual([]);
      if (mode.endsWith('-rag')) for (const o of out) for (const id of (o.trace as any).retrieval.ids) expect(ids.has(id)).toBe(true);
    }
  }, 60_000);

  it('MAD debate, single-rag and self-consistency: pool, briefs, judge; citations map back to real ids', async () => {
    for (const make of [() => createMad({ rounds: 2, k: 2 }), () => createSingleRag({ k: 2 }), () => createSelfConsistency({ k: 2, samples: 2 })]) {
      const { requests, out } = await record(madScript, async (ctx) => Promise.all(questions.slice(0, 2).map((q) => make()(q, ctx))));
      expect(requests.length).toBeGreaterThan(0);
      expect(leakedIds(requests)).toEqual([]);
      for (const o of out) {
        expect(o.error).toBeUndefined();
        const t = o.trace as any;
        const cites = t.rounds ? t.rounds.flatMap((r: any) => r.briefs.flatMap((b: any) => b.citations)) : t.answer.citations;
        expect(cites.length).toBeGreaterThan(0);
        for (const c of cites) expect(c).toMatchObject({ exists: true, seen: true }), expect(ids.has(c.id)).toBe(true);
      }
    }
  }, 120_000);

  it('ACAL: the arena cites evidence by handle; the graph keeps the real ids', async () => {
    const items = (await loadLegalBenchTask('hearsay')).slice(0, 2);
    const { requests, out } = await record(scriptedArena(), async (ctx) =>
      Promise.all(items.map((it) => createAcalSystem({ task: 'hearsay', k: 3 })(it, ctx))),
    );
    expect(leakedIds(requests)).toEqual([]);
    for (const o of out) {
      const t = o.trace as any;
      expect(t.evidenceIds.length).toBeGreaterThan(0);
      const cited = t.graph.arguments.flatMap((a: any) => a.citedPassageIds);
      expect(cited.length).toBeGreaterThan(0);
      for (const id of cited) expect(t.evidenceIds).toContain(id);
    }
  }, 120_000);

  it('EMAR and 3-ply show no passages at all', async () => {
    const emar = await record(emarScript, async (ctx) =>
      Promise.all(questions.map((q) => createEmarSystem<Question>({ embedder: bow, toCase: questionToCase, maxDepth: 1 })(q, ctx))),
    );
    expect(emar.requests.length).toBeGreaterThan(0);
    expect(leakedIds(emar.requests)).toEqual([]);
    const factors = loadTradeSecretModel();
    const triple = buildScenarios({ mode: 'arguable', n: 1, seed: 3 }, factors)[0];
    const ply = await record(rulesScript(), (ctx) => createThreePlySystem({ kind: 'reflective', factors })(triple, ctx));
    expect(ply.requests.length).toBeGreaterThan(0);
    expect(leakedIds(ply.requests)).toEqual([]);
  }, 60_000);
});
