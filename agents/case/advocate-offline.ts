/**
 * The offline heuristic advocate (no LLM). Its query plan (advocate-queries.ts, chosen on the Bar
 * Exam QA train split, docs/case.md): three queries per hypothesis — the hypothesis alone, its key
 * legal terms, and the facts + question + hypothesis — each sent through the plan's retrievers
 * (default bm25; else the first of qld, dense, hybrid the index has; `methods` overrides), and the
 * runs fused by weighted reciprocal-rank fusion, score(d) = Σ_runs w_query / (rrfK + rank), which
 * de-duplicates the union. Each run is the retriever's top `depth` as its printed run ranks it
 * (retrieval/top-k.ts printedRun: trec_eval's order, ties by docid descending, a tie across the depth
 * cut searched past), not its internal tie order, so the ranks fused are the ranks `search --method
 * <m>` prints (the run config records this as `componentRanking`). Evidence = the top k fused passages; each passage's score is its fused
 * score, its "justification" names the query and rank that put it there.
 *
 * For `stance: 'against'` (used by `lexcase evidence --against`), a second fused run for the facts
 * alone is made, and passages are ranked by contrast = RRF(facts) − RRF(facts + hypothesis): the
 * passages relevant to the case that the hypothesis does NOT pull up. This is a weak lexical proxy
 * for counter-evidence and is labelled as such.
 */
import type { Hit, Retriever } from '../../retrieval/types.js';
import { errors } from '../../core/errors.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { log } from '../../core/log.js';
import { METHOD_NAMES } from '../../retrieval/methods.js';
import { advocateQueries, type QueryKind } from './advocate-queries.js';
import { reciprocalRankFusion } from '../../retrieval/fusion.js';
import { printedRun } from '../../retrieval/top-k.js';
import type { AdvocateResult, EvidenceItem, Hypothesis, ToolCallRecord } from './types.js';

export const OFFLINE_LABEL = 'offline heuristic, no LLM';
export const OFFLINE_METHODS = ['bm25', 'qld', 'dense'] as const;
/** Hits each search fetches before fusion (OfflineAdvocateOptions.depth's default). */
export const OFFLINE_DEPTH = 100;

/** How a `for` advocate queries and fuses (weights per query kind; RRF constant; default methods in preference order). */
export interface QueryPlan {
  weights: Record<QueryKind, number>;
  rrfK: number;
  /** Default retrievers: the first of these the index has (one method: fusing more did not help on train). */
  prefer: string[];
  /**
   * Cross-advocate de-duplication (evidence-share.ts): at most this many advocates of a question may
   * hold the same passage. Absent = no limit (the default: on train share 1 raised "gold in any
   * advocate's evidence" 42.5% → 43.9% but lowered "in the correct one's" 28.4% → 25.3%; docs/case.md).
   */
  share?: number;
}

/** Chosen on the Bar Exam QA train split (n = 954), default corpus: see docs/case.md. */
export const DEFAULT_QUERY_PLAN: QueryPlan = {
  weights: { hypothesis: 1, terms: 0.5, 'facts+hypothesis': 0.1 },
  rrfK: 10,
  prefer: ['bm25', 'qld', 'dense', 'hybrid'],
};

export interface OfflineAdvocateOptions {
  retrievers: Partial<Record<string, Retriever>>;
  /**
   * Methods to use (default: `for` — the plan's first available method; `against` — every one of bm25/qld/dense present, else hybrid).
   * Each must be a retriever of `retrievers` (a name that is not is refused); rewrite is skipped with a warning (no LLM).
   */
  methods?: string[];
  facts: string;
  hypothesis: Hypothesis;
  k: number;
  stance?: 'for' | 'against';
  /** Hits per retriever before fusion (default OFFLINE_DEPTH, 100). */
  depth?: number;
  getPassage?: (id: string) => Promise<{ id: string; text: string } | undefined>;
  /** Query plan of a `for` advocate (default DEFAULT_QUERY_PLAN). */
  plan?: QueryPlan;
}

/** The methods a `for` advocate uses: `wanted` (each one the index must have), else the plan's first available method. */
export function planMethods(retrievers: Partial<Record<string, Retriever>>, wanted: string[] | undefined, plan: QueryPlan = DEFAULT_QUERY_PLAN): string[] {
  const chosen = wantedMethods(retrievers, wanted);
  if (chosen) return chosen;
  const first = plan.prefer.find((m) => retrievers[m]);
  return first ? [first] : offlineMethods(retrievers);
}

