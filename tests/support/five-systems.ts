/**
 * The five agent systems (CASE, ACAL, MAD, 3-ply, EMAR) run the way `lexcase run <system>` runs
 * them — their experiment functions, on the runner, into a run dir — over a small REAL index from
 * the bundled data, for the tests that hold every system to a contract: the contract-fuzzing
 * server, the provider contract servers, the request-recording cue test and the replay test.
 *
 * The index (`buildMixedIndex`) mixes the two kinds of passage a Bar Exam run retrieves: the gold
 * passages of the first val questions (ids `mbe_N`, source barexam_qa, no title) and legal_corpus
 * distractors (ids `cap-…#pN`, case-name titles, their own source), so the kinds differ in id shape,
 * title and source — everything but the text.
 *
 * `SENSIBLE` holds, per system, a script that answers like a cooperative model (the systems'
 * existing scripted models), for the "finishes with 0 failures" half of the contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage, Question } from '../../corpora/types.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel, type CreateChatModelOptions } from '../../core/llm/factory.js';
import type { StructuredOutputMode } from '../../core/llm/structured.js';
import { UsageMeter } from '../../core/llm/usage.js';
import { setLogLevel } from '../../core/log.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildIndex } from '../../indexer/build.js';
import { runAcal } from '../../agents/acal/experiment.js';
import { scriptedArena } from '../../agents/acal/test-support/scripted-arena.js';
import { runCaseExperiment } from '../../agents/case/experiment.js';
import { runEmarExperiment, type EmarItem } from '../../agents/emar/experiment.js';
import { bowEmbedder } from '../../agents/emar/test-support/bow-embedder.js';
import { runMadExperiment } from '../../agents/mad/experiment.js';
import { judgeReply, roleOf } from '../../agents/mad/test-support/script.js';
import { runThreeplyExperiment } from '../../agents/threeply/experiment.js';
import { rulesScript } from '../../agents/threeply/test-support/scripted-threeply.js';
import { readResults } from '../../eval/run-dir.js';
import type { ResultRecord } from '../../eval/types.js';
import { requestedSchema, type RecordedRequest, type ScriptReply } from './scripted-openai-server.js';
import '../../agents/systems.js'; // the system list hands itself to eval: the report finds each system's section

export const SYSTEMS = ['case', 'acal', 'mad', 'threeply', 'emar'] as const;
export type SystemName = (typeof SYSTEMS)[number];

export interface MixedIndex {
  dir: string;
  questions: Question[];
  /** Ids of the gold-kind (barexam) and distractor (legal_corpus) passages in the index. */
  goldIds: Set<string>;
  distractorIds: Set<string>;
  passages: Passage[];
}

/**
 * Gold passages of the first `n` Bar Exam val questions + `distractors` legal_corpus passages (and,
 * unless `hearsay: false`, every hearsay passage among the first 3,000, for ACAL's evidence).
 */
export async function buildMixedIndex(dir: string, n: number, distractors = 400, o: { hearsay?: boolean } = {}): Promise<MixedIndex> {
  const questions = (await loadQuestions('barexam', 'val')).slice(0, n);
  const gold = new Set(questions.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  const scan = o.hearsay === false ? distractors : Math.max(distractors, 3000);
  let k = 0;
  for await (const p of loadPassages('legal_corpus')) {
    if (k++ < distractors || (o.hearsay !== false && k < 3000 && /hearsay/i.test(p.text))) passages.push(p);
    if (k >= scan) break;
  }
  const out = join(dir, 'idx');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'mixed', methods: ['bm25', 'qld'], workers: 0 },
  );
  return {
    dir: out,
    questions,
    goldIds: new Set(passages.filter((p) => gold.has(p.id)).map((p) => p.id)),
    distractorIds: new Set(passages.filter((p) => !gold.has(p.id)).map((p) => p.id)),
    passages,
  };
}

/**
 * A temp dir holding a mixed index of the first `n` val questions, for one test file: made before its
 * tests (logs silenced meanwhile), removed after. Read `dir` / `index` inside tests.
 */
export function mixedIndexFixture(name: string, n: number): { readonly dir: string; readonly index: MixedIndex } {
  const f = {} as { dir: string; index: MixedIndex };
  beforeAll(async () => {
    setLogLevel('silent');
    f.dir = mkdtempSync(join(tmpdir(), `lexcase-${name}-`));
    f.index = await buildMixedIndex(f.dir, n);
  }, 120_000);
  afterAll(async () => {
    setLogLevel('info');
    await closeSparseIndexes();
    rmSync(f.dir, { recursive: true, force: true });
  });
  return f;
}

