/**
 * Explorer fixtures for the per-system trace views: one run each of MAD, EMAR, 3-ply, ACAL (on the
 * bundled LegalBench hearsay task, through runAcal) and a bm25-rag baseline, made by
 * the real systems through the experiment runner, talking to the scripted OpenAI-compatible server
 * (tests/support/scripted-openai-server.ts) through the real @langchain/openai client. The scripts
 * reuse the systems' own test-support role detection (agents/mad/test-support/script.ts,
 * agents/threeply/test-support/scripted-threeply.ts); replies are chosen per request, so the runs do
 * not depend on call order.
 */
import { bowEmbedder as makeBowEmbedder } from '../../agents/emar/test-support/bow-embedder.js';
import { join } from 'node:path';
import { createMad } from '../../agents/mad/debate.js';
import { debaterLetter, humanText, judgeReply, roleOf, roundOf, msgs } from '../../agents/mad/test-support/script.js';
import { createEmarSystem } from '../../agents/emar/system.js';
import { questionToCase } from '../../agents/emar/cases.js';
import type { ClaimEmbedder } from '../../agents/emar/types.js';
import { createThreePlySystem } from '../../agents/threeply/system.js';
import { buildScenarios, expectedBehaviour } from '../../agents/threeply/scenarios.js';
import { rulesScript, threeplyRole } from '../../agents/threeply/test-support/scripted-threeply.js';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import type { Question } from '../../corpora/types.js';
import { runExperiment } from '../../eval/runner.js';
import type { SystemContext } from '../../eval/types.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import type { Retriever } from '../../retrieval/types.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { runAcal } from '../../agents/acal/experiment.js';
import { scriptedArena } from '../../agents/acal/test-support/scripted-arena.js';
import { createBaseline } from '../../agents/case/baselines/baseline-system.js';
import '../../agents/systems.js'; // the system list hands itself to eval: the report finds each system's section

export interface SystemRuns {
  madRunId: string;
  emarRunId: string;
  threeplyRunId: string;
  /** ACAL on the first 2 hearsay test items: traces, results and argument graphs (acal/<item>.graph.json). */
  acalRunId: string;
  /** The bm25-rag baseline (createBaseline) on the first 2 questions. */
  baselineRunId: string;
}

const chat = (url: string) => createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 20_000 }));
const json = (o: unknown): ScriptReply => ({ content: JSON.stringify(o) });

/** Deterministic bag-of-words embedder (64 dims, unit length) for EMAR's convergence check. */
export const bowEmbedder: ClaimEmbedder = makeBowEmbedder();

interface IndexBits {
  retrievers: Partial<Record<string, Retriever>>;
  docs: { size: number; get(id: string): Promise<{ id: string; text: string; title?: string } | undefined> };
  getPassage: SystemContext['getPassage'];
  /** Passage texts by id (to write claims that a pool passage supports). */
  texts: Map<string, string>;
  /** The index directory (runAcal opens it itself, as `lexcase run acal --index` does). */
  dir: string;
}

/**
 * MAD (2 rounds, sparse ring, cross-examiner, judge after each round): each debater cites the first
 * pool passage of its prompt with a claim made of that passage's own words (lexically supportive);
 * B also cites a made-up id; B's rebuttal requests one snippet. The judge votes "A" after round 1
 * and the gold answer after round 2 on the first question ("A" again on the second).
 */
