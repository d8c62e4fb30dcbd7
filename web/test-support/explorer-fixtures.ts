/**
 * Self-contained fixtures for the explorer tests, all made through the library: a tiny index of
 * real bundled passages (the gold passages of the first Bar Exam QA val questions plus
 * legal_corpus distractors), an offline CASE run over those questions (runExperiment +
 * createCase), and an ACAL run holding the sample hearsay argument graph (writeGraph).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OFFLINE_LABEL } from '../../agents/case/advocate-offline.js';
import { createCase } from '../../agents/case/index.js';
import { openCaseIndex } from '../../retrieval/open-index.js';
import { loadSampleGraph } from '../../agents/acal/graph/sample-graph.js';
import { writeGraph } from '../../agents/acal/graph/store.js';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage, Question } from '../../corpora/types.js';
import { runExperiment } from '../../eval/runner.js';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { makeSystemRuns, type SystemRuns } from './system-runs.js';
import { loadRecipe } from '../../eval/reproduce/recipe.js';
import { runGrid } from '../../eval/reproduce/run-grid.js';
import { FakeChatModel, type FakeCall, type FakeReply } from '../../tests/support/fake-chat-model.js';
import '../../agents/systems.js'; // the system list hands itself to eval: the report finds each system's section

export interface ExplorerFixtures {
  root: string;
  index: string;
  runs: string;
  caseRunId: string;
  /** A CASE run through the LLM pipeline (scripted chat model): advocates with tool loops and a 3-juror panel. */
  llmRunId: string;
  acalRunId: string;
  acalItem: string;
  questions: Question[];
  /** With `systems: true`: one scripted run each of MAD, EMAR, 3-ply, ACAL and a bm25-rag baseline (system-runs.ts). */
  systemRuns?: SystemRuns;
  /** With `reproduction: true`: `lexcase reproduce case-table3 --limit 4` on the fixture index (bm25, qld done; dense failed: the index has no dense vectors). */
  reproRunId?: string;
  cleanup(): Promise<void>;
}

export async function makeExplorerFixtures(
  nQuestions = 4,
  opts: { systems?: boolean; reproduction?: boolean /** An empty dir to build in (default: a new temp dir). */; root?: string } = {},
): Promise<ExplorerFixtures> {
  const root = opts.root ?? mkdtempSync(join(tmpdir(), 'lexcase-explorer-'));
  const index = join(root, 'index');
  const runs = join(root, 'runs');
  const questions = (await loadQuestions('barexam', 'val')).slice(0, nQuestions);
  const gold = new Set(questions.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 150) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'explorer-test', workers: 0 },
  );

  const caseRunId = 'case-offline';
  const llmRunId = 'case-llm-scripted';
  const idx = await openCaseIndex(index);
  let systemRuns: SystemRuns | undefined;
  try {
    await runExperiment({
      lexcaseSystem: 'case',
      runDir: join(runs, caseRunId),
      system: createCase({ offline: true }),
      items: questions,
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: idx.retrievers, getPassage: idx.getPassage, options: {} }),
      config: { system: 'case', mode: OFFLINE_LABEL, hypotheses: 'direct', jurors: 0, k: 5, dataset: 'barexam', split: 'val', index },
      seed: 13,
    });
    // The LLM pipeline with a scripted model: each advocate searches with its hypothesis and keeps
    // the top two hits; jurors vote for the gold answer on even questions, for "A" otherwise. On the
    // first question each advocate asks for k+1 hits and picks them all and an unknown handle ("P99"),
    // its first note 450 characters long: one pick beyond k, one naming no handle shown, one note cut.
    const NOTE_450 = `${'states the rule that governs these facts and answers the question asked; '.repeat(7).slice(0, 449)}.`;
    const byPrompt = new Map(questions.map((q, i) => [q.question.slice(0, 60), i]));
    const script = (call: FakeCall): FakeReply => {
      if (/juror on a panel/.test(call.text)) {
        const i = [...byPrompt].find(([k]) => call.text.includes(k))?.[1] ?? 1;
        return JSON.stringify({ reasoning: `Weighing the advocates' evidence for question ${i + 1}.`, vote: i % 2 === 0 ? questions[i].answer : 'A' });
      }
      if (call.tools.length === 0) return '{"evidence":[]}';
      const last = call.messages[call.messages.length - 1];
      // an advocate of the first question: its hypothesis is one of that question's options
      const first = questions[0].choices.some((c) => call.text.includes(c.slice(0, 60)));
      if (last.getType() === 'human') {
        const hyp = (call.text.split('Hypothesis to support:\n')[1] ?? '').slice(0, 200);
        return { toolCalls: [{ name: 'bm25_search', args: { query: hyp, ...(first ? { k: 6 } : {}) } }] };
      }
      const ids: string[] = JSON.parse(String(last.content)).results.map((r: { id: string }) => r.id);
      const picks = first ? [...ids, 'P99'] : ids.slice(0, 2);
      return JSON.stringify({ evidence: picks.map((id, i) => ({ id, justification: first && i === 0 ? NOTE_450 : `states the rule in ${id}` })) });
    };
    const llm = new FakeChatModel(script);
    const tools = createRetrievalTools({ retrievers: idx.retrievers, docs: idx.docs });
    await runExperiment({
      lexcaseSystem: 'case',
      runDir: join(runs, llmRunId),
      system: createCase({ jurors: 3 }),
      items: questions.slice(0, 2),
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({ seed, tools, retrievers: idx.retrievers, llm, getPassage: idx.getPassage, options: {} }),
      config: { system: 'case', mode: 'llm', hypotheses: 'direct', jurors: 3, k: 5, dataset: 'barexam', split: 'val', index, model: 'scripted' },
      seed: 13,
    });
    if (opts.systems) {
      const texts = new Map(passages.map((p) => [p.id, p.text]));
      systemRuns = await makeSystemRuns(runs, questions, { retrievers: idx.retrievers, docs: idx.docs, getPassage: idx.getPassage, texts, dir: index });
    }
  } finally {
    await idx.docs.close?.();
  }
  let reproRunId: string | undefined;
  if (opts.reproduction) {
    // the recipe's real grid through the reproduction runner (retrieval runs only: no LLM command is run)
    reproRunId = 'reproduce-case-table3-n4';
    const { recipe, text } = loadRecipe('case-table3');
    await runGrid({
      recipe,
      recipeText: text,
      dir: join(runs, reproRunId),
      limit: 4,
      index,
      runCommand: async () => ({ code: 1, stdout: '', stderr: 'no LLM runs in this fixture' }),
    });
  }

  const acalRunId = 'acal/hearsay';
  mkdirSync(join(runs, acalRunId), { recursive: true });
  const graph = loadSampleGraph();
  writeGraph(join(runs, acalRunId), graph);

  return {
    root,
    index,
    runs,
    caseRunId,
    llmRunId,
    acalRunId,
    acalItem: graph.itemId,
    questions,
    systemRuns,
    reproRunId,
    async cleanup() {
      await closeSparseIndexes(index);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