/** A factory model on `url` (no cache, no retries, short timeout). */
export function modelOn(
  url: string,
  o: { mode?: StructuredOutputMode; provider?: string; usage?: UsageMeter; replayFrom?: string; extra?: Record<string, unknown> } = {},
): BaseChatModel {
  const cfg = llmConfigSchema.parse({
    baseUrl: url,
    model: 'scripted',
    cacheDir: false,
    maxRetries: 0,
    timeoutMs: 20_000,
    structuredOutput: o.mode ?? 'json_schema',
    ...(o.provider ? { provider: o.provider } : {}),
    ...o.extra,
  });
  const opts: CreateChatModelOptions = { usage: o.usage, ...(o.replayFrom ? { replayFrom: o.replayFrom } : {}) };
  return createChatModel(cfg, opts);
}

export interface SystemRun {
  runDir: string;
  results: ResultRecord[];
}

/**
 * Run `system` over `n` items into `runDir` with `llm` (a second model for 3-ply's evaluator comes
 * from `evaluator`, default the same), the way its `lexcase run` command does.
 */
export async function runSystem(
  system: SystemName,
  o: { llm: BaseChatModel; evaluator?: BaseChatModel; runDir: string; index: MixedIndex; n: number; usage?: UsageMeter; concurrency?: number },
): Promise<SystemRun> {
  const usage = o.usage ?? new UsageMeter();
  switch (system) {
    case 'case':
      await runCaseExperiment({
        system: 'case',
        dataset: 'barexam',
        split: 'val',
        index: o.index.dir,
        llm: o.llm,
        usage,
        limit: o.n,
        k: 3,
        jurors: 3,
        maxSteps: 4,
        runDir: o.runDir,
        concurrency: o.concurrency,
        model: { model: 'scripted' },
      });
      break;
    case 'mad':
      await runMadExperiment({
        system: 'mad',
        dataset: 'barexam',
        split: 'val',
        index: o.index.dir,
        llm: o.llm,
        usage,
        limit: o.n,
        k: 3,
        rounds: 2,
        runDir: o.runDir,
        concurrency: o.concurrency,
        model: { model: 'scripted' },
      });
      break;
    case 'emar': {
      const items: EmarItem[] = o.index.questions.slice(0, o.n).map((q) => ({ ...q, kind: 'question' as const }));
      await runEmarExperiment({
        runDir: o.runDir,
        dataset: 'barexam',
        split: 'val',
        limit: o.n,
        items,
        model: o.llm,
        embedder: bowEmbedder(),
        epsilon: 0.85,
        maxDepth: 2,
        convergence: 'stance',
        seed: 13,
        usage,
        concurrency: o.concurrency,
        llm: { model: 'scripted' },
      });
      break;
    }
    case 'acal':
      await runAcal({
        task: 'hearsay',
        runDir: o.runDir,
        llm: o.llm,
        limit: o.n,
        k: 3,
        indexDir: o.index.dir,
        usage,
        concurrency: o.concurrency,
        iterations: 50,
      });
      break;
    case 'threeply':
      await runThreeplyExperiment({
        runDir: o.runDir,
        kind: 'reflective',
        source: 'synthetic',
        modes: o.n > 1 ? ['arguable', 'non-arguable'] : ['arguable'],
        n: Math.ceil(o.n / 2),
        complexity: 5,
        seed: 13,
        model: o.llm,
        evaluator: o.evaluator ?? o.llm,
        usage,
        concurrency: o.concurrency,
        llm: { model: 'scripted' },
      });
      break;
  }
  return { runDir: o.runDir, results: (await readResults(o.runDir)).records };
}

/**
 * The systems' other modes, each run the way its command runs it (for tests that must see every
 * schema every system can send): CASE with exploratory hypotheses and its baselines, MAD with the
 * cross-examiner and per-round judging and its two baselines, ACAL's SP/CoT/RAG baselines, and the
 * 3-ply single agents and multi-agent team without reflection.
 */
