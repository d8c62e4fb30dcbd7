/**
 * The offline heuristic advocate (no LLM): its query is the facts + question + hypothesis text, sent
 * through each available lexical/dense retriever (bm25, qld, dense; hybrid when it is the only one),
 * and the runs are fused with reciprocal-rank fusion. Evidence = the top k fused passages; each
 * passage's score is its RRF score, its "justification" names the ranks that put it there.
 *
 * For `stance: 'against'` (used by `lexcase evidence --against`), a second fused run for the facts
 * alone is made, and passages are ranked by contrast = RRF(facts) − RRF(facts + hypothesis): the
 * passages relevant to the case that the hypothesis does NOT pull up. This is a weak lexical proxy
 * for counter-evidence and is labelled as such.
 */
import type { Hit, Retriever } from '../../retrieval/types.js';
import { errors } from '../../src/errors.js';
import { rrfFuse } from './rrf.js';
import type { AdvocateResult, EvidenceItem, Hypothesis, ToolCallRecord } from './types.js';

export const OFFLINE_LABEL = 'offline heuristic, no LLM';
export const OFFLINE_METHODS = ['bm25', 'qld', 'dense'] as const;

export interface OfflineAdvocateOptions {
  retrievers: Partial<Record<string, Retriever>>;
  /** Methods to use (default: every one of bm25/qld/dense present; else hybrid). */
  methods?: string[];
  facts: string;
  hypothesis: Hypothesis;
  k: number;
  stance?: 'for' | 'against';
  /** Hits per retriever before fusion (default 100). */
  depth?: number;
  getPassage?: (id: string) => Promise<{ id: string; text: string } | undefined>;
}

export function offlineMethods(retrievers: Partial<Record<string, Retriever>>, wanted?: string[]): string[] {
  const present = Object.keys(retrievers).filter((m) => retrievers[m]);
  const pool = wanted?.length ? wanted.map((w) => w.replace(/_search$/, '')) : [...OFFLINE_METHODS];
  let methods = pool.filter((m) => present.includes(m) && m !== 'rewrite');
  if (!wanted?.length && methods.length === 0 && present.includes('hybrid')) methods = ['hybrid'];
  if (methods.length === 0)
    throw errors.usage(
      `offline advocate: none of the retrievers ${pool.join(', ')} is available (index has: ${present.join(', ') || 'none'})`,
      'build the index with --methods bm25,qld (and dense) or pass --tools with a method the index has',
    );
  return methods;
}

async function searchAll(retrievers: Partial<Record<string, Retriever>>, methods: string[], query: string, depth: number, calls: ToolCallRecord[]) {
  const runs: Record<string, Hit[]> = {};
  for (const m of methods) {
    const hits = await retrievers[m]!.search(query, { k: depth });
    runs[m] = hits;
    calls.push({ tool: `${m}_search`, query, ids: hits.map((h) => h.id), step: 0 });
  }
  return runs;
}

export async function runOfflineAdvocate(o: OfflineAdvocateOptions): Promise<AdvocateResult> {
  const stance = o.stance ?? 'for';
  const depth = o.depth ?? 100;
  const methods = offlineMethods(o.retrievers, o.methods);
  if (stance === 'against' && !o.facts.trim())
    throw errors.usage('offline counter-evidence needs the facts of the case', 'pass --facts TEXT or --question ID (or configure an LLM)');
  const calls: ToolCallRecord[] = [];
  const query = `${o.facts}\n${o.hypothesis.text}`;
  const runs = await searchAll(o.retrievers, methods, query, depth, calls);
  const fused = rrfFuse(Object.values(runs));
  const rankIn = (m: string, id: string) => runs[m].find((h) => h.id === id)?.rank;
  let chosen: { id: string; score: number }[];
  if (stance === 'for') chosen = fused.slice(0, o.k);
  else {
    const factRuns = await searchAll(o.retrievers, methods, o.facts, depth, calls);
    const factsFused = rrfFuse(Object.values(factRuns));
    const hypScore = new Map(fused.map((h) => [h.id, h.score]));
    chosen = factsFused
      .map((h) => ({ id: h.id, score: h.score - (hypScore.get(h.id) ?? 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, o.k);
  }
  const evidence: EvidenceItem[] = [];
  for (const c of chosen) {
    const ranks = methods.map((m) => `${m} #${rankIn(m, c.id) ?? '-'}`).join(', ');
    const text = o.getPassage ? (await o.getPassage(c.id))?.text : undefined;
    evidence.push({
      id: c.id,
      score: c.score,
      justification: `${OFFLINE_LABEL}: ${stance === 'for' ? 'fused rank' : 'contrast'} from ${ranks} for facts + question${stance === 'for' ? ' + hypothesis' : ''}`,
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
