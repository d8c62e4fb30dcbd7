/**
 * What the learned evidence selector (evidence-selector.ts) looks at for one question: every
 * option's runs and the question's candidate passages with query-dependent match statistics.
 *
 * Per option o (the hypothesis): the plan's queries (advocate-queries.ts: hypothesis, key terms,
 * facts + hypothesis) and "question sentence + option", each through bm25 and qld, `depth` hits.
 * Per question: the facts (fact pattern + question) and the "joint key terms" query (the key terms
 * of all options together), through bm25 and qld. Every run is the retriever's top `depth` as its
 * printed run ranks it (retrieval/top-k.ts printedRun: trec_eval's order), not its internal tie order.
 * Candidates = the union of the top `candidateDepth` of every run (and each option's plan top k).
 * For every candidate p: BM25(query, p) / BM25(query, query) (the query's self-score, as in the IR
 * solver) and the idf-weighted share of the query's terms that p contains, for each option's
 * hypothesis and key-terms queries, and for the facts, joint key terms and question sentence.
 * Nothing here depends on a passage's id, source or length alone.
 */
import type { Hit, Retriever } from '../../retrieval/types.js';
import { bm25Idf } from '../../retrieval/sparse/score-core.js';
import { printedRun } from '../../retrieval/top-k.js';
import { advocateQueries, keyTerms, type QueryKind } from './advocate-queries.js';
import { bm25SelfScore } from './ir-solver.js';
import type { Hypothesis, ToolCallRecord } from './types.js';
import { errors } from '../../core/errors.js';
import { gatherCandidateSignals, type CandidateSignals, type SignalSource } from './evidence-signals.js';

/** The option-level query kinds the selector reads (the plan's three and question sentence + option). */
export type SelectorKind = QueryKind | 'question+hypothesis';
export const SELECTOR_KINDS: readonly SelectorKind[] = ['hypothesis', 'terms', 'facts+hypothesis', 'question+hypothesis'];

export interface RunPair {
  text: string;
  bm25: Hit[];
  qld: Hit[];
  /** BM25 self-score of the query (0 when it has no indexed term). */
  self: number;
}

export interface OptionRuns {
  hypothesis: Hypothesis;
  runs: Partial<Record<SelectorKind, RunPair>>;
  calls: ToolCallRecord[];
}

/** [score / self-score, idf-weighted matched share] of one query on one passage. */
export type Match = [number, number];

export interface QuestionEvidence {
  options: OptionRuns[];
  facts: RunPair;
  joint: RunPair;
  /** Question-level searches (facts, joint key terms). */
  calls: ToolCallRecord[];
  /** Candidate passage ids (first-seen order). */
  ids: string[];
  /** match[c][o] = [...hypothesis Match, ...key-terms Match] of candidate c for option o. */
  match: number[][][];
  /** qmatch[c] = [...facts, ...joint key terms, ...question sentence] Matches of candidate c. */
  qmatch: number[][];
  /** Dense and phrase signals of the candidates (when gathered with `signals`). */
  signals?: CandidateSignals;
}

export interface GatherOptions {
  facts: string;
  question: string;
  hypotheses: Hypothesis[];
  /** Hits per search (default 100). */
  depth?: number;
  /** Top hits of each run that become candidates (default 30). */
  candidateDepth?: number;
  /** Ids that must be candidates (e.g. each option's plan top k). */
  extra?: (runs: OptionRuns) => string[];
  /** Also gather the dense and phrase signals (evidence-signals.ts) with this dense retriever and passage texts. */
  signals?: SignalSource;
}

const EMPTY: RunPair = { text: '', bm25: [], qld: [], self: 0 };

async function runPair(bm25: Retriever, qld: Retriever, text: string, depth: number, calls: ToolCallRecord[]): Promise<RunPair> {
  if (!text.trim()) return { ...EMPTY, text };
  // each run as printed (retrieval/top-k.ts): the ranks the features and the plan's fusion read are the ranks `search` shows
  const b = await printedRun(bm25, text, depth);
  const l = await printedRun(qld, text, depth);
  calls.push({ tool: 'bm25_search', query: text, ids: b.map((h) => h.id), step: 0 }, { tool: 'qld_search', query: text, ids: l.map((h) => h.id), step: 0 });
  const self = b.length ? bm25SelfScore(await bm25.explain!(text, b[0].id)) : 0;
  return { text, bm25: b, qld: l, self };
}