/** The names an offline advocate skips on purpose: the query rewriter needs an LLM. */
export const isRewriteTool = (name: string): boolean => name === 'rewrite' || name === 'rewrite_query';

/**
 * The methods an offline advocate searches: `wanted` — every one of them a retriever the index has
 * (a name it lacks, or no method at all, is refused naming each, as the LLM advocate's tool list is:
 * select-tools.ts; before, `bm26,qld` ran qld alone and `bm25,dense` on a sparse index bm25 alone) —
 * else every one of bm25, qld, dense the index has, else hybrid.
 */
export function offlineMethods(retrievers: Partial<Record<string, Retriever>>, wanted?: string[]): string[] {
  const chosen = wantedMethods(retrievers, wanted);
  if (chosen) return chosen;
  const present = presentMethods(retrievers);
  let methods = OFFLINE_METHODS.filter((m) => present.includes(m)) as string[];
  if (methods.length === 0 && present.includes('hybrid')) methods = ['hybrid'];
  if (methods.length === 0)
    throw errors.usage(
      `offline advocate: none of the retrievers ${OFFLINE_METHODS.join(', ')} is available (index has: ${present.join(', ') || 'none'})`,
      'build the index with --methods bm25,qld (and dense) or pass --tools with a method the index has',
    );
  return methods;
}

const presentMethods = (retrievers: Partial<Record<string, Retriever>>) => Object.keys(retrievers).filter((m) => retrievers[m]);

/**
 * `wanted` (bm25 or bm25_search, …) as the methods to search, checked against the index; undefined
 * when nothing but rewrite was wanted (the caller's default then). rewrite / rewrite_query are skipped,
 * with a warning: there is no LLM to rewrite a query with.
 */
function wantedMethods(retrievers: Partial<Record<string, Retriever>>, wanted: string[] | undefined): string[] | undefined {
  if (!wanted?.length) return undefined;
  const skipped = wanted.filter(isRewriteTool);
  const methods = [...new Set(wanted.filter((w) => !isRewriteTool(w)).map((w) => w.replace(/_search$/, '')))];
  const present = presentMethods(retrievers);
  const missing = methods.filter((m) => !present.includes(m));
  if (missing.length) {
    const has = `(index has: ${present.join(', ') || 'none'})`;
    const named = missing.map((m) => {
      if (METHOD_NAMES.includes(m)) return m;
      const near = didYouMean(m, [...new Set([...present, ...METHOD_NAMES])]).trim();
      return `${m} (not a retrieval method${near ? `; ${near}` : ''})`;
    });
    throw errors.usage(
      missing.length === methods.length
        ? `offline advocate: none of the retrievers ${named.join(', ')} is available ${has}`
        : `offline advocate: retriever(s) not available: ${named.join(', ')} ${has}`,
      `pass --tools (findEvidence: \`use\`) with methods the index has: ${present.join(', ') || 'none'} (methods: ${METHOD_NAMES.join(', ')}; add dense with: lexcase index dense DIR)`,
    );
  }
  if (skipped.length)
    log.warn(
      `offline advocate: ${skipped.join(', ')} skipped: rewriting a query needs an LLM; ${methods.length ? `it searches ${methods.join(', ')}` : 'it searches its default methods'}`,
    );
  return methods.length ? methods : undefined;
}

async function searchAll(retrievers: Partial<Record<string, Retriever>>, methods: string[], query: string, depth: number, calls: ToolCallRecord[]) {
  const runs: Record<string, Hit[]> = {};
  for (const m of methods) {
    const hits = await printedRun(retrievers[m]!, query, depth);
    runs[m] = hits;
    calls.push({ tool: `${m}_search`, query, ids: hits.map((h) => h.id), step: 0 });
  }
  return runs;
}