export const VARIANTS: Record<string, (o: { llm: BaseChatModel; runDir: string; index: MixedIndex; n: number }) => Promise<unknown>> = {
  'case-exploratory': (o) =>
    runCaseExperiment({
      system: 'case',
      hypotheses: 'exploratory',
      dataset: 'barexam',
      split: 'val',
      index: o.index.dir,
      llm: o.llm,
      limit: o.n,
      k: 3,
      maxSteps: 3,
      runDir: o.runDir,
    }),
  'baseline-llm-only': (o) =>
    runCaseExperiment({ system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', index: o.index.dir, llm: o.llm, limit: o.n, runDir: o.runDir }),
  'baseline-bm25-rag': (o) =>
    runCaseExperiment({
      system: 'baseline',
      mode: 'bm25-rag',
      dataset: 'barexam',
      split: 'val',
      index: o.index.dir,
      llm: o.llm,
      limit: o.n,
      k: 3,
      runDir: o.runDir,
    }),
  'mad-cross-examiner': (o) =>
    runMadExperiment({
      system: 'mad',
      dataset: 'barexam',
      split: 'val',
      index: o.index.dir,
      llm: o.llm,
      limit: o.n,
      k: 3,
      rounds: 2,
      crossExaminer: true,
      judgeEachRound: true,
      runDir: o.runDir,
    }),
  'mad-single-rag': (o) =>
    runMadExperiment({ system: 'single-rag', dataset: 'barexam', split: 'val', index: o.index.dir, llm: o.llm, limit: o.n, k: 3, runDir: o.runDir }),
  'mad-self-consistency': (o) =>
    runMadExperiment({
      system: 'self-consistency',
      samples: 3,
      dataset: 'barexam',
      split: 'val',
      index: o.index.dir,
      llm: o.llm,
      limit: o.n,
      k: 3,
      runDir: o.runDir,
    }),
  'acal-sp': (o) => runAcal({ task: 'hearsay', system: 'sp', runDir: o.runDir, llm: o.llm, limit: o.n, iterations: 50 }),
  'acal-cot': (o) => runAcal({ task: 'hearsay', system: 'cot', runDir: o.runDir, llm: o.llm, limit: o.n, iterations: 50 }),
  'acal-rag': (o) => runAcal({ task: 'hearsay', system: 'rag', runDir: o.runDir, llm: o.llm, limit: o.n, k: 3, indexDir: o.index.dir, iterations: 50 }),
  ...Object.fromEntries(
    (['single', 'single-enhanced', 'multi-no-reflection'] as const).map((kind) => [
      `threeply-${kind}`,
      (o: { llm: BaseChatModel; runDir: string; n: number }) =>
        runThreeplyExperiment({
          runDir: o.runDir,
          kind,
          source: 'synthetic',
          modes: ['arguable'],
          n: o.n,
          complexity: 5,
          seed: 13,
          model: o.llm,
          evaluator: o.llm,
          llm: { model: 'scripted' },
        }),
    ]),
  ),
};

// --- sensible scripts (cooperative models) ---

const text = (r: RecordedRequest) => JSON.stringify(r.body.messages);
const lastUser = (r: RecordedRequest) => String([...r.body.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '');
const firstShown = (r: RecordedRequest) => /\n\[([^\]\n]+)\] /.exec(lastUser(r))?.[1];
const json = (o: unknown): ScriptReply => ({ content: JSON.stringify(o) });

/**
 * CASE: an advocate searches twice (bm25, then qld), then picks the first two results it saw (in
 * its loop's last turn, or — a schema-following server turns that unconstrained JSON into prose —
 * in the compile call, from the passages it lists); jurors vote B.
 */
function caseScript(r: RecordedRequest): ScriptReply {
  if (/juror on a panel/.test(text(r))) return json({ reasoning: 'relevance', vote: 'B' });
  if (requestedSchema(r)) {
    const listed = [...lastUser(r).matchAll(/^(P\d+): /gm)].map((m) => m[1]);
    return json({ analysis: 'a', evidence: listed.slice(0, 2).map((id) => ({ id, justification: 'on point' })) });
  }
  const tools = (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (tools.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'admissible evidence relevant witness', k: null } }] };
  if (tools.length === 1) return { toolCalls: [{ name: 'qld_search', args: { query: 'negligence duty of care', k: null } }] };
  const seen = tools.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
  return json({ analysis: 'a', evidence: [...new Set(seen)].slice(0, 2).map((id) => ({ id, justification: 'on point' })) });
}

/** MAD: debaters cite the first authority shown; the judge picks A. */
function madScript(r: RecordedRequest): ScriptReply {
  const role = roleOf(r);
  const cite = firstShown(r);
  const claims = [{ text: 'The rule governs these facts', cites: cite ? [cite] : [] }];
  if (role === 'debater') return json({ rebuttal: 'it fails', argument: 'the option is right', claims });
  if (role === 'judge') return judgeReply('A');
  if (role === 'cross-examiner') {
    const to = /Ask each debater \(([A-J, ]+)\)/.exec(lastUser(r))?.[1].split(', ') ?? ['A'];
    return json({ questions: Object.fromEntries(to.map((l) => [l, 'why?'])) });
  }
  if (role === 'cross-answer') return json({ answer: 'because' });
  return { status: 500, error: 'unexpected request' };
}

function emarScript(r: RecordedRequest): ScriptReply {
  const s = String(r.body.messages[0].content);
  if (s.startsWith('You are a fact-finding clerk')) return json({ facts: ['a witness testified'] });
  if (s.startsWith('You are a neutral Judge')) return json({ established_facts: ['a witness testified'], answer: 'B', rationale: 'r' });
  return json({ answer: 'B', claim: 'option B is right', argument: 'because', evidence: ['testimony'] });
}

export const SENSIBLE: Record<SystemName, () => (r: RecordedRequest) => ScriptReply> = {
  case: () => caseScript,
  mad: () => madScript,
  emar: () => emarScript,
  acal: () => scriptedArena(),
  threeply: () => rulesScript(),
};
