/**
 * Round 0 (retrieval prep, paper 002 §3.2/§3.5): the shared Retriever returns the top-k authorities
 * for each option (query = facts + question + option text) through the retrieval tools
 * (`<method>_search`), pooled, deduplicated and interleaved by rank so no option's results crowd out
 * another's. Every debater (and the judge) sees the same pool; the baselines get the same pool, so
 * a MAD–baseline difference is the debate's, not the evidence's. Passage text comes from the index
 * doc store (ctx.getPassage), never from the dataset, so gold passages reach a prompt only if the
 * retriever returned them.
 */
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { Question } from '../../corpora/types.js';
import type { SystemContext } from '../../eval/types.js';
import { errors } from '../../src/errors.js';
import { factsOf } from '../case/question-text.js';
import type { PoolPassage } from './types.js';

export interface ToolHit {
  id: string;
  score: number;
  rank: number;
  snippet?: string;
}

export function findSearchTool(tools: StructuredToolInterface[], method: string): StructuredToolInterface {
  const name = `${method}_search`;
  const t = tools.find((x) => x.name === name);
  if (!t) throw errors.usage(`the "${method}" retrieval tool (${name}) is not available`, `available tools: ${tools.map((x) => x.name).join(', ') || 'none'}`);
  return t;
}

/** Run a search tool and parse its JSON reply ({results: [{id, score, rank, snippet}]}). */
export async function searchWith(tool: StructuredToolInterface, query: string, k: number, signal?: AbortSignal): Promise<ToolHit[]> {
  const out = await tool.invoke({ query, k }, { signal });
  const text = typeof out === 'string' ? out : typeof (out as { content?: unknown }).content === 'string' ? (out as { content: string }).content : JSON.stringify(out);
  const parsed = JSON.parse(text) as { results?: ToolHit[] };
  return (parsed.results ?? []).map((h) => ({ id: String(h.id), score: h.score, rank: h.rank, snippet: h.snippet }));
}

export function optionQuery(q: Pick<Question, 'prompt' | 'question'>, choice: string): string {
  return `${factsOf(q)}\n${choice}`;
}

export async function buildEvidencePool(q: Question, ctx: SystemContext, method: string, k: number): Promise<PoolPassage[]> {
  const tool = findSearchTool(ctx.tools, method);
  const perOption: { query: string; hits: ToolHit[] }[] = [];
  for (const choice of q.choices) {
    if (!choice.trim()) continue;
    const query = optionQuery(q, choice);
    perOption.push({ query, hits: await searchWith(tool, query, k, ctx.signal) });
  }
  const pool: PoolPassage[] = [];
  const seen = new Set<string>();
  for (let r = 0; r < k; r++) {
    for (const o of perOption) {
      const h = o.hits[r];
      if (!h || seen.has(h.id)) continue;
      seen.add(h.id);
      const p = await ctx.getPassage(h.id);
      pool.push({ id: h.id, text: p?.text ?? h.snippet ?? '', query: o.query });
    }
  }
  return pool;
}