export async function runOfflineAdvocate(o: OfflineAdvocateOptions): Promise<AdvocateResult> {
  const stance = o.stance ?? 'for';
  const depth = o.depth ?? OFFLINE_DEPTH;
  // checked (and a skipped rewrite said) once: a `for` advocate's plan methods, else every one wanted or present
  const plan = o.plan ?? DEFAULT_QUERY_PLAN;
  const methods = stance === 'for' ? planMethods(o.retrievers, o.methods, plan) : offlineMethods(o.retrievers, o.methods);
  if (stance === 'against' && !o.facts.trim())
    throw errors.usage('offline counter-evidence needs the facts of the case', 'give the facts (or configure an LLM)');
  const calls: ToolCallRecord[] = [];
  if (stance === 'for') return runForAdvocate(o, plan, methods, depth, calls);
  const query = `${o.facts}\n${o.hypothesis.text}`;
  const runs = await searchAll(o.retrievers, methods, query, depth, calls);
  const fused = reciprocalRankFusion(Object.entries(runs).map(([method, hits]) => ({ method, hits })));
  let chosen: { id: string; score: number }[];
  const factRuns = await searchAll(o.retrievers, methods, o.facts, depth, calls);
  {
    const factsFused = reciprocalRankFusion(Object.entries(factRuns).map(([method, hits]) => ({ method, hits })));
    const hypScore = new Map(fused.map((h) => [h.id, h.score]));
    chosen = factsFused
      .map((h) => ({ id: h.id, score: h.score - (hypScore.get(h.id) ?? 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, o.k);
  }
  const evidence: EvidenceItem[] = [];
  for (const c of chosen) {
    // the ranks the contrast came from: the facts-alone runs' (which put the passage there) and the facts + hypothesis runs'
    const ranks = (rs: Record<string, Hit[]>) => methods.map((m) => `${m} #${rs[m].find((h) => h.id === c.id)?.rank ?? '-'}`).join(', ');
    const text = o.getPassage ? (await o.getPassage(c.id))?.text : undefined;
    evidence.push({
      id: c.id,
      score: c.score,
      justification: `${OFFLINE_LABEL}: contrast of facts alone (${ranks(factRuns)}) vs facts + hypothesis (${ranks(runs)})`,
      ...(text !== undefined ? { text } : {}),
    });
  }
  const retrievalScores: Record<string, number> = {};
  for (const m of methods) {
    const top = runs[m].slice(0, o.k);
    retrievalScores[m] = top.length ? top.reduce((s, h) => s + h.score, 0) / top.length : 0;
  }
  return { hypothesis: o.hypothesis, stance, evidence, toolCalls: calls, rejectedIds: [], steps: 0, stop: 'offline', tokens: 0, retrievalScores };
}

/** The `for` advocate: the plan's queries through its methods, weighted-RRF-fused, top k. */
async function runForAdvocate(o: OfflineAdvocateOptions, plan: QueryPlan, methods: string[], depth: number, calls: ToolCallRecord[]): Promise<AdvocateResult> {
  const kinds = (Object.keys(plan.weights) as QueryKind[]).filter((k) => plan.weights[k] > 0);
  const queries = advocateQueries(o.facts, o.hypothesis.text, kinds);
  const retrievalScores: Record<string, number> = {};
  // One ranked list per (query, method), keyed by its position; fused by weighted RRF (lists in
  // query-then-method order, so every passage's sum adds in that order).
  const lists: { method: string; hits: Hit[] }[] = [];
  const weights: Record<string, number> = {};
  const labels: Record<string, { method: string; what: string }> = {};
  for (const q of queries) {
    for (const m of methods) {
      const hits = await printedRun(o.retrievers[m]!, q.text, depth);
      calls.push({ tool: `${m}_search`, query: q.text, ids: hits.map((h) => h.id), step: 0 });
      if (q.kind === 'facts+hypothesis') {
        const top = hits.slice(0, o.k);
        retrievalScores[m] = top.length ? top.reduce((s, h) => s + h.score, 0) / top.length : 0;
      }
      const key = String(lists.length);
      lists.push({ method: key, hits });
      weights[key] = plan.weights[q.kind];
      labels[key] = { method: m, what: q.kind === 'terms' ? `key terms "${q.text}"` : q.kind };
    }
  }
  const chosen = reciprocalRankFusion(lists, { rrfK: plan.rrfK, weights, k: o.k });
  const evidence: EvidenceItem[] = [];
  for (const h of chosen) {
    // The list that gave the passage its largest contribution (the first such list on a tie).
    let best: [string, { rank: number; contribution: number }] | undefined;
    for (const c of Object.entries(h.components)) if (!best || c[1].contribution > best[1].contribution) best = c;
    const from = best ? `${labels[best[0]]!.method} #${best[1].rank} for the ${labels[best[0]]!.what}` : '';
    const text = o.getPassage ? (await o.getPassage(h.id))?.text : undefined;
    evidence.push({ id: h.id, score: h.score, justification: `${OFFLINE_LABEL}: fused rank from ${from}`, ...(text !== undefined ? { text } : {}) });
  }
  return { hypothesis: o.hypothesis, stance: 'for', evidence, toolCalls: calls, rejectedIds: [], steps: 0, stop: 'offline', tokens: 0, retrievalScores };
}
