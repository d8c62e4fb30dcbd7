/**
 * CASE run endpoints: the question list of a run (with an accuracy filter) and one question's
 * trace — hypotheses, advocates' tool calls and evidence, jurors and verdict — with the gold
 * answer and gold passages from the run's dataset marked where they are known.
 */
import { traceKindOf } from '../../eval/systems.js';
import { z } from 'zod';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { readConfig, readResults, readTraceFor, tracePath } from '../../eval/run-dir.js';
import { notFound } from '../../serve/http/http-util.js';
import { publicRunConfig } from '../../serve/http/public-json.js';
import { graphPath, readGraph } from '../../agents/acal/graph/store.js';
import { resolvesInside, servable, type RunEntry } from './runs.js';
import { threeplyFactors } from './threeply-trace.js';

export const questionsQuerySchema = z.object({
  run: z.string().min(1).max(500),
  filter: z.enum(['all', 'correct', 'wrong']).default('all'),
});

export const traceQuerySchema = z.object({
  run: z.string().min(1).max(500),
  item: z.string().min(1).max(500),
});

const questionCache = new Map<string, Promise<Map<string, Question> | undefined>>();

/** Questions of the run's dataset by id, or undefined when the dataset cannot be loaded here. */
async function datasetQuestions(run: RunEntry): Promise<Map<string, Question> | undefined> {
  const cfg = ((await readConfig(run.dir).catch(() => undefined))?.config ?? {}) as Record<string, unknown>;
  const dataset = typeof cfg.dataset === 'string' ? cfg.dataset : undefined;
  if (!dataset) return undefined;
  let p = questionCache.get(dataset);
  if (!p) {
    p = loadQuestions(dataset, 'all').then(
      (qs) => new Map(qs.map((q) => [q.id, q])),
      () => undefined,
    );
    questionCache.set(dataset, p);
  }
  return p;
}

const flat = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
};

export async function runQuestions(run: RunEntry, filter: 'all' | 'correct' | 'wrong') {
  const parsed = await readResults(run.dir);
  const byId = new Map(parsed.records.map((r) => [r.id, r]));
  const all = [...byId.values()];
  const qs = await datasetQuestions(run);
  const rows = all
    .filter((r) => filter === 'all' || (filter === 'correct' ? r.correct : !r.correct))
    .map((r) => ({
      id: r.id,
      prediction: r.prediction,
      gold: r.gold,
      correct: r.correct,
      confidence: r.confidence ?? null,
      error: r.error ?? null,
      metrics: r.metrics ?? null,
      question: qs?.get(r.id) ? flat(qs.get(r.id)!.question, 140) : run.graphs ? graphText(run, r.id) : null,
    }));
  const config = await readConfig(run.dir).catch(() => undefined);
  return {
    run: {
      id: run.id,
      kind: run.kind,
      system: run.system,
      mode: run.mode,
      dataset: run.dataset,
      config: config?.config ? publicRunConfig(config.config) : null,
    },
    total: all.length,
    correct: all.filter((r) => r.correct).length,
    filter,
    questions: rows,
  };
}

/** The item's ACAL argument graph saved with the run (<run>/acal/<item>.graph.json), if there is one inside the runs root. */
function runGraph(run: RunEntry, item: string) {
  if (!resolvesInside(run.root, graphPath(run.dir, item))) return undefined;
  try {
    return readGraph(run.dir, item);
  } catch {
    return undefined;
  }
}

const graphText = (run: RunEntry, item: string): string | null => {
  const g = runGraph(run, item);
  return g ? flat(g.caseText, 140) : null;
};

export async function runTrace(run: RunEntry, item: string, passageText: (id: string) => Promise<string | undefined>) {
  const parsed = await readResults(run.dir);
  const result = parsed.records.filter((r) => r.id === item).pop();
  if (!result) throw notFound(`no item "${item}" in run "${run.id}"`);
  // a trace file linked outside the runs root is not served
  if (!servable(run.root, tracePath(run.dir, item))) throw notFound(`no trace for item "${item}" in run "${run.id}"`);
  // a trace of another attempt than the item's line (a retry stopped between the two writes) is not
  // shown, as \`lexcase report\` skips it; traceProblem says why
  const read = await readTraceFor(run.dir, result);
  const trace = read.trace ?? null;
  const traceProblem = read.trace || read.problem === 'missing' ? null : read.problem;
  const q = (await datasetQuestions(run))?.get(item);
  const graph = runGraph(run, item);
  const goldIds = q?.goldPassageIds ?? [];
  const goldPassages = [];
  for (const id of goldIds) {
    const text = await passageText(id).catch(() => undefined);
    goldPassages.push({ id, snippet: text === undefined ? null : flat(text, 400) });
  }
  return {
    run: { id: run.id, kind: run.kind, system: run.system, mode: run.mode },
    // the trace view of the run's system (the system list); null: the run recorded no system
    traceKind: run.system ? traceKindOf(run.system) : null,
    result,
    // the dataset's question; else, for an ACAL item, the case text and claim from the run's own argument graph
    question: q
      ? { id: q.id, question: q.question, prompt: q.prompt, choices: q.choices, answer: q.answer, source: 'dataset' }
      : graph
        ? { id: item, question: graph.caseText, prompt: `Claim: ${graph.claim.text}`, choices: [], answer: result.gold, source: 'argument graph' }
        : null,
    /** The item id in the argument view (#/args?run=&item=) when the run saved its graph. */
    argumentGraph: graph ? graph.itemId : null,
    goldPassageIds: goldIds,
    goldKnown: !!q,
    goldPassages,
    trace,
    traceProblem,
    factors: trace ? threeplyFactors(trace) : null,
  };
}