/** Match statistics of `text` against each of `ids` (zeros for an empty query). */
async function matches(bm25: Retriever, text: string, self: number, ids: string[]): Promise<Match[]> {
  if (!text.trim() || self <= 0) return ids.map(() => [0, 0]);
  const out: Match[] = [];
  const all = bm25.explainMany ? await bm25.explainMany(text, ids) : await Promise.all(ids.map((id) => bm25.explain!(text, id)));
  for (const ex of all) {
    const N = Number((ex.detail as { N?: number } | undefined)?.N ?? 0);
    const idf = ex.terms.map((t) => bm25Idf(N, t.df));
    const total = idf.reduce((a, b) => a + b, 0);
    const hit = ex.terms.reduce((a, t, i) => a + (t.tf > 0 ? idf[i] : 0), 0);
    out.push([ex.score / self, total > 0 ? hit / total : 0]);
  }
  return out;
}

/** The key terms of all options together (the question's legal vocabulary), without repeats. */
export function jointKeyTerms(facts: string, hypotheses: Hypothesis[]): string {
  return [...new Set(hypotheses.flatMap((h) => keyTerms(h.text, facts)))].join(' ');
}

export function questionPlusHypothesis(question: string, hypothesis: string): string {
  return [question.trim(), hypothesis.trim()].filter(Boolean).join('\n');
}

/** Runs every search and match the selector needs (bm25 must have explain(); qld is required). */
export async function gatherQuestionEvidence(retrievers: { bm25: Retriever; qld: Retriever }, o: GatherOptions): Promise<QuestionEvidence> {
  const { bm25, qld } = retrievers;
  if (!bm25.explain) throw errors.invalidInput('retrievers', 'the evidence selector needs a bm25 retriever with explain()');
  const depth = o.depth ?? 100;
  const cdepth = o.candidateDepth ?? 30;
  const options: OptionRuns[] = [];
  for (const h of o.hypotheses) {
    const calls: ToolCallRecord[] = [];
    const runs: OptionRuns['runs'] = {};
    const texts = [...advocateQueries(o.facts, h.text), { kind: 'question+hypothesis' as const, text: questionPlusHypothesis(o.question, h.text) }];
    for (const q of texts) runs[q.kind] = await runPair(bm25, qld, q.text, depth, calls);
    options.push({ hypothesis: h, runs, calls });
  }
  const calls: ToolCallRecord[] = [];
  const facts = await runPair(bm25, qld, o.facts, depth, calls);
  const joint = await runPair(bm25, qld, jointKeyTerms(o.facts, o.hypotheses), depth, calls);
  const seen = new Set<string>();
  const add = (hits: Hit[]) => hits.slice(0, cdepth).forEach((h) => seen.add(h.id));
  for (const opt of options) {
    for (const r of Object.values(opt.runs)) add(r.bm25), add(r.qld);
    for (const id of o.extra?.(opt) ?? []) seen.add(id);
  }
  add(joint.bm25), add(joint.qld);
  const ids = [...seen];
  const perOption: Match[][][] = [];
  for (const opt of options) {
    const h = opt.runs.hypothesis ?? EMPTY;
    const t = opt.runs.terms ?? h;
    perOption.push([await matches(bm25, h.text, h.self, ids), await matches(bm25, t.text, t.self, ids)]);
  }
  const question = questionPlusHypothesis(o.question, '');
  const qSelf = question && ids.length ? bm25SelfScore(await bm25.explain(question, ids[0])) : 0;
  const q3 = [await matches(bm25, facts.text, facts.self, ids), await matches(bm25, joint.text, joint.self, ids), await matches(bm25, question, qSelf, ids)];
  const signals = o.signals
    ? await gatherCandidateSignals(o.signals, { facts: o.facts, question: o.question, hypotheses: o.hypotheses.map((h) => h.text), ids })
    : undefined;
  return {
    ...(signals ? { signals } : {}),
    options,
    facts,
    joint,
    calls,
    ids,
    match: ids.map((_, c) => perOption.map(([h, t]) => [...h[c], ...t[c]])),
    qmatch: ids.map((_, c) => q3.flatMap((m) => m[c])),
  };
}