function madScript(questions: Question[], texts: Map<string, string>) {
  return (req: RecordedRequest): ScriptReply => {
    const role = roleOf(req);
    const text = humanText(req);
    const qi = questions.findIndex((q) => text.includes(q.question.slice(0, 60)));
    if (role === 'judge') return judgeReply(/ARG-[A-D]-r2/.test(text) && qi === 0 ? questions[0].answer : 'A', qi === 0 ? ['made_up_1'] : []);
    if (role === 'cross-examiner')
      return json({ questions: ['A', 'B', 'C', 'D'].map((l) => ({ letter: l, question: `Q-${l}: which rule makes option ${l} right?` })) });
    if (role === 'cross-answer') return json({ answer: `ANS-${debaterLetter(req)}: the rule in my cited passage` });
    if (role === 'debater') {
      const letter = debaterLetter(req);
      const round = roundOf(req);
      if (letter === 'B' && round > 1 && req.body.tools?.length && !msgs(req).some((x) => x.role === 'tool'))
        return { toolCalls: [{ name: 'bm25_search', args: { query: 'hearsay exception statement against interest' } }] };
      const id = [...texts.keys()].find((k) => text.includes(k));
      const claims = id ? [{ text: (texts.get(id) ?? '').split(/\s+/).slice(0, 14).join(' '), cites: [id] }] : [];
      if (letter === 'B') claims.push({ text: 'Hearsay within hearsay is always excluded', cites: ['made_up_1'] });
      return json({
        ...(round > 1 ? { rebuttal: `The opposing point fails (REB-${letter}-r${round})` } : {}),
        argument: `ARG-${letter}-r${round}: option ${letter} is right`,
        claims,
      });
    }
    return { status: 500, error: `unexpected request: ${String(msgs(req)[0]?.content).slice(0, 60)}` };
  };
}

/** EMAR: the proponent argues the gold answer; the opponent opposes once, then concedes (convergence at depth 2); the judge follows the proponent. */
function emarScript(questions: Question[]) {
  const critiques = new Map<number, number>();
  return (req: RecordedRequest): ScriptReply => {
    const sys: string = req.body.messages[0].content;
    const user: string = req.body.messages[req.body.messages.length - 1].content;
    const all = req.body.messages.map((m: { content: string }) => m.content).join('\n');
    const qi = Math.max(
      0,
      questions.findIndex((q) => all.includes(q.question.slice(0, 60))),
    );
    const gold = questions[qi].answer;
    const wrong = gold === 'A' ? 'B' : 'A';
    const pro = `option ${gold} is right because the rule stated in the facts applies to the conduct described`;
    const claim = (answer: string, text: string) => json({ answer, claim: text, argument: `because ${text}`, evidence: ['the facts as stated'] });
    if (sys.startsWith('You are a fact-finding clerk'))
      return json({ facts: ['The parties dispute the rule', `Question ${qi + 1} turns on the facts stated`] });
    if (sys.startsWith('You are the Proponent')) return claim(gold, pro);
    if (sys.startsWith('You are the Opponent')) {
      const n = (critiques.get(qi) ?? 0) + 1;
      critiques.set(qi, n);
      return n >= 2 ? claim(gold, pro) : claim(wrong, `a different doctrine controls and option ${wrong} follows regardless of timing or notice`);
    }
    if (sys.startsWith('You are a neutral Judge'))
      return json({
        established_facts: ['The parties dispute the rule'],
        answer: gold,
        rationale: `The proponent's rule controls (${user.length} chars read)`,
      });
    return { status: 500, error: 'emarScript: unknown role' };
  };
}

/** 3-ply: the well-behaved team of rulesScript, except that the Distiller also reports F27 for c1 (a hallucination when c1 lacks it). */
function threeplyScript() {
  const rules = rulesScript();
  return (req: RecordedRequest): ScriptReply => {
    const r = rules(req);
    if (threeplyRole(req) !== 'distiller' || !r.content) return r;
    const o = JSON.parse(r.content) as { c1: string[] };
    return json({ ...o, c1: [...new Set([...o.c1, 'F27'])] });
  };
}

