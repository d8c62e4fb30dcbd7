/**
 * CASE run endpoints: the question list of a run (with an accuracy filter) and one question's
 * trace — hypotheses, advocates' tool calls and evidence, jurors and verdict — with the gold
 * answer and gold passages from the run's dataset marked where they are known.
 */
import { z } from 'zod';
import { isAbsolute } from 'node:path';
import { datasetFileRecord, fileChecksum, loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { readConfig, readResults, readTraceFor, traceReadPath } from '../../eval/run-dir.js';
import { notFound } from '../../serve/http/http-util.js';
import { statKey } from './content-key.js';
import { publicRunConfig } from '../../serve/http/public-json.js';
import { graphPath, readGraph } from '../../agents/acal/graph/store.js';
import { resolvesInside, servable, type RunEntry } from './runs.js';
import { threeplyFactors } from './threeply-trace.js';

export const questionsQuerySchema = z
  .object({
    run: z.string().min(1).max(500),
    filter: z.enum(['all', 'correct', 'wrong']).default('all'),
  })
  .strict();

export const traceQuerySchema = z
  .object({
    run: z.string().min(1).max(500),
    item: z.string().min(1).max(500),
  })
  .strict();

/** Questions by id of one dataset file (key: the dataset, and the file when not the bundled copy). */
const questionCache = new Map<string, Promise<Map<string, Question> | undefined>>();

function questionsOf(dataset: string, file?: string): Promise<Map<string, Question> | undefined> {
  const key = `${dataset}\0${file ?? ''}`;
  let p = questionCache.get(key);
  if (!p) {
    p = loadQuestions(dataset, 'all', file ? { file } : {}).then(
      (qs) => new Map(qs.map((q) => [q.id, q])),
      () => undefined,
    );
    questionCache.set(key, p);
  }
  return p;
}

/** The bundled copy's sha256 of a dataset (undefined: not a bundled dataset). */
const bundledSha = new Map<string, Promise<string | undefined>>();
function bundledChecksum(dataset: string): Promise<string | undefined> {
  let p = bundledSha.get(dataset);
  if (!p) {
    p = datasetFileRecord(dataset, 'all').then(
      (r) => r.sha256,
      () => undefined,
    );
    bundledSha.set(dataset, p);
  }
  return p;
}

/**
 * sha256 of a recorded data file (undefined: unreadable), hashed again only when its stat key
 * (content-key.ts statKey: size, mtime, ctime, inode, device) changes: every item opened asked it.
 * A hash made while the file's last change is under 2 s old is not kept.
 */
const recordedSha = new Map<string, { stamp: string; sha: Promise<string | undefined> }>();
function recordedChecksum(file: string): Promise<string | undefined> {
  const { key, settled } = statKey(file);
  const hit = recordedSha.get(file);
  if (hit && hit.stamp === key) return hit.sha;
  const sha = fileChecksum(file).catch(() => undefined);
  if (settled) recordedSha.set(file, { stamp: key, sha });
  else recordedSha.delete(file);
  return sha;
}

/** What the run recorded of the dataset file it read (config.dataFiles, corpora/registry.ts datasetFileRecord), when it did. */
function recordedFile(cfg: Record<string, unknown>, dataset: string): { file: string; sha256: string; source?: string } | undefined {
  const files = cfg.dataFiles && typeof cfg.dataFiles === 'object' ? Object.values(cfg.dataFiles as Record<string, unknown>) : [];
  for (const f of files) {
    const r = f as Record<string, unknown> | null;
    if (r && r.dataset === dataset && typeof r.sha256 === 'string' && typeof r.file === 'string')
      return { file: r.file, sha256: r.sha256, source: typeof r.source === 'string' ? r.source : undefined };
  }
  return undefined;
}

interface RunQuestions {
  byId: Map<string, Question>;
  /** Set when the text shown is not the text the run read: the bundled copy differs from the file it recorded. */
  note?: string;
}

/**
 * The questions of the run's dataset by id, as the run read them: the bundled copy when the run
 * recorded no data file or one with the bundled copy's sha256; else the file it recorded, when it
 * is still there with that sha256; else the bundled copy, with a note that it differs (the model saw
 * other text). Undefined when the dataset cannot be loaded here. Before, the bundled copy was shown
 * whatever the run read.
 */
async function datasetQuestions(run: RunEntry): Promise<RunQuestions | undefined> {
  const cfg = ((await readConfig(run.dir).catch(() => undefined))?.config ?? {}) as Record<string, unknown>;
  const dataset = typeof cfg.dataset === 'string' ? cfg.dataset : undefined;
  if (!dataset) return undefined;
  const rec = recordedFile(cfg, dataset);
  const bundled = await bundledChecksum(dataset);
  if (rec && rec.sha256 !== bundled) {
    const own = rec.source !== 'bundled' && isAbsolute(rec.file) ? await recordedChecksum(rec.file) : undefined;
    if (own === rec.sha256) {
      const byId = await questionsOf(dataset, rec.file);
      if (byId) return { byId };
    }
    const byId = await questionsOf(dataset);
    return (
      byId && {
        byId,
        note: `the text shown is the bundled copy of ${dataset}${bundled ? ` (sha256 ${bundled.slice(0, 12)}…)` : ''}, which differs from the file this run read (${rec.file}, sha256 ${rec.sha256.slice(0, 12)}…${own === undefined ? ', not found here' : ', changed since'}): the model may have seen other text`,
      }
    );
  }
  const byId = await questionsOf(dataset);
  return byId && { byId };
}

const flat = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
};

export async function runQuestions(run: RunEntry, filter: 'all' | 'correct' | 'wrong') {
  const parsed = await readResults(run.dir);
  const byId = new Map(parsed.records.map((r) => [r.id, r]));
  const all = [...byId.values()];
  const rq = await datasetQuestions(run);
  const qs = rq?.byId;
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
    /** Set when the question texts are the bundled copy's and the run read another file. */
    questionNote: rq?.note ?? null,
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
  if (!servable(run.root, traceReadPath(run.dir, item))) throw notFound(`no trace for item "${item}" in run "${run.id}"`);
  // a trace of another attempt than the item's line (a retry stopped between the two writes) is not
  // shown, as \`lexcase report\` skips it; traceProblem says why
  const read = await readTraceFor(run.dir, result);
  const trace = read.trace ?? null;
  const traceProblem = read.trace || read.problem === 'missing' ? null : read.problem;
  const rq = await datasetQuestions(run);
  const q = rq?.byId.get(item);
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
    traceKind: run.traceKind ?? null,
    result,
    // the dataset's question; else, for an ACAL item, the case text and claim from the run's own argument graph
    question: q
      ? { id: q.id, question: q.question, prompt: q.prompt, choices: q.choices, answer: q.answer, source: 'dataset', ...(rq?.note ? { note: rq.note } : {}) }
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