export async function makeSystemRuns(runs: string, questions: Question[], ix: IndexBits): Promise<SystemRuns> {
  const qs = questions.slice(0, 2);
  const madRunId = 'mad-scripted';
  const emarRunId = 'emar-scripted';
  const threeplyRunId = 'threeply-scripted';
  const tools = createRetrievalTools({ retrievers: ix.retrievers, docs: ix.docs });

  let srv = await startScriptedServer(madScript(qs, ix.texts));
  // the first pool passage MAD reads has no doc-store text: its prompts show the search snippet (`pool[].fromSnippet`)
  let noText: string | undefined;
  const madPassage = (id: string) => ((noText ??= id) === id ? Promise.resolve(undefined) : ix.getPassage(id));
  try {
    const llm = chat(srv.url);
    await runExperiment({
      lexcaseSystem: 'mad',
      runDir: join(runs, madRunId),
      system: createMad({ rounds: 2, topology: 'sparse', crossExaminer: true, judgeEachRound: true, k: 2 }),
      items: qs,
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({ seed, tools, retrievers: ix.retrievers, llm, getPassage: madPassage, options: {} }),
      config: {
        system: 'mad/mad',
        dataset: 'barexam',
        split: 'val',
        rounds: 2,
        topology: 'sparse',
        crossExaminer: true,
        judgeEachRound: true,
        k: 2,
        model: 'scripted',
      },
      seed: 13,
    });
  } finally {
    await srv.close();
  }

  srv = await startScriptedServer(emarScript(qs));
  try {
    const llm = chat(srv.url);
    await runExperiment({
      lexcaseSystem: 'emar',
      runDir: join(runs, emarRunId),
      system: createEmarSystem<Question>({ embedder: bowEmbedder, toCase: questionToCase }),
      items: qs,
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, llm, getPassage: async () => undefined, options: {} }),
      config: { system: 'emar', dataset: 'barexam', split: 'val', embedder: bowEmbedder.id, model: 'scripted' },
      seed: 13,
    });
  } finally {
    await srv.close();
  }

  srv = await startScriptedServer(threeplyScript());
  try {
    const llm = chat(srv.url);
    const factors = loadTradeSecretModel();
    const items = [...buildScenarios({ mode: 'arguable', n: 1, seed: 13 }, factors), ...buildScenarios({ mode: 'mismatched', n: 1, seed: 13 }, factors)];
    await runExperiment({
      lexcaseSystem: 'threeply',
      runDir: join(runs, threeplyRunId),
      system: createThreePlySystem({ kind: 'reflective', factors }),
      items,
      gold: (t) => expectedBehaviour(t.mode),
      makeContext: (_t, { seed }) => ({ seed, tools: [], retrievers: {}, llm, getPassage: async () => undefined, options: {} }),
      config: { system: 'threeply', variant: 'reflective', dataset: 'trade-secret-synthetic', scenarios: ['arguable', 'mismatched'], n: 1, model: 'scripted' },
      seed: 13,
    });
  } finally {
    await srv.close();
  }

  // ACAL through its experiment function (the scripted arena: hearsay cue → support side strong)
  const acalRunId = 'acal-scripted';
  srv = await startScriptedServer(scriptedArena());
  try {
    await runAcal({ task: 'hearsay', runDir: join(runs, acalRunId), llm: chat(srv.url), limit: 2, indexDir: ix.dir, k: 2, extraConfig: { model: 'scripted' } });
  } finally {
    await srv.close();
  }

  // the bm25-rag baseline: gold answer on the first question, "A" on the second
  const baselineRunId = 'baseline-scripted';
  srv = await startScriptedServer((req) => {
    const all = msgs(req)
      .map((m) => String(m.content))
      .join('\n');
    const qi = qs.findIndex((q) => all.includes(q.question.slice(0, 60)));
    return json({ reasoning: `Passage [1] states the rule that decides question ${qi + 1}.`, answer: qi === 0 ? qs[0].answer : 'A' });
  });
  try {
    const llm = chat(srv.url);
    await runExperiment({
      lexcaseSystem: 'baseline',
      runDir: join(runs, baselineRunId),
      system: createBaseline('bm25-rag', { k: 3 }),
      items: qs,
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: ix.retrievers, llm, getPassage: ix.getPassage, options: {} }),
      config: { system: 'baseline/bm25-rag', mode: 'bm25-rag', dataset: 'barexam', split: 'val', k: 3, model: 'scripted' },
      seed: 13,
    });
  } finally {
    await srv.close();
  }
  return { madRunId, emarRunId, threeplyRunId, acalRunId, baselineRunId };
}
